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
from datetime import datetime, timedelta
from typing import Any

import duckdb

from fleetscope.analytics.measures import STATES, Measures
from fleetscope.analytics.periods import Window, split_hours
from fleetscope.facts.rollup import (
    CYCLE_BUCKET_BASE_S,
    CYCLE_BUCKET_COUNT,
    LOAD_HANDLING_ACTIONS,
)

Key = tuple[int, int]  # (vehicle id, or 0 when summed over vehicles; bucket)
FLEET = 0
_STOP_LEVELS = ["CRITICAL", "FATAL"]
_LOADS = sorted(LOAD_HANDLING_ACTIONS)


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


def _vehicle_column(by_vehicle: bool, alias: str) -> str:
    return f"{alias}.vehicle_id" if by_vehicle else str(FLEET)


_HIST_SUMS = ", ".join(f"sum(cycle_hist[{i + 1}])::BIGINT" for i in range(CYCLE_BUCKET_COUNT))
_ROLLUP_MEASURES = (
    ", ".join(f"sum({state}_s)" for state in STATES)
    + ", sum(orders_finished), sum(orders_failed), sum(orders_cancelled)"
    + ", sum(errors_warning + errors_urgent + errors_critical + errors_fatal)"
    + ", sum(stop_errors), sum(stop_error_s), sum(distance_m), sum(loads_handled)"
    + ", sum(battery_samples), sum(battery_charge_sum), min(battery_charge_min)"
)
_PIECES = (
    "(SELECT unnest(?::TIMESTAMPTZ[]) AS lo, unnest(?::TIMESTAMPTZ[]) AS hi, "
    "unnest(?::INTEGER[]) AS bucket) p"
)
_VEHICLES = "(SELECT unnest(?::INTEGER[]))"
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
    hours: list[datetime] = []
    hour_buckets: list[int] = []
    pieces: list[Tagged] = []
    for tagged in request.windows:
        if not request.use_rollups:
            pieces.append(tagged)
            continue
        split = split_hours([tagged.window])
        hours.extend(split.hours)
        hour_buckets.extend([tagged.bucket] * len(split.hours))
        pieces.extend(Tagged(piece, tagged.bucket) for piece in split.pieces)
    if hours:
        _rollup(cursor, request, hours, hour_buckets, result)
    if pieces:
        _raw(cursor, request, pieces, result)
    _open_states(cursor, request, result, now=now, offline_after=offline_after)
    return result


def _entry(result: dict[Key, Measures], key: Key) -> Measures:
    measures = result.get(key)
    if measures is None:
        measures = result[key] = Measures()
    return measures


def _rollup(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    hours: list[datetime],
    buckets: list[int],
    result: dict[Key, Measures],
) -> None:
    hist = f", [{_HIST_SUMS}]" if request.with_cycles else ""
    sql = (
        f"SELECT {_vehicle_column(request.by_vehicle, 'r')}, sel.bucket, {_ROLLUP_MEASURES}{hist} "  # noqa: S608 - constants only
        "FROM rollup_hourly r JOIN (SELECT unnest(?::TIMESTAMPTZ[]) AS hour_utc, "
        "unnest(?::INTEGER[]) AS bucket) sel ON r.hour_utc = sel.hour_utc "
        f"WHERE r.vehicle_id IN {_VEHICLES} AND r.hour_utc >= ? AND r.hour_utc < ? "
        "GROUP BY ALL"
    )
    parameters = [hours, buckets, request.vehicle_ids, min(hours), max(hours) + timedelta(hours=1)]
    for row in cursor.execute(sql, parameters).fetchall():
        measures = _entry(result, (int(row[0]), int(row[1])))
        values = row[2:]
        for index, state in enumerate(STATES):
            measures.states[state] += float(values[index] or 0.0)
        rest = values[len(STATES) :]
        measures.orders_finished += int(rest[0] or 0)
        measures.orders_failed += int(rest[1] or 0)
        measures.orders_cancelled += int(rest[2] or 0)
        measures.errors += int(rest[3] or 0)
        measures.stop_errors += int(rest[4] or 0)
        measures.stop_error_s += float(rest[5] or 0.0)
        measures.distance_m += float(rest[6] or 0.0)
        measures.loads_handled += int(rest[7] or 0)
        measures.battery_samples += int(rest[8] or 0)
        measures.battery_charge_sum += float(rest[9] or 0.0)
        measures.add(Measures(battery_charge_min=rest[10]))
        if request.with_cycles:
            for index, count in enumerate(rest[11]):
                measures.cycle_hist[index] += int(count or 0)


def _raw(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    pieces: Sequence[Tagged],
    result: dict[Key, Measures],
) -> None:
    lows = [tagged.window.start for tagged in pieces]
    highs = [tagged.window.end for tagged in pieces]
    first, last = min(lows), max(highs)
    piece_params: list[Any] = [lows, highs, [tagged.bucket for tagged in pieces]]
    vehicle = _vehicle_column(request.by_vehicle, "f")

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
            f"WHERE f.vehicle_id IN {_VEHICLES} AND {bounds}{where} GROUP BY ALL"
        )
        parameters = [*piece_params, request.vehicle_ids, *bound_params, *extra]
        return cursor.execute(sql, parameters).fetchall()

    clipped = "sum(epoch(least(f.end_at, p.hi)) - epoch(greatest(f.start_at, p.lo)))"
    for key, bucket, state, seconds in rows(f"f.state, {clipped}", "state_intervals", "overlap"):
        _entry(result, (int(key), int(bucket))).states[str(state)] += float(seconds)

    for key, bucket, outcome, cycle_bucket, count in rows(
        f"f.outcome, {_CYCLE_BUCKET_OF_ORDER}, count(*)", "orders", "end_at"
    ):
        measures = _entry(result, (int(key), int(bucket)))
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
        measures = _entry(result, (int(key), int(bucket)))
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
        _entry(result, (int(key), int(bucket))).loads_handled += int(loads)

    for key, bucket, distance in rows("sum(f.distance_m)", "track_points", "sampled_at"):
        _entry(result, (int(key), int(bucket))).distance_m += float(distance or 0.0)

    for key, bucket, samples, charge_sum, charge_min in rows(
        "count(*), sum(f.charge), min(f.charge)", "battery_samples", "sampled_at"
    ):
        _entry(result, (int(key), int(bucket))).add(
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
        f"WHERE vehicle_id IN {_VEHICLES} AND since < ?",
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
                    measures = _entry(result, (key_vehicle, tagged.bucket))
                    measures.states[open_state] += overlap.total_seconds()
                index += 1
