"""Period T of the KPI glossary as UTC windows; a rolling period is a ``DaySpan`` with a
``clip``: the windows of the days its instants touch, cut to them."""

import calendar
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from itertools import pairwise
from typing import Any, Literal
from zoneinfo import ZoneInfo

HOUR = timedelta(hours=1)
Granularity = Literal["day", "week", "month"]
_MOMENT = timedelta(microseconds=1)
_DAY = timedelta(days=1)
_UTC = ZoneInfo("UTC")


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
    """Inclusive range of site-local days; with ``clip``, a rolling period."""

    first: date
    last: date
    clip: Window | None = None  # a rolling period's instants (None: whole days)
    # A rolling period's previous period: its days depend on the sites' zones, so it is
    # made with the period (``rolling_span``) rather than derived.
    prior: "DaySpan | None" = None

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    @property
    def whole_days(self) -> "DaySpan":
        return DaySpan(self.first, self.last) if self.clip is not None else self

    def previous(self) -> "DaySpan":
        """The same number of days right before; a rolling period: the same length of time."""
        if self.clip is None:
            return DaySpan(self.first - timedelta(days=self.days), self.first - timedelta(days=1))
        if self.prior is None:
            raise ValueError("a rolling period is made with its previous one (rolling_span)")
        return self.prior


def local_instant(day: date, clock: time, zone: ZoneInfo) -> datetime:
    """The UTC instant of a site-local wall-clock time (a time skipped by DST maps forward)."""
    return datetime.combine(day, clock, tzinfo=zone).astimezone(UTC)


def _at(wall_clock: datetime, zone: ZoneInfo) -> datetime:
    return local_instant(wall_clock.date(), wall_clock.time(), zone)


def midnight(day: date, zone: ZoneInfo) -> datetime:
    return local_instant(day, time(), zone)


def hour_floor(moment: datetime) -> datetime:
    return moment.replace(minute=0, second=0, microsecond=0)


def merge_windows(windows: Iterable[Window]) -> list[Window]:
    merged: list[Window] = []
    for window in sorted(windows):
        if merged and window.start <= merged[-1].end:
            merged[-1] = Window(merged[-1].start, max(window.end, merged[-1].end))
        else:
            merged.append(window)
    return merged


def intersect(first: Sequence[Window], second: Sequence[Window]) -> list[Window]:
    """The instants in both (each sorted and disjoint)."""
    result: list[Window] = []
    i = j = 0
    while i < len(first) and j < len(second):
        start, end = max(first[i].start, second[j].start), min(first[i].end, second[j].end)
        if start < end:
            result.append(Window(start, end))
        if first[i].end < second[j].end:
            i += 1
        else:
            j += 1
    return result


def shift_windows(shift: Shift, *, span: DaySpan, zone: ZoneInfo) -> list[Window]:
    """Every window of ``shift`` starting on a day of ``span``."""
    windows = []
    for offset in range(span.days):
        day = span.first + timedelta(days=offset)
        if day.weekday() in shift.weekdays:
            end_day = day + timedelta(days=1) if shift.end <= shift.start else day
            start = local_instant(day, shift.start, zone)
            windows.append(Window(start, local_instant(end_day, shift.end, zone)))
    return windows


@lru_cache(maxsize=64)
def _merged_shift_windows(shift: Shift, span: DaySpan, zone: ZoneInfo) -> tuple[Window, ...]:
    # Cached: a year of them costs 4 ms of zone conversions, and an answer asks several times.
    return tuple(merge_windows(shift_windows(shift, span=span, zone=zone)))


def period_windows(
    *, span: DaySpan, zone: ZoneInfo, shift: Shift | None, now: datetime
) -> list[Window]:
    """T at one site as sorted, disjoint UTC windows (empty when it lies in the future)."""
    if span.clip is not None:
        whole = period_windows(
            span=span.whole_days, zone=zone, shift=shift, now=min(now, span.clip.end)
        )
        return intersect(whole, [span.clip])
    start = midnight(span.first, zone)
    if shift is None:
        end = min(midnight(span.last + timedelta(days=1), zone), now)
        return [Window(start, end)] if start < end else []
    # Windows are merged and sorted: clipping at now changes the last one only.
    windows = _merged_shift_windows(shift, span, zone)
    chosen = list(windows[: bisect_left([w.start for w in windows], now)])
    if chosen:
        chosen[-1] = Window(chosen[-1].start, min(chosen[-1].end, now))
    return chosen


def period_end(*, span: DaySpan, zone: ZoneInfo, shift: Shift | None) -> datetime:
    """The end of T unclipped: the midnight after the last day, the end of the last shift,
    or a rolling period's last instant."""
    if span.clip is not None:
        return span.clip.end
    windows = _merged_shift_windows(shift, span, zone) if shift is not None else ()
    return windows[-1].end if windows else midnight(span.last + timedelta(days=1), zone)


@dataclass(slots=True)
class HourRanges:
    """Whole UTC hours as hour-aligned ranges (expanded inside the database: cheaper than
    passing a year of hours in) and the pieces off the hour (read from the raw facts)."""

    ranges: list[Window]
    pieces: list[Window]


def split_hour_ranges(
    windows: Iterable[Window], *, tail_until: datetime | None = None
) -> HourRanges:
    """``tail_until``: up to where the hourly rollup is complete (now, when no fact lies
    after it): a piece from a whole hour up to it is read as the whole hour."""
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


@dataclass(frozen=True, slots=True)
class TimeCell:
    """A cell of the orders heatmap: a site-local weekday (0 = Monday; for a shift crossing
    midnight, the day it started) and an hour of the day; None: any."""

    weekday: int | None = None
    hour: int | None = None

    def narrow(
        self, windows: Sequence[Window], *, zone: ZoneInfo, shift: Shift | None
    ) -> list[Window]:
        """The parts of ``windows`` (sorted, disjoint) that the heatmap bins into this cell."""
        if not windows:
            return []
        # A shift crossing midnight: a day's instants run from its start to the next day's.
        day_start = shift.start if shift is not None and shift.end <= shift.start else time()
        first = windows[0].start.astimezone(zone).date() - _DAY
        count = (windows[-1].end.astimezone(zone).date() - first).days + 2
        starts = [datetime.combine(first + n * _DAY, day_start) for n in range(count)]
        cell = [
            Window(_at(start, zone), _at(end, zone))
            for start, end in pairwise(starts)
            if self.weekday in (None, start.weekday())
        ]
        if self.hour is not None:
            # Wall-clock hours: the hour DST repeats lasts two, the one it skips none.
            hours = [datetime.combine(first + n * _DAY, time(self.hour)) for n in range(count)]
            cell = intersect(cell, [Window(_at(h, zone), _at(h + HOUR, zone)) for h in hours])
        return intersect(windows, cell)


def granularity_for(days: int) -> Granularity:
    """History granularity: daily up to 31 days, weekly up to 180, monthly beyond."""
    return "day" if days <= 31 else "week" if days <= 180 else "month"


def calendar_buckets(span: DaySpan, granularity: Granularity) -> list[DaySpan]:
    """The days, ISO weeks or calendar months of ``span``, cut to it (and to its clip)."""
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


def touched_days(clip: Window, *, zone: ZoneInfo, shift: Shift | None) -> tuple[date, date]:
    """The first and last site-local day whose T reaches into ``clip`` (with a shift: its
    windows' start days, so a night shift's morning belongs to the evening before)."""
    first = clip.start.astimezone(zone).date()
    last = (clip.end - _MOMENT).astimezone(zone).date()
    if shift is None:
        return first, last
    candidates = DaySpan(first - timedelta(days=1), last)
    starts = [
        window.start.astimezone(zone).date()
        for window in shift_windows(shift, span=candidates, zone=zone)
        if window.start < clip.end and window.end > clip.start
    ]
    return (min(starts), max(starts)) if starts else (first, last)


def rolling_span(clip: Window, *, sites: Sequence[tuple[ZoneInfo, Shift | None]]) -> DaySpan:
    """The rolling period ``clip`` at ``sites`` (zone, shift; none: UTC) with its previous
    period, the same length of real time right before."""
    sites = list(sites) or [(_UTC, None)]

    def span(window: Window) -> DaySpan:
        days = [touched_days(window, zone=zone, shift=shift) for zone, shift in sites]
        return DaySpan(min(d[0] for d in days), max(d[1] for d in days), clip=window)

    clip = Window(clip.start.astimezone(UTC), clip.end.astimezone(UTC))
    current = span(clip)
    prior = span(Window(clip.start - (clip.end - clip.start), clip.start))
    return DaySpan(current.first, current.last, clip=clip, prior=prior)
