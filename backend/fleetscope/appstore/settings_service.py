"""Per-user saved settings of the shell (spec section 7) and the dashboard layout."""

import json
import logging
from collections import Counter
from datetime import UTC, date, datetime
from typing import Any, get_args
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from fleetscope.analytics.core.param_rules import ALL_SHIFTS, PeriodFields, check_period
from fleetscope.analytics.core.relative_ranges import resolve_relative_range
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.appstore.models import User, UserSettings
from fleetscope.appstore.organizations import zone_or_default
from fleetscope.appstore.schemas import (
    AppSettingsOut,
    AppSettingsPatch,
    DashboardWidget,
    DateMode,
    DateSelector,
    RelativeRange,
)
from fleetscope.appstore.tenants import visible_shift_ids, visible_sites, visible_vehicle_ids
from fleetscope.i18n.messages import (
    DUPLICATE_WIDGET,
    LAYOUT_TOO_LARGE,
    SAVED_PERIOD_REVERSED,
    SAVED_PERIOD_TOO_LONG,
    SAVED_SHIFT_UNKNOWN,
    SAVED_VEHICLE_UNKNOWN,
    TOO_MANY_WIDGETS,
    WIDGET_TOO_DEEP,
)

DATE_MODES: tuple[DateMode, ...] = get_args(DateMode)
RELATIVE_RANGES: tuple[RelativeRange, ...] = get_args(RelativeRange)
DEFAULT_MODE: DateMode = "week"
MAX_WIDGETS = 40
MAX_LAYOUT_BYTES = 64 * 1024
# A widget's own fields are flat today; nesting is bounded well below what the JSON encoder
# refuses (about 255 levels, which answered with a 500).
MAX_WIDGET_DEPTH = 8
# The saved period obeys the rules of the analysis parameters it stands in for.
SAVED_PERIOD = PeriodFields(
    first="dateSelector.from",
    last="dateSelector.to",
    reversed=SAVED_PERIOD_REVERSED,
    too_long=SAVED_PERIOD_TOO_LONG,
)

log = logging.getLogger(__name__)


def _defaults(user: User) -> UserSettings:
    return UserSettings(
        user_id=user.id,
        date_mode=DEFAULT_MODE,
        combined=False,
        workflow_shift=ALL_SHIFTS,
        selected_machines=[],
        onboarding_watched=False,
    )


def _stored_or_default(session: Session, *, user: User) -> UserSettings:
    """The user's row; an unsaved default (not added to the session) until the first change."""
    return session.get(UserSettings, user.id) or _defaults(user)


def _saved_period(
    session: Session, row: UserSettings, *, user: User, now: datetime
) -> tuple[date, date]:
    """The saved period, or until a user picks dates (or when the saved one breaks today's
    rules) one that rolls with the calendar: the current week, Monday to Sunday, as the date
    selector's week mode shows it, in the calendar of the user's sites."""
    if row.date_from is not None and row.date_to is not None:
        try:
            check_period(row.date_from, row.date_to, fields=SAVED_PERIOD)
            return row.date_from, row.date_to
        except InvalidInputError as invalid:
            # Saved before the rule (or the rule changed): analytics must go on working.
            log.debug("user %s: saved period ignored (%s)", row.user_id, invalid.msg)
    week = resolve_relative_range(
        "thisWeekSoFar", now=now, zone=_home_zone(session, user=user), shifts=[]
    )
    return week.first, week.last


def _home_zone(session: Session, *, user: User) -> ZoneInfo:
    """The time zone most of the user's sites keep (Berlin without any): on a Sunday evening
    in New York, Berlin's calendar has begun a week that lies wholly in the future there."""
    zones = Counter(site.time_zone for site in visible_sites(session, user=user))
    return zone_or_default(zones.most_common(1)[0][0] if zones else None)


def _saved_relative_range(row: UserSettings) -> RelativeRange | None:
    # A name a later version no longer offers reads as the fixed period saved with it.
    name = row.relative_range
    return next((known for known in RELATIVE_RANGES if known == name), None)


def _view(
    session: Session, row: UserSettings, *, user: User, visible_ids: set[int], now: datetime
) -> AppSettingsOut:
    date_from, date_to = _saved_period(session, row, user=user, now=now)
    return AppSettingsOut(
        date_selector=DateSelector(
            mode=row.date_mode if row.date_mode in DATE_MODES else DEFAULT_MODE,
            from_=date_from,
            to=date_to,
            combined=row.combined,
            workflow_shift=row.workflow_shift,
            relative_range=_saved_relative_range(row),
        ),
        # A vehicle the user lost access to disappears from the saved selection.
        selected_machines=[int(v) for v in row.selected_machines if v in visible_ids],
        onboarding_watched=row.onboarding_watched,
    )


def read_settings(
    session: Session,
    *,
    user: User,
    visible_ids: set[int] | None = None,
    now: datetime | None = None,
) -> AppSettingsOut:
    """The user's settings; ``visible_ids``: the user's vehicles, when the caller has them;
    ``now``: the clock a default period rolls with (default: the current time)."""
    row = _stored_or_default(session, user=user)
    if visible_ids is None:
        visible_ids = visible_vehicle_ids(session, user=user)
    return _view(session, row, user=user, visible_ids=visible_ids, now=now or datetime.now(UTC))


def update_settings(session: Session, *, user: User, patch: AppSettingsPatch) -> AppSettingsOut:
    """Apply any subset of the settings; the whole patch is checked before anything is saved."""
    visible_ids = visible_vehicle_ids(session, user=user)
    row = _stored_or_default(session, user=user)
    now = datetime.now(UTC)
    current = _view(session, row, user=user, visible_ids=visible_ids, now=now).date_selector
    selector = patch.date_selector
    if selector is not None:
        check_period(
            selector.from_ or current.from_, selector.to or current.to, fields=SAVED_PERIOD
        )
        shift = selector.workflow_shift
        if (
            shift is not None
            and shift != ALL_SHIFTS
            and shift not in visible_shift_ids(session, user=user)
        ):
            raise InvalidInputError(SAVED_SHIFT_UNKNOWN(shift=shift))
    machines: list[int] | None = None
    if patch.selected_machines is not None:
        machines = list(dict.fromkeys(patch.selected_machines))
        for vehicle_id in machines:
            if vehicle_id not in visible_ids:
                raise InvalidInputError(SAVED_VEHICLE_UNKNOWN(vehicle=vehicle_id))

    session.add(row)
    if selector is not None:
        if selector.mode is not None:
            row.date_mode = selector.mode
        if selector.from_ is not None or selector.to is not None:
            # Once a user sets a period it is kept as chosen, no longer rolling.
            row.date_from = selector.from_ or current.from_
            row.date_to = selector.to or current.to
            row.relative_range = selector.relative_range
        elif selector.relative_range is not None:
            row.relative_range = selector.relative_range
        if selector.combined is not None:
            row.combined = selector.combined
        if selector.workflow_shift is not None:
            row.workflow_shift = selector.workflow_shift
    if machines is not None:
        row.selected_machines = machines
    if patch.onboarding_watched is not None:
        row.onboarding_watched = patch.onboarding_watched
    session.commit()
    return _view(session, row, user=user, visible_ids=visible_ids, now=now)


def read_dashboard_layout(session: Session, *, user: User) -> list[dict[str, Any]]:
    row = session.get(UserSettings, user.id)
    return list(row.dashboard_layout or []) if row is not None else []


def _nesting(value: object) -> int:
    """How deep lists and objects nest in ``value`` (0 for a plain value)."""
    deepest, pending = 0, [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            pending += [(inner, depth + 1) for inner in item]
    return deepest


def save_dashboard_layout(
    session: Session, *, user: User, widgets: list[DashboardWidget]
) -> list[dict[str, Any]]:
    if len(widgets) > MAX_WIDGETS:
        raise InvalidInputError(TOO_MANY_WIDGETS(limit=MAX_WIDGETS, count=len(widgets)))
    seen: set[str] = set()
    for widget in widgets:
        if widget.id in seen:
            raise InvalidInputError(DUPLICATE_WIDGET(widget=widget.id))
        seen.add(widget.id)
        if _nesting(widget.model_extra) > MAX_WIDGET_DEPTH:
            raise InvalidInputError(WIDGET_TOO_DEEP(widget=widget.id, limit=MAX_WIDGET_DEPTH))
    layout = [widget.model_dump(mode="json") for widget in widgets]
    if len(json.dumps(layout)) > MAX_LAYOUT_BYTES:
        raise InvalidInputError(LAYOUT_TOO_LARGE(limit=MAX_LAYOUT_BYTES))
    row = _stored_or_default(session, user=user)
    row.dashboard_layout = layout
    session.add(row)
    session.commit()
    return layout
