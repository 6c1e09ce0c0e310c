"""The query parameters every ``/v2/Analytics/`` resource takes (``AnalyticsParams``),
checked and resolved into an ``AnalyticsScope`` (docs/analytics.md, "Query parameters"). The
scope holds only vehicles the user may see: a foreign or unknown id is "vehicle N not
found" (404), never a hint that it exists.
"""

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from fleetscope.analytics.core.param_rules import (
    ALL_SHIFTS,
    MAX_HOURS,
    MAX_SHIFT_ID_LENGTH,
    MAX_VEHICLE_IDS,
    AnalysisDay,
    PeriodFields,
    check_period,
    check_rolling,
    last_hours,
)
from fleetscope.analytics.core.periods import DaySpan, Shift, rolling_span
from fleetscope.analytics.core.relative_ranges import resolve_relative_range
from fleetscope.appstore.errors import InvalidInputError, NotFoundError
from fleetscope.appstore.models import Organization, Site, User
from fleetscope.appstore.organizations import zone_or_default
from fleetscope.appstore.settings_service import read_settings
from fleetscope.appstore.tenants import visible_vehicle_rows
from fleetscope.i18n.messages import (
    NOT_A_VEHICLE_ID,
    PERIOD_REVERSED,
    PERIOD_TOO_LONG,
    SHIFT_UNKNOWN,
    TOO_MANY_VEHICLES,
    VEHICLE_NOT_FOUND,
)

# Vehicle ids of the query: digits, at most this many (far above any id the store gives).
MAX_VEHICLE_ID_DIGITS = 9
# Room for MAX_VEHICLE_IDS ids of that length with their commas and spaces.
MAX_VEHICLES_LENGTH = 20_000
QUERY_PERIOD = PeriodFields(
    first="from", last="to", reversed=PERIOD_REVERSED, too_long=PERIOD_TOO_LONG
)


class AnalyticsParams(BaseModel):
    """The query values, each checked on its own (FastAPI answers 422 naming the field);
    ``None`` means "use the saved setting". The routes take it as ``Query()``: its fields
    are the query parameters, by their aliases."""

    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True)

    date_from: AnalysisDay | None = Field(
        default=None, alias="from", description="first day (site-local, inclusive); default: saved"
    )
    date_to: AnalysisDay | None = Field(
        default=None, alias="to", description="last day (site-local, inclusive); default: saved"
    )
    hours: int | None = Field(
        default=None,
        ge=1,
        le=MAX_HOURS,
        description="a rolling period: the last hours up to now, instead of from/to",
    )
    since: AwareDatetime | None = Field(
        default=None,
        description="a rolling period: its first instant (ISO 8601 with an offset), instead "
        "of from/to",
    )
    until: AwareDatetime | None = Field(
        default=None,
        description="with since: the end of the period (exclusive, ISO 8601 with an offset); "
        "default: now",
    )
    vehicles: str | None = Field(
        default=None,
        max_length=MAX_VEHICLES_LENGTH,
        description="comma-separated vehicle ids; default: the saved selection, else all",
    )
    combined: bool | None = Field(
        default=None, description="one aggregate instead of one per vehicle; default: saved"
    )
    shift: str | None = Field(
        default=None,
        max_length=MAX_SHIFT_ID_LENGTH,
        description=f"a shift id of the sites, or {ALL_SHIFTS!r}; default: saved",
    )


@dataclass(frozen=True, slots=True)
class VehicleRef:
    id: int
    name: str
    site_id: int
    battery_capacity_wh: float | None = None  # for energy in Wh, where known
    retired_at: datetime | None = None  # out of service since; None: in service

    def in_service_on(self, day: date) -> bool:
        """Whether the vehicle was in service on ``day``, a site-local day compared with the
        UTC date of retirement: at most a day's slack, in which it only adds offline time."""
        return self.retired_at is None or self.retired_at.date() >= day


@dataclass(frozen=True, slots=True)
class SiteGroup:
    """The selected vehicles of one site, with the site's zone and the selected shift there."""

    site_id: int
    zone: ZoneInfo
    shift: Shift | None  # None: the whole day
    # A shift id the site does not have: its vehicles have no time in T.
    excluded: bool
    vehicle_ids: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class AnalyticsScope:
    span: DaySpan
    combined: bool
    shift_id: str
    vehicles: list[VehicleRef]
    sites: list[SiteGroup]

    @property
    def vehicle_ids(self) -> list[int]:
        return [vehicle.id for vehicle in self.vehicles]


def parse_vehicle_ids(text: str) -> list[int]:
    """``"3, 5,7"`` -> ``[3, 5, 7]`` (duplicates dropped); anything else is a 422."""
    ids: list[int] = []
    for part in text.split(","):
        token = part.strip()
        if not token:
            continue
        if not token.isascii() or not token.isdigit() or len(token) > MAX_VEHICLE_ID_DIGITS:
            raise InvalidInputError(NOT_A_VEHICLE_ID(token=token[:40]))
        ids.append(int(token))
    if len(ids) > MAX_VEHICLE_IDS:
        raise InvalidInputError(TOO_MANY_VEHICLES(limit=MAX_VEHICLE_IDS, count=len(ids)))
    return list(dict.fromkeys(ids))


def _site_shifts(site: Site | None) -> dict[str, Shift]:
    entries = (site and site.shifts) or []
    return {
        str(entry["id"]): Shift.from_site(entry)
        for entry in entries
        if isinstance(entry, dict) and "id" in entry
    }


def resolve_scope(
    session: Session, *, user: User, params: AnalyticsParams, now: datetime | None = None
) -> AnalyticsScope:
    """``now``: the clock the period is read against (a rolling period, a saved relative
    range); default: the current time."""
    now = now or datetime.now(UTC)
    visible = {row[0]: VehicleRef(*row) for row in visible_vehicle_rows(session, user=user)}
    saved = read_settings(session, user=user, visible_ids=set(visible), now=now)
    selector = saved.date_selector
    clip = check_rolling(params, now=now)
    no_days = params.date_from is None and params.date_to is None
    relative_range = selector.relative_range if clip is None and no_days else None
    span: DaySpan | None = None
    if clip is None and relative_range is None:
        # The saved period is valid by the same rules (``read_settings`` falls back
        # otherwise): a failure here is the query's, and names its field.
        first = params.date_from or selector.from_
        span = check_period(first, params.date_to or selector.to, fields=QUERY_PERIOD)
    # No id at all ("", ",,,"): the saved selection, else every visible vehicle.
    if requested := parse_vehicle_ids(params.vehicles or ""):
        for vehicle_id in requested:
            if vehicle_id not in visible:
                raise NotFoundError(VEHICLE_NOT_FOUND(vehicle=vehicle_id))
        chosen = [visible[vehicle_id] for vehicle_id in requested]
        all_machines = False
    else:
        saved_ids = [v for v in saved.selected_machines if v in visible]
        chosen = [visible[v] for v in saved_ids] if saved_ids else list(visible.values())
        all_machines = not saved_ids
    sites_of = {
        site.id: site
        for site in session.scalars(
            select(Site)
            .join(Site.organization)
            .where(Site.id.in_({vehicle.site_id for vehicle in chosen}))
            .order_by(Organization.name, Site.name, Site.id)
        )
    }
    shift_id = params.shift if params.shift is not None else selector.workflow_shift
    if relative_range is not None:
        # The site in scope is the first of the sites listed (as the frontend picks it).
        site = next(iter(sites_of.values()), None)
        relative = resolve_relative_range(
            relative_range,
            now=now,
            zone=zone_or_default(site.time_zone if site else None),
            shifts=list(_site_shifts(site).values()),
        )
        span = DaySpan(relative.first, relative.last)
        if relative.hours is not None:
            clip = last_hours(relative.hours, now=now)
        if params.shift is None and relative.shift:
            shift_id = relative.shift
    groups, shift_id = _site_groups(
        chosen, sites_of, shift_id=shift_id.strip() or ALL_SHIFTS, explicit=params.shift is not None
    )
    if clip is not None:
        sites = [(group.zone, group.shift) for group in groups if not group.excluded]
        span = rolling_span(clip, sites=sites)
    assert span is not None  # days, instants or a relative range: one of them is set above
    if all_machines and any(vehicle.retired_at is not None for vehicle in chosen):
        # "All machines" are those in service on some day of T or of its comparison period
        # (as long, just before T): one retired earlier would only add a row of offline time.
        compared_from = span.previous().first
        chosen = [vehicle for vehicle in chosen if vehicle.in_service_on(compared_from)]
        groups, shift_id = _site_groups(chosen, sites_of, shift_id=shift_id, explicit=False)
    combined = params.combined if params.combined is not None else selector.combined
    return AnalyticsScope(
        span=span, combined=combined, shift_id=shift_id, vehicles=chosen, sites=groups
    )


def _site_groups(
    vehicles: list[VehicleRef], sites_of: dict[int, Site], *, shift_id: str, explicit: bool
) -> tuple[list[SiteGroup], str]:
    """The vehicles by site, and the shift id in effect."""
    groups: dict[int, SiteGroup] = {}
    for vehicle in vehicles:
        if vehicle.site_id not in groups:
            site = sites_of[vehicle.site_id]
            shift = None if shift_id == ALL_SHIFTS else _site_shifts(site).get(shift_id)
            excluded = shift_id != ALL_SHIFTS and shift is None
            groups[site.id] = SiteGroup(site.id, zone_or_default(site.time_zone), shift, excluded)
        groups[vehicle.site_id].vehicle_ids.append(vehicle.id)
    result = list(groups.values())
    if not result or not all(group.excluded for group in result):
        return result, shift_id
    if explicit:
        raise InvalidInputError(
            SHIFT_UNKNOWN(shift=shift_id[:MAX_SHIFT_ID_LENGTH], all_shifts=ALL_SHIFTS)
        )
    # A saved shift the selected sites do not have (any longer): all shifts.
    return [replace(group, excluded=False) for group in result], ALL_SHIFTS
