"""Measures of T's windows, each tagged with a bucket: whole days and hours from the rollups,
pieces off the full hour from the raw facts, and the state time no rollup row holds (the open
state, long offline intervals); docs/analytics.md, "Speed". ``use_rollups=False`` reads all
raw: the benchmark's baseline and the tests' reference."""

import bisect
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

import duckdb

from fleetscope.analytics.core import rollups
from fleetscope.analytics.core.measure_table import MeasureTable
from fleetscope.analytics.core.periods import Window, midnight, split_hour_ranges
from fleetscope.analytics.core.raw_pieces import Tagged, add_raw_pieces
from fleetscope.analytics.core.rollups import FLEET, Days, Hours, whole_days
from fleetscope.analytics.core.sql import utc_from_us
from fleetscope.derive.battery import open_hold_span
from fleetscope.facts import rollup_spans
from fleetscope.facts.rawlog import from_micros
from fleetscope.facts.rollup import MICROS

__all__ = ["FLEET", "Tagged"]

StateTime = tuple[int, str, datetime, datetime]  # vehicle, state, start, end
INSTANT = timedelta(microseconds=1)  # overlaps of [t, t + INSTANT): the window holding t


class LiveRow(NamedTuple):
    """A vehicle's row of ``live_status``: its open state, and its battery hold since the
    last sample (``LiveStatus.held_until``)."""

    vehicle_id: int
    state: str
    since: datetime
    last_message_at: datetime | None
    charge: float | None
    held_until: datetime | None
    held_s: float
    held_charge_s: float
    held_low: float | None


@dataclass(frozen=True, slots=True)
class CollectRequest:
    vehicle_ids: list[int]
    windows: list[Tagged]  # disjoint
    by_vehicle: bool
    use_rollups: bool = True
    # The site's zone when T has whole local days (no shift): those come from rollup_daily.
    daily_zone: ZoneInfo | None = None
    # The site of all the vehicles: a fleet figure may read its site rollups.
    site_id: int | None = None
    # The measures needed (names of ``COLUMNS``): the vehicles' rollups read only these.
    only: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class VehicleStatus:
    live: list[LiveRow]  # the vehicles' rows of ``live_status``
    cut_in: frozenset[int]  # those whose daily rollups were cut at the daily zone's midnights
    offline_spans: tuple[StateTime, ...]  # their long offline intervals in the windows' span

    def complete(self, now: datetime) -> bool:
        """Whether the rollups hold every fact up to ``now`` (no message after it)."""
        return all(row.last_message_at is None or row.last_message_at <= now for row in self.live)


def vehicle_status(cursor: duckdb.DuckDBPyConnection, request: CollectRequest) -> VehicleStatus:
    """``VehicleStatus`` in one statement (each costs DuckDB ~0.4 ms, however small)."""
    windows = [tagged.window for tagged in request.windows]
    rows = cursor.execute(
        "SELECT 'live', vehicle_id, state, epoch_us(since), epoch_us(last_message_at), charge, "  # noqa: S608 - constants only
        "epoch_us(held_until), held_s, held_charge_s, held_low "
        "FROM live_status WHERE list_contains($1::INTEGER[], vehicle_id) "
        "UNION ALL SELECT 'zone', vehicle_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL "
        "FROM vehicle_zones WHERE list_contains($1::INTEGER[], vehicle_id) AND time_zone = $2 "
        "UNION ALL SELECT 'span', vehicle_id, 'offline', epoch_us(start_at), epoch_us(end_at), "
        f"NULL, NULL, NULL, NULL, NULL FROM {rollup_spans.TABLE} "
        "WHERE list_contains($1::INTEGER[], vehicle_id) AND end_at > $3 AND start_at < $4",
        [
            request.vehicle_ids,
            str(request.daily_zone),
            min((w.start for w in windows), default=None),
            max((w.end for w in windows), default=None),
        ],
    ).fetchall()
    return VehicleStatus(
        live=[
            LiveRow(
                v, s, from_micros(a), utc_from_us(b), c, utc_from_us(h), hs or 0.0, hc or 0.0, lo
            )
            for k, v, s, a, b, c, h, hs, hc, lo in rows
            if k == "live"
        ],
        cut_in=frozenset(v for kind, v, *_ in rows if kind == "zone"),
        offline_spans=tuple(
            (v, "offline", from_micros(a), from_micros(b))
            for k, v, _, a, b, *_ in rows
            if k == "span"
        ),
    )


def open_intervals(
    *,
    state: str,
    since: datetime,
    last_message_at: datetime | None,
    now: datetime,
    offline_after: timedelta,
) -> list[tuple[str, datetime, datetime]]:
    """A vehicle's open state up to ``now`` as (state, start, end); offline after
    ``offline_after`` of silence (as the derivation's clock will record it)."""
    if now <= since:
        return []
    if state != "offline" and last_message_at is not None:
        silent_from = max(last_message_at + offline_after, since)
        if now > silent_from:
            intervals = [(state, since, silent_from)] if silent_from > since else []
            return [*intervals, ("offline", silent_from, now)]
    return [(state, since, now)]


def collect(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    *,
    now: datetime,
    offline_after: timedelta,
    status: VehicleStatus | None = None,
) -> MeasureTable:
    """``status``: the request's ``vehicle_status``, when the caller has read it."""
    result = MeasureTable()
    if not request.vehicle_ids or not request.windows:
        return result
    status = status or vehicle_status(cursor, request)
    ids, by_vehicle, cut_in = request.vehicle_ids, request.by_vehicle, status.cut_in
    # A fleet figure reads the site's rollups instead of the vehicles' when they hold exactly
    # these vehicles (with whole days: all of them cut in the site's zone).
    site = request.site_id if request.use_rollups and not by_vehicle else None
    zone = None if request.daily_zone is None else str(request.daily_zone)
    if site is not None and not rollups.site_rollup_usable(
        cursor, site_id=site, vehicle_ids=ids, days_cut_in=zone
    ):
        site = None
    if site is not None or not request.use_rollups:
        parts = [(ids, True)]
    else:
        parts = [
            ([v for v in ids if v in cut_in], True),
            ([v for v in ids if v not in cut_in], False),
        ]
    tail_until = now if status.complete(now) else None
    for vehicle_ids, use_days in parts:
        if not vehicle_ids:
            continue
        days, hours, pieces, rolled = (
            _split(request, use_days=use_days, tail_until=tail_until)
            if request.use_rollups
            else ([], [], request.windows, [])
        )
        if site is not None:
            rollups.read_site_rollups(cursor, site_id=site, days=days, hours=hours, result=result)
        else:
            rollups.read_rollups(
                cursor,
                vehicle_ids=vehicle_ids,
                days=days,
                hours=hours,
                by_vehicle=by_vehicle,
                result=result,
                only=request.only,
            )
        if pieces:
            add_raw_pieces(
                cursor,
                by_vehicle=by_vehicle,
                vehicle_ids=vehicle_ids,
                pieces=pieces,
                result=result,
                only=request.only,
            )
        spans = (span for span in status.offline_spans if span[0] in vehicle_ids)
        _add_state_time(spans, rolled, by_vehicle=by_vehicle, result=result)
    open_states = [
        (row.vehicle_id, *interval)
        for row in status.live
        for interval in open_intervals(
            state=row.state,
            since=row.since,
            last_message_at=row.last_message_at,
            now=now,
            offline_after=offline_after,
        )
    ]
    _add_state_time(open_states, request.windows, by_vehicle=by_vehicle, result=result)
    if request.only is None or request.only & {"battery_samples", "battery_charge_min"}:
        _add_open_holds(status.live, request, now=now, offline_after=offline_after, result=result)
    return result


def _add_open_holds(
    live: Iterable[LiveRow],
    request: CollectRequest,
    *,
    now: datetime,
    offline_after: timedelta,
    result: MeasureTable,
) -> None:
    """The battery hold no sample carries yet: that of the reports since the last sample
    (within one whole minute; where it starts, as a sample's hold counts: ``facts.rollup``),
    and the last report's charge holding on from there until now or until silence turns
    offline, split among the windows it overlaps. Offline, a closing sample carries it."""
    ordered, ends = by_start(request.windows)
    for row in live:
        span = open_hold_span(
            row.held_until, row.held_s, row.last_message_at, now=now, offline_after=offline_after
        )
        if row.state == "offline" or row.charge is None or span is None:
            continue
        vehicle = row.vehicle_id if request.by_vehicle else FLEET
        start, reported, until = span
        if row.held_s > 0:
            for bucket, _ in overlaps(ordered, ends, start, start + INSTANT):
                result.add((vehicle, bucket), "battery_samples", round(row.held_s * MICROS))
                result.add((vehicle, bucket), "battery_charge_sum", row.held_charge_s)
                result.add_minimum((vehicle, bucket), "battery_charge_min", row.held_low)
        for bucket, seconds in overlaps(ordered, ends, reported, until):
            result.add((vehicle, bucket), "battery_samples", round(seconds * MICROS))
            result.add((vehicle, bucket), "battery_charge_sum", row.charge * seconds)
            result.add_minimum((vehicle, bucket), "battery_charge_min", row.charge)


def _split(
    request: CollectRequest, *, use_days: bool, tail_until: datetime | None
) -> tuple[Days, Hours, list[Tagged], list[Tagged]]:
    """Whole days (with ``use_days`` and a daily zone), whole UTC hours, pieces off the hour,
    and the windows the days and hours cover. ``tail_until``: now, when the rollups' hour and
    day up to now are whole (nothing is stored after now)."""
    days: list[tuple[tuple[date, date], int]] = []
    hours: list[tuple[Window, int]] = []
    pieces: list[Tagged] = []
    rolled: list[Tagged] = []
    zone = request.daily_zone
    for tagged in request.windows:
        rest, end, bucket = [tagged.window], tagged.window.end, tagged.bucket
        if use_days and zone is not None:
            window = tagged.window
            if end == tail_until:
                tomorrow = tail_until.astimezone(zone).date() + timedelta(days=1)
                window = Window(window.start, midnight(tomorrow, zone))
            whole, rest = whole_days(window, zone)
            rest = [Window(p.start, min(p.end, end)) for p in rest if p.start < end]
            if whole is not None:
                days.append((whole, bucket))
                day_end = min(midnight(whole[1] + timedelta(days=1), zone), end)
                rolled.append(Tagged(Window(midnight(whole[0], zone), day_end), bucket))
        split = split_hour_ranges(rest, tail_until=tail_until)
        hours += [(whole_hours, bucket) for whole_hours in split.ranges]
        rolled += [Tagged(whole_hours, bucket) for whole_hours in split.ranges]
        pieces += [Tagged(piece, bucket) for piece in split.pieces]
    return days, hours, pieces, rolled


def _add_state_time(
    intervals: Iterable[StateTime],
    windows: Iterable[Tagged],
    *,
    by_vehicle: bool,
    result: MeasureTable,
) -> None:
    """Add each interval's overlap with each of ``windows`` (disjoint) to its bucket."""
    ordered, ends = by_start(windows)
    for vehicle_id, state, start, end in intervals:
        for bucket, seconds in overlaps(ordered, ends, start, end):
            result.add((vehicle_id if by_vehicle else FLEET, bucket), f"{state}_s", seconds)


def by_start(windows: Iterable[Tagged]) -> tuple[list[Tagged], list[datetime]]:
    """``windows`` (disjoint) in time order, and their ends, to bisect."""
    ordered = sorted(windows, key=lambda tagged: tagged.window.start)
    return ordered, [tagged.window.end for tagged in ordered]


def overlaps(
    ordered: list[Tagged], ends: list[datetime], start: datetime, end: datetime
) -> Iterator[tuple[int, float]]:
    """The bucket and seconds of [start, end) in each window of ``ordered`` it overlaps."""
    index = bisect.bisect_right(ends, start)  # the first window ending after ``start``
    while index < len(ordered) and ordered[index].window.start < end:
        window = ordered[index].window
        overlap = min(end, window.end) - max(start, window.start)
        if overlap > timedelta(0):
            yield ordered[index].bucket, overlap.total_seconds()
        index += 1
