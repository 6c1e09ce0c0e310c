"""Request bodies of the Administration API (camelCase JSON; unknown fields are a 422)."""

from typing import Annotated, Any, TypeVar

from pydantic import BeforeValidator, Field, StrictBool, StrictFloat, StrictInt
from pydantic_core import PydanticCustomError

from fleetscope.analytics.core.param_rules import MAX_SHIFT_ID_LENGTH
from fleetscope.appstore.models import Role
from fleetscope.appstore.schemas import Language, StoredText, StrictCamelModel
from fleetscope.appstore.workflow_rules import MAX_RULES
from fleetscope.i18n.validation import NOT_NULL

MAX_STORE_ID = 2**31 - 1  # INTEGER columns on PostgreSQL: a larger id is a 422, not a 500
# Strict, as every number and flag of a body: lax mode read true as 1, "7" as 7, "yes" as true.
StoreIdValue = Annotated[int, Field(strict=True, ge=1, le=MAX_STORE_ID)]
Name = Annotated[StoredText, Field(min_length=1, max_length=200)]


def _given_not_null(value: object) -> object:
    if value is None:
        raise PydanticCustomError("not_null", NOT_NULL.text("en"))
    return value


def _without_null(schema: dict[str, Any]) -> None:
    """The document says what is accepted: the field's own type, not ``anyOf [.., null]``."""
    kinds = schema.pop("anyOf", None) or []
    for kind in kinds:
        if kind.get("type") != "null":
            schema.update(kind)


_T = TypeVar("_T")
# A PATCH field that cannot be empty: left out it stays as it is; null is a 422 naming it
# (it read as "left out": a site's `version: null` skipped the check for a newer change).
Kept = Annotated[
    _T | None, BeforeValidator(_given_not_null), Field(json_schema_extra=_without_null)
]


class OrganizationBody(StrictCamelModel):
    name: Name


class PartnerOrganizations(StrictCamelModel):
    organization_ids: list[StoreIdValue] = Field(max_length=10_000)


class PartnerLinksChange(PartnerOrganizations):
    edited_from: list[StoreIdValue] | None = Field(
        default=None,
        max_length=10_000,
        description="the partner's organizations the change was made on: if they differ now "
        "(another administrator saved meanwhile), the change is refused (409); none: no check",
    )


class ShiftIn(StrictCamelModel):
    id: StoredText = Field(min_length=1, max_length=MAX_SHIFT_ID_LENGTH)
    name: StoredText = Field(min_length=1, max_length=100)
    start: str = Field(description="HH:MM, local time of the site", max_length=5)
    end: str = Field(description="HH:MM; before start: the shift ends the next day", max_length=5)
    weekdays: list[StrictInt] = Field(
        description="the weekdays the shift starts on, 0 = Monday .. 6 = Sunday", max_length=7
    )


class SiteCreate(StrictCamelModel):
    organization_id: StoreIdValue
    name: Name
    time_zone: str = Field(default="Europe/Berlin", max_length=64)
    mqtt_interface: StoredText | None = Field(default=None, max_length=100)


class SitePatch(StrictCamelModel):
    """Only the fields given change; ``mqttInterface: null`` removes the interface."""

    name: Kept[Name] = None
    time_zone: Kept[str] = Field(default=None, max_length=64)
    mqtt_interface: StoredText | None = Field(default=None, max_length=100)
    shifts: Kept[list[ShiftIn]] = Field(default=None, max_length=50)
    workflow_rules: Kept[list[StoredText]] = Field(default=None, max_length=MAX_RULES)
    load_action_types: Kept[list[StoredText]] = Field(default=None, max_length=1_000)
    version: Kept[str] = Field(
        default=None,
        max_length=64,
        description="the site's `version` the change was made on: if another change has "
        "landed since, 409 and nothing changes; omitted, no check",
    )


class WorkflowPreviewBody(StrictCamelModel):
    workflow_rules: list[str] = Field(max_length=MAX_RULES)


class VehiclePatch(StrictCamelModel):
    """Only the fields given change; ``batteryCapacityWh: null`` removes the capacity."""

    name: Kept[Name] = None
    battery_capacity_wh: StrictFloat | None = Field(default=None, gt=0, le=10_000_000)
    site_id: Kept[StoreIdValue] = None
    retired: Kept[StrictBool] = Field(
        default=None,
        description="true: out of service from now on (no live tile, not in 'all machines' "
        "for periods after that day; its history and messages stay); false: back in service",
    )


class UserCreate(StrictCamelModel):
    email: StoredText = Field(min_length=3, max_length=320)
    role: Role
    organization_id: StoreIdValue | None = None
    language: Language | None = Field(
        default=None, description="none: the app follows the user's browser until one is chosen"
    )
    display_name: StoredText = Field(default="", max_length=200)


class UserPatchAdmin(StrictCamelModel):
    role: Kept[Role] = None
    organization_id: StoreIdValue | None = None
    language: Language | None = Field(
        default=None, description="null: none chosen, the user's browser decides"
    )
    display_name: Kept[StoredText] = Field(default=None, min_length=1, max_length=200)
    is_active: Kept[StrictBool] = None
