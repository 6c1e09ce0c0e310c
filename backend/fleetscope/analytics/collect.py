"""Measures from the fact store for windows of T, each window tagged with a bucket.

Whole UTC hours are read from ``rollup_hourly``; the partial pieces (window edges that are
not on a full hour, and the current hour up to now) exactly from the raw facts, clipped to
the piece. A vehicle's current state has no closed interval yet: it is taken from
``live_status`` up to now (offline after ``offline_after`` of silence, as the derivation's
clock would decide). With ``use_rollups=False`` every window is read from the raw facts,
which the benchmark uses as the baseline. Every value goes in as a parameter; vehicle ids,
hours and pieces as list parameters.
"""

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import duckdb

from fleetscope.analytics.measures import Measures
from fleetscope.analytics.periods import Window, split_hour_ranges
from fleetscope.analytics.rollup_read import (
    FLEET,
    VEHICLES,
    Key,
    entry,
    read_daily,
    read_hourly,
    vehicle_column,
    vehicles_cut_in,
    whole_days,
)
from fleetscope.facts.rollup import (
    CYCLE_BUCKET_BASE_S,
    CYCLE_BUCKET_COUNT,
    LOAD_HANDLING_ACTIONS,
)

_LOADS = sorted(LOAD_HANDLING_ACTIONS)
__all__ = ["FLEET", "CollectRequest", "Key", "Tagged", "collect", "open_intervals"]


@dataclass(frozen=True, slots=True)
class Tagged:
    window: Window
    bucket: int


@dataclass(frozen=True, slots=True)
class CollectRequest:
    vehicle_ids: list[int]
    windows: list[Tagged]  # disjoint
    by_vehicle: bool
    with_cycles: bool = True
    use_rollups: bool = True
    # The site's zone when T has whole local days (no shift): those come from rollup_daily.
    daily_zone: ZoneInfo | None = None


_PIECES = (
    "(SELECT unnest(?::TIMESTAMPTZ[]) AS lo, unnest(?::TIMESTAMPTZ[]) AS hi, "
    "unnest(?::INTEGER[]) AS bucket) p"
)
# The rollup's cycle-time bucket (facts/rollup.py ``cycle_bucket``) computed in SQL;
# -1 for orders that did not finish (they have no cycle time).
_CYCLE_S = "(epoch(f.end_at) - epoch(f.start_at))"
_CYCLE_BUCKET_OF_ORDER = (
    f"CASE WHEN f.outcome <> 'finished' THEN -1 WHEN {_CYCLE_S} < {CYCLE_BUCKET_BASE_S} THEN 0 "
    f"ELSE least({CYCLE_BUCKET_COUNT - 1}, "
    f"1 + floor(4 * log2({_CYCLE_S} / {CYCLE_BUCKET_BASE_S}))::INTEGER) END"
)


def collect(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    *,
    now: datetime,
    offline_after: timedelta,
) -> dict[Key, Measures]:
    result: dict[Key, Measures] = {}
    if not request.vehicle_ids or not request.windows:
        return result
    if not request.use_rollups:
        _raw(cursor, request, request.vehicle_ids, request.windows, result)
    else:
        zone = request.daily_zone
        daily = vehicles_cut_in(cursor, request.vehicle_ids, zone) if zone else set()
        by_days = [v for v in request.vehicle_ids if v in daily]
        by_hours = [v for v in request.vehicle_ids if v not in daily]
        for vehicle_ids, use_days in ((by_days, True), (by_hours, False)):
            if vehicle_ids:
                _from_rollups(cursor, request, vehicle_ids, result, use_days=use_days)
    _open_states(cursor, request, result, now=now, offline_after=offline_after)
    return result


def _from_rollups(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    vehicle_ids: list[int],
    result: dict[Key, Measures],
    *,
    use_days: bool,
) -> None:
    days: list[tuple[tuple[date, date], int]] = []
    ranges: list[tuple[Window, int]] = []
    pieces: list[Tagged] = []
    for tagged in request.windows:
        rest = [tagged.window]
        if use_days and request.daily_zone is not None:
            whole, rest = whole_days(tagged.window, request.daily_zone)
            if whole is not None:
                days.append((whole, tagged.bucket))
        split = split_hour_ranges(rest)
        ranges.extend((whole_hours, tagged.bucket) for whole_hours in split.ranges)
        pieces.extend(Tagged(piece, tagged.bucket) for piece in split.pieces)
    by_vehicle, with_cycles = request.by_vehicle, request.with_cycles
    if days:
        read_daily(
            cursor,
            vehicle_ids=vehicle_ids,
            days=days,
            by_vehicle=by_vehicle,
            with_cycles=with_cycles,
            result=result,
        )
    if ranges:
        read_hourly(
            cursor,
            vehicle_ids=vehicle_ids,
            ranges=ranges,
            by_vehicle=by_vehicle,
            with_cycles=with_cycles,
            result=result,
        )
    if pieces:
        _raw(cursor, request, vehicle_ids, pieces, result)


def _raw(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    vehicle_ids: list[int],
    pieces: Sequence[Tagged],
    result: dict[Key, Measures],
) -> None:
    lows = [tagged.window.start for tagged in pieces]
    highs = [tagged.window.end for tagged in pieces]
    first, last = min(lows), max(highs)
    piece_params: list[Any] = [lows, highs, [tagged.bucket for tagged in pieces]]
    vehicle = vehicle_column(request.by_vehicle, "f")

    def rows(
        select: str, table: str, at: str, *, where: str = "", extra: Sequence[Any] = ()
    ) -> list[Any]:
        """Grouped rows of ``table`` whose time column ``at`` lies in a piece; state
        intervals (``at="overlap"``) join every piece they overlap."""
        if at == "overlap":
            join = "f.start_at < p.hi AND f.end_at > p.lo"
            bounds, bound_params = "f.start_at < ? AND f.end_at > ?", [last, first]
        else:
            join = f"f.{at} >= p.lo AND f.{at} < p.hi"
            bounds, bound_params = f"f.{at} >= ? AND f.{at} < ?", [first, last]
        sql = (
            f"SELECT {vehicle}, p.bucket, {select} FROM {table} f JOIN {_PIECES} ON {join} "  # noqa: S608 - constants only
            f"WHERE f.vehicle_id IN {VEHICLES} AND {bounds}{where} GROUP BY ALL"
        )
        parameters = [*piece_params, vehicle_ids, *bound_params, *extra]
        return cursor.execute(sql, parameters).fetchall()

    clipped = "sum(epoch(least(f.end_at, p.hi)) - epoch(greatest(f.start_at, p.lo)))"
    for key, bucket, state, seconds in rows(f"f.state, {clipped}", "state_intervals", "overlap"):
        entry(result, (int(key), int(bucket))).states[str(state)] += float(seconds)

    for key, bucket, outcome, cycle_bucket, count in rows(
        f"f.outcome, {_CYCLE_BUCKET_OF_ORDER}, count(*)", "orders", "end_at"
    ):
        measures = entry(result, (int(key), int(bucket)))
        if outcome == "finished":
            measures.orders_finished += int(count)
            measures.cycle_hist[int(cycle_bucket)] += int(count)
        elif outcome == "failed":
            measures.orders_failed += int(count)
        elif outcome == "cancelled":
            measures.orders_cancelled += int(count)

    stop = "upper(f.level) IN ('CRITICAL', 'FATAL')"
    for key, bucket, errors, stops, stop_s in rows(
        f"count(*), count(*) FILTER (WHERE {stop}), "
        f"coalesce(sum(epoch(f.end_at) - epoch(f.start_at)) FILTER (WHERE {stop}), 0)",
        "error_episodes",
        "start_at",
    ):
        measures = entry(result, (int(key), int(bucket)))
        measures.errors += int(errors)
        measures.stop_errors += int(stops)
        measures.stop_error_s += float(stop_s)

    for key, bucket, loads in rows(
        "count(*)",
        "actions",
        "end_at",
        where=" AND f.status = 'FINISHED' AND list_contains(?, lower(f.action_type))",
        extra=[_LOADS],
    ):
        entry(result, (int(key), int(bucket))).loads_handled += int(loads)

    for key, bucket, distance in rows("sum(f.distance_m)", "track_points", "sampled_at"):
        entry(result, (int(key), int(bucket))).distance_m += float(distance or 0.0)

    for key, bucket, samples, charge_sum, charge_min in rows(
        "count(*), sum(f.charge), min(f.charge)", "battery_samples", "sampled_at"
    ):
        entry(result, (int(key), int(bucket))).add(
            Measures(
                battery_samples=int(samples),
                battery_charge_sum=float(charge_sum or 0.0),
                battery_charge_min=charge_min,
            )
        )


def open_intervals(
    *,
    state: str,
    since: datetime,
    last_message_at: datetime | None,
    now: datetime,
    offline_after: timedelta,
) -> list[tuple[str, datetime, datetime]]:
    """The not yet closed state of a vehicle up to ``now``, as (state, start, end).

    A vehicle silent for longer than ``offline_after`` is offline from its last message
    plus ``offline_after`` (what the derivation's next clock tick will record).
    """
    if now <= since:
        return []
    if state != "offline" and last_message_at is not None:
        silent_from = max(last_message_at + offline_after, since)
        if now > silent_from:
            intervals = [(state, since, silent_from)] if silent_from > since else []
            return [*intervals, ("offline", silent_from, now)]
    return [(state, since, now)]


def _open_states(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    result: dict[Key, Measures],
    *,
    now: datetime,
    offline_after: timedelta,
) -> None:
    windows = sorted(request.windows, key=lambda tagged: tagged.window.start)
    ends = [tagged.window.end for tagged in windows]
    live = cursor.execute(
        f"SELECT vehicle_id, state, since, last_message_at FROM live_status "  # noqa: S608 - constants only
        f"WHERE vehicle_id IN {VEHICLES} AND since < ?",
        [request.vehicle_ids, now],
    ).fetchall()
    for vehicle_id, state, since, last_message_at in live:
        key_vehicle = int(vehicle_id) if request.by_vehicle else FLEET
        for open_state, start, end in open_intervals(
            state=str(state),
            since=since,
            last_message_at=last_message_at,
            now=now,
            offline_after=offline_after,
        ):
            # Windows are disjoint and sorted: start at the first one ending after ``start``.
            index = bisect.bisect_right(ends, start)
            while index < len(windows) and windows[index].window.start < end:
                tagged = windows[index]
                overlap = min(end, tagged.window.end) - max(start, tagged.window.start)
                if overlap > timedelta(0):
                    measures = entry(result, (key_vehicle, tagged.bucket))
                    measures.states[open_state] += overlap.total_seconds()
                index += 1
