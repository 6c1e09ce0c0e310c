"""Shapes the API exchanges (camelCase JSON), built from the store's rows."""

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    with_config,
)
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from fleetscope.analytics.core.param_rules import MAX_SHIFT_ID_LENGTH, MAX_VEHICLE_IDS, AnalysisDay
from fleetscope.appstore.models import Role, Site, User, Vehicle

Language = Literal["en", "de"]
DateMode = Literal["day", "week", "month", "year", "custom"]
# The ranges people think in (product.md section 4); saved by name, so they stay relative:
# an analysis reads one as of now (analytics/core/relative_ranges.py; the client likewise).
RelativeRange = Literal[
    "today",
    "yesterday",
    "currentShift",
    "previousShift",
    "last24Hours",
    "last7Days",
    "thisWeekSoFar",
    "lastWeek",
    "thisMonthSoFar",
    "lastMonth",
    "thisYearSoFar",
]
LANGUAGES: tuple[Language, ...] = ("en", "de")
CHOSEN_LANGUAGE = (
    "the language the user or an administrator chose; none: the app follows the browser"
)


def chosen_language(user: User) -> Language | None:
    return next((language for language in LANGUAGES if language == user.language), None)


def _without_nul(text: str) -> str:
    if "\x00" in text:
        raise PydanticCustomError("string_nul", "String should not contain the NUL character")
    return text


# Text the app store keeps or looks up: PostgreSQL's text cannot hold the NUL character (the
# driver fails, a 500), so a request with one is a 422 naming the field, on every store.
StoredText = Annotated[str, AfterValidator(_without_nul)]


class CamelModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        json_schema_serialization_defaults_required=True,
    )


# For a ``TypedDict`` an answer holds by the hundreds or thousands (figures, chart and map
# points): camel-case names like ``CamelModel``, but a dict is built at once where a model,
# even constructed without validation, costs 5-8 us (700 a Battery answer).
camel_case = with_config(
    ConfigDict(alias_generator=to_camel, json_schema_serialization_defaults_required=True)
)


class StrictCamelModel(CamelModel):
    """Request bodies: unknown fields are an error, not silently dropped; numbers are finite
    (JSON has no NaN, but Python's parser and pydantic's lax mode read ``NaN`` and ``"NaN"``);
    numbers and flags are declared strict (``StrictInt``, ``StrictBool``): lax mode reads true
    as 1, "7" as 7 and "yes" as true."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", allow_inf_nan=False
    )


class UserOut(CamelModel):
    id: int
    email: str
    role: Role
    organization_id: int | None
    display_name: str
    language: Language | None = Field(description=CHOSEN_LANGUAGE)
    password_temporary: bool = Field(
        description="the password was set by an administrator; the user should choose their own"
    )


class ShiftOut(CamelModel):
    id: str
    name: str
    start: str
    end: str
    weekdays: list[int]


class SiteOut(CamelModel):
    id: int
    name: str
    time_zone: str
    organization_id: int
    organization_name: str
    shifts: list[ShiftOut]


class VehicleOut(CamelModel):
    id: int
    name: str
    manufacturer: str
    serial_number: str
    model: str | None
    site_id: int
    site_name: str
    organization_id: int
    organization_name: str
    protocol_version: str | None
    battery_capacity_wh: float | None
    retired_at: datetime | None = Field(
        description="out of service since (no live tile, not in 'all machines' for periods "
        "after that day); null: in service"
    )


class DateSelector(CamelModel):
    mode: DateMode
    from_: date = Field(alias="from")
    to: date
    combined: bool
    workflow_shift: str
    # Only in the answer while a relative range is saved (from/to: the days it gave then).
    relative_range: RelativeRange | None = Field(
        default=None, exclude_if=lambda value: value is None
    )


class AppSettingsOut(CamelModel):
    date_selector: DateSelector
    selected_machines: list[int]
    onboarding_watched: bool


class DateSelectorPatch(StrictCamelModel):
    # The rules of the analysis parameters (``param_rules``): a saved value stands in for them.
    mode: DateMode | None = None
    from_: AnalysisDay | None = Field(default=None, alias="from")
    to: AnalysisDay | None = None
    combined: StrictBool | None = None
    workflow_shift: str | None = Field(default=None, min_length=1, max_length=MAX_SHIFT_ID_LENGTH)
    # Given: the period is kept relative; from/to without it: a fixed period from then on.
    relative_range: RelativeRange | None = None


class AppSettingsPatch(StrictCamelModel):
    date_selector: DateSelectorPatch | None = None
    selected_machines: list[StrictInt] | None = Field(default=None, max_length=MAX_VEHICLE_IDS)
    onboarding_watched: StrictBool | None = None


class UserPatch(StrictCamelModel):
    language: Language | None = Field(
        default=None,
        description="the language to use; null: none chosen, the app follows the browser; "
        "left out: unchanged",
    )
    display_name: StoredText | None = Field(default=None, max_length=200)


class DashboardWidget(BaseModel):
    """One widget of a user's dashboard; fields beyond id and kind belong to the widget."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1, max_length=100)
    kind: str = Field(min_length=1, max_length=100)


def user_out(user: User) -> UserOut:
    return UserOut(
        id=user.id,
        email=user.email,
        role=Role(user.role),
        organization_id=user.organization_id,
        display_name=user.display_name,
        language=chosen_language(user),
        password_temporary=bool(user.password_temporary),
    )


def site_out(site: Site) -> SiteOut:
    return SiteOut(
        id=site.id,
        name=site.name,
        time_zone=site.time_zone,
        organization_id=site.organization_id,
        organization_name=site.organization.name,
        shifts=[ShiftOut.model_validate(shift) for shift in site.shifts],
    )


def vehicle_out(vehicle: Vehicle) -> VehicleOut:
    return VehicleOut(
        id=vehicle.id,
        name=vehicle.name,
        manufacturer=vehicle.manufacturer,
        serial_number=vehicle.serial_number,
        model=vehicle.model,
        site_id=vehicle.site_id,
        site_name=vehicle.site.name,
        organization_id=vehicle.site.organization_id,
        organization_name=vehicle.site.organization.name,
        protocol_version=vehicle.protocol_version,
        battery_capacity_wh=vehicle.battery_capacity_wh,
        retired_at=vehicle.retired_at,
    )
