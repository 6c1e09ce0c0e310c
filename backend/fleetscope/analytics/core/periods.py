"""Period T of the KPI glossary (product.md section 3) as UTC windows, and how to read them.

T = the selected days in the site's time zone, clipped to now, intersected with the selected
shift's windows. A shift belongs to the day on which it starts: with a shift selected, T is
the windows of the shifts starting on the selected days, whole (the night shift starting on
Monday 22:00 is Monday's up to Tuesday 06:00, also in a history chart's day bucket), and the
morning hours of the night shift of the day before the first selected day are not in T.
Wall-clock times are converted with the site's zone, so a day with a daylight-saving change
has 23 or 25 hours.

A rolling period (the last 24 hours; ``since``/``until`` instants) is a ``DaySpan`` with a
``clip``: T is then the windows of its days cut to the clip's instants, and its days are the
ones those instants touch at the selected sites (``rolling.rolling_span``).
"""

import calendar
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Any, Literal
from zoneinfo import ZoneInfo

HOUR = timedelta(hours=1)
Granularity = Literal["day", "week", "month"]
DAILY_UP_TO_DAYS = 31
WEEKLY_UP_TO_DAYS = 180


@dataclass(frozen=True, slots=True)
class Shift:
    id: str
    start: time
    end: time  # at or before ``start``: the shift ends on the next day
    weekdays: frozenset[int]  # days the shift starts on, Monday = 0

    @classmethod
    def from_site(cls, entry: dict[str, Any]) -> "Shift":
        """A shift as the app store keeps it (validated there: HH:MM, weekdays 0..6)."""
        return cls(
            id=str(entry["id"]),
            start=time.fromisoformat(str(entry["start"])),
            end=time.fromisoformat(str(entry["end"])),
            weekdays=frozenset(int(day) for day in entry.get("weekdays", range(7))),
        )

    @property
    def crosses_midnight(self) -> bool:
        return self.end <= self.start


@dataclass(frozen=True, slots=True, order=True)
class Window:
    """A half-open UTC interval [start, end)."""

    start: datetime
    end: datetime

    @property
    def seconds(self) -> float:
        return (self.end - self.start).total_seconds()


@dataclass(frozen=True, slots=True)
class DaySpan:
    """Inclusive range of site-local days; with ``clip``, a rolling period (module doc)."""

    first: date
    last: date
    # A rolling period's instants: T is cut to them (None: the whole days).
    clip: Window | None = None
    # A rolling period's previous period: the same length right before ``clip``, on the
    # days its instants touch (they depend on the sites' zones: ``rolling.rolling_span``).
    prior: "DaySpan | None" = None

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    @property
    def whole_days(self) -> "DaySpan":
        """The days without the clip."""
        return DaySpan(self.first, self.last) if self.clip is not None else self

    def previous(self) -> "DaySpan":
        """The same number of days immediately before; for a rolling period, the same
        length of time immediately before (``prior``)."""
        if self.clip is None:
            return DaySpan(self.first - timedelta(days=self.days), self.first - timedelta(days=1))
        if self.prior is None:
            raise ValueError("a rolling period is made with its previous one (rolling_span)")
        return self.prior


def local_instant(day: date, clock: time, zone: ZoneInfo) -> datetime:
    """The UTC instant of a site-local wall-clock time (a time skipped by DST maps forward)."""
    return datetime.combine(day, clock, tzinfo=zone).astimezone(UTC)


def midnight(day: date, zone: ZoneInfo) -> datetime:
    return local_instant(day, time(), zone)


def merge_windows(windows: Iterable[Window]) -> list[Window]:
    merged: list[Window] = []
    for window in sorted(windows):
        if merged and window.start <= merged[-1].end:
            if window.end > merged[-1].end:
                merged[-1] = Window(merged[-1].start, window.end)
        else:
            merged.append(window)
    return merged


def shift_windows(shift: Shift, *, span: DaySpan, zone: ZoneInfo) -> list[Window]:
    """Every window of ``shift`` starting on a day of ``span``."""
    windows = []
    day = span.first
    while day <= span.last:
        if day.weekday() in shift.weekdays:
            end_day = day + timedelta(days=1) if shift.crosses_midnight else day
            start = local_instant(day, shift.start, zone)
            windows.append(Window(start, local_instant(end_day, shift.end, zone)))
        day += timedelta(days=1)
    return windows


def period_windows(
    *, span: DaySpan, zone: ZoneInfo, shift: Shift | None, now: datetime
) -> list[Window]:
    """T for one site as sorted, disjoint UTC windows (empty when it lies in the future):
    the days, or the windows of the shifts starting on them, clipped at ``now`` (and, for a
    rolling period, cut to its instants)."""
    if span.clip is not None:
        clip = span.clip
        whole = period_windows(span=span.whole_days, zone=zone, shift=shift, now=min(now, clip.end))
        return clip_to(whole, clip)
    start = midnight(span.first, zone)
    if shift is None:
        end = min(midnight(span.last + timedelta(days=1), zone), now)
        return [Window(start, end)] if start < end else []
    # The shifts start on the span's days (at or after its first midnight); clipping the
    # merged windows at now changes the last one only.
    windows, starts, _ = _merged_shift_windows(shift, span, zone)
    chosen = list(windows[: bisect_left(starts, now)])
    if chosen:
        chosen[-1] = Window(chosen[-1].start, min(chosen[-1].end, now))
    return chosen


def period_end(*, span: DaySpan, zone: ZoneInfo, shift: Shift | None) -> datetime:
    """The end of T unclipped: the midnight after the span's last day, or the end of the
    last shift starting on one of its days when that is later (a night shift); the end of
    a rolling period's instants."""
    if span.clip is not None:
        return span.clip.end
    end = midnight(span.last + timedelta(days=1), zone)
    if shift is None:
        return end
    windows, _, ends = _merged_shift_windows(shift, span, zone)
    return max(end, ends[-1]) if windows else end


@lru_cache(maxsize=64)
def _merged_shift_windows(
    shift: Shift, span: DaySpan, zone: ZoneInfo
) -> tuple[tuple[Window, ...], tuple[datetime, ...], tuple[datetime, ...]]:
    """The merged windows of ``shift_windows``, their starts and their ends: kept, because
    a year of them costs 4 ms of conversions and an answer asks for them several times."""
    windows = tuple(merge_windows(shift_windows(shift, span=span, zone=zone)))
    return windows, tuple(w.start for w in windows), tuple(w.end for w in windows)


def total_seconds(windows: Iterable[Window]) -> float:
    return sum(window.seconds for window in windows)


def hour_floor(moment: datetime) -> datetime:
    return moment.replace(minute=0, second=0, microsecond=0)


@dataclass(slots=True)
class HourSplit:
    """Windows cut into whole UTC hours (read from the hourly rollup) and the partial pieces
    at non-hour-aligned edges and at now (read exactly from the raw facts)."""

    hours: list[datetime]
    pieces: list[Window]


def split_hours(windows: Iterable[Window]) -> HourSplit:
    split = HourSplit(hours=[], pieces=[])
    for window in windows:
        first_whole = hour_floor(window.start)
        if first_whole < window.start:
            first_whole += HOUR
        last_whole = hour_floor(window.end)  # end of the whole hours
        if first_whole >= last_whole:
            # No whole hour inside: one or two pieces around an hour boundary.
            split.pieces.append(window)
            continue
        if window.start < first_whole:
            split.pieces.append(Window(window.start, first_whole))
        hour = first_whole
        while hour < last_whole:
            split.hours.append(hour)
            hour += HOUR
        if last_whole < window.end:
            split.pieces.append(Window(last_whole, window.end))
    return split


@dataclass(slots=True)
class HourRanges:
    """Like ``HourSplit``, with the whole hours as hour-aligned ranges instead of one entry
    per hour (a year of hours is cheaper to expand inside the database than to pass in)."""

    ranges: list[Window]
    pieces: list[Window]


def split_hour_ranges(
    windows: Iterable[Window], *, tail_until: datetime | None = None
) -> HourRanges:
    """Whole UTC hours of ``windows`` as ranges, the rest as pieces.

    ``tail_until``: the instant up to which the hourly rollup is complete (now, when no
    fact lies after it); a piece from a whole hour up to that instant is then read as the
    whole hour.
    """
    split = HourRanges(ranges=[], pieces=[])

    def add_range(hours: Window) -> None:
        if split.ranges and split.ranges[-1].end == hours.start:
            split.ranges[-1] = Window(split.ranges[-1].start, hours.end)
        else:
            split.ranges.append(hours)

    def add_piece(piece: Window) -> None:
        if piece.end == tail_until and piece.start == hour_floor(piece.start):
            add_range(Window(piece.start, piece.start + HOUR))
        else:
            split.pieces.append(piece)

    for window in windows:
        first_whole = hour_floor(window.start)
        if first_whole < window.start:
            first_whole += HOUR
        last_whole = hour_floor(window.end)
        if first_whole >= last_whole:
            add_piece(window)
            continue
        if window.start < first_whole:
            split.pieces.append(Window(window.start, first_whole))
        add_range(Window(first_whole, last_whole))
        if last_whole < window.end:
            add_piece(Window(last_whole, window.end))
    return split


def granularity_for(days: int) -> Granularity:
    """History granularity: daily up to 31 days, weekly up to 180, monthly beyond."""
    if days <= DAILY_UP_TO_DAYS:
        return "day"
    if days <= WEEKLY_UP_TO_DAYS:
        return "week"
    return "month"


def calendar_buckets(span: DaySpan, granularity: Granularity) -> list[DaySpan]:
    """The days, ISO weeks (Monday first) or calendar months of ``span``, cut to it (each
    cut to a rolling period's instants too)."""
    buckets: list[DaySpan] = []
    day = span.first
    while day <= span.last:
        if granularity == "day":
            last = day
        elif granularity == "week":
            last = day + timedelta(days=6 - day.weekday())
        else:
            last = day.replace(day=calendar.monthrange(day.year, day.month)[1])
        last = min(last, span.last)
        buckets.append(DaySpan(day, last, clip=span.clip))
        day = last + timedelta(days=1)
    return buckets


def clip_to(windows: Sequence[Window], bounds: Window) -> list[Window]:
    """The parts of ``windows`` inside ``bounds``."""
    clipped = []
    for window in windows:
        start, end = max(window.start, bounds.start), min(window.end, bounds.end)
        if start < end:
            clipped.append(Window(start, end))
    return clipped
