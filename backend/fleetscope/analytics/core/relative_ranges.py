"""The ranges people think in (product.md section 4), resolved as of now in the zone and
shifts of the site in scope; the frontend resolves them alike (``lib/relativeRange.ts``),
tested against the same cases (``lib/relativeRange.cases.json``)."""

import calendar
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import get_args
from zoneinfo import ZoneInfo

from fleetscope.analytics.core.param_rules import ALL_SHIFTS
from fleetscope.analytics.core.periods import Shift
from fleetscope.appstore.schemas import DateMode, RelativeRange

RELATIVE_RANGES: tuple[RelativeRange, ...] = get_args(RelativeRange)
_DAY_MINUTES = 24 * 60
# Shift runs are looked for among those starting on this many days before today.
_SHIFT_LOOKBACK_DAYS = 8


@dataclass(frozen=True, slots=True)
class ResolvedRange:
    mode: DateMode
    first: date
    last: date
    shift: str | None = None  # the shift ranges: the shift they name
    hours: int | None = None  # a rolling period: the last hours up to now


@dataclass(frozen=True, slots=True)
class _Run:
    shift: Shift
    day: date  # the day it starts on
    start: int  # minutes after today's midnight (negative: an earlier day)
    end: int


def _minutes(clock: time) -> int:
    return clock.hour * 60 + clock.minute


def _recent_runs(shifts: list[Shift], today: date) -> list[_Run]:
    """Every run of ``shifts`` starting within the last days, the latest start first."""
    runs: list[_Run] = []
    for back in range(_SHIFT_LOOKBACK_DAYS + 1):
        day = today - timedelta(days=back)
        for shift in shifts:
            # A shift without weekdays runs every day (as the frontend reads it).
            if shift.weekdays and day.weekday() not in shift.weekdays:
                continue
            start = _minutes(shift.start) - back * _DAY_MINUTES
            length = (_minutes(shift.end) - _minutes(shift.start)) % _DAY_MINUTES
            runs.append(_Run(shift, day, start, start + (length or _DAY_MINUTES)))
    return sorted(runs, key=lambda run: -run.start)


def _shift_range(range_name: RelativeRange, shifts: list[Shift], local: datetime) -> ResolvedRange:
    today = local.date()
    minutes = _minutes(local.time())
    started = [run for run in _recent_runs(shifts, today) if run.start <= minutes]
    # The running shift (the latest started), else the one that ended last.
    ended_last = max(started, key=lambda run: (run.end, run.start), default=None)
    run = next((run for run in started if minutes < run.end), ended_last)
    if run is not None and range_name == "previousShift":
        current = run
        run = next((other for other in started if other.start < current.start), None)
    if run is None:
        return ResolvedRange("day", today, today, shift=ALL_SHIFTS)
    return ResolvedRange("day", run.day, run.day, shift=run.shift.id)


def _month(day: date) -> tuple[date, date]:
    return day.replace(day=1), day.replace(day=calendar.monthrange(day.year, day.month)[1])


def resolve_relative_range(
    range_name: RelativeRange, *, now: datetime, zone: ZoneInfo, shifts: list[Shift]
) -> ResolvedRange:
    """What ``range_name`` means at ``now`` (to the minute) at a site in ``zone``."""
    local = now.astimezone(zone)
    today = local.date()
    day = timedelta(days=1)
    monday = today - timedelta(days=today.weekday())
    match range_name:
        case "today":
            return ResolvedRange("day", today, today)
        case "yesterday":
            return ResolvedRange("day", today - day, today - day)
        case "currentShift" | "previousShift":
            return _shift_range(range_name, shifts, local)
        case "last24Hours":
            return ResolvedRange("custom", today - day, today, hours=24)
        case "last7Days":
            return ResolvedRange("custom", today - 6 * day, today)
        case "thisWeekSoFar":
            return ResolvedRange("week", monday, monday + 6 * day)
        case "lastWeek":
            return ResolvedRange("week", monday - 7 * day, monday - day)
        case "thisMonthSoFar":
            return ResolvedRange("month", *_month(today))
        case "lastMonth":
            return ResolvedRange("month", *_month(today.replace(day=1) - day))
        case "thisYearSoFar":
            return ResolvedRange("year", date(today.year, 1, 1), date(today.year, 12, 31))
