"""Measures read exactly from the raw facts for the pieces of T no rollup row covers whole
(edges off the full hour, the current hour up to now): one query over every fact table,
each fact clipped to its piece, grouped per vehicle (or the fleet) and bucket.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import duckdb

from fleetscope.analytics.core.measure_table import Key, MeasureTable
from fleetscope.analytics.core.periods import Window
from fleetscope.analytics.core.rollups import vehicle_column
from fleetscope.analytics.core.sql import seconds_between
from fleetscope.facts.rollup import (
    CYCLE_BUCKET_BASE_S,
    CYCLE_BUCKET_COLUMNS,
    CYCLE_BUCKET_COUNT,
    HELD_START_SQL,
    LOAD_HANDLING_ACTIONS,
    MICROS,
)

_LOADS = sorted(LOAD_HANDLING_ACTIONS)
# A sample's hold starts at most this long before it: it sums the steps between reports
# since the previous sample (taken at least every 60 s), each step shorter than the offline
# timeout (a longer silence is offline, and no charge holds across it).
_HOLD_REACH_S = 3600
_OUTCOMES = frozenset({"finished", "failed", "cancelled"})


@dataclass(frozen=True, slots=True)
class Tagged:
    window: Window
    bucket: int


# The rollup's cycle-time bucket (facts/rollup.py ``cycle_bucket``) computed in SQL;
# -1 for orders that did not finish (they have no cycle time).
_CYCLE_S = seconds_between("f.end_at", "f.start_at")
_CYCLE_BUCKET_OF_ORDER = (
    f"CASE WHEN f.outcome <> 'finished' THEN -1 WHEN {_CYCLE_S} < {CYCLE_BUCKET_BASE_S} THEN 0 "
    f"ELSE least({CYCLE_BUCKET_COUNT - 1}, "
    f"1 + floor(4 * log2({_CYCLE_S} / {CYCLE_BUCKET_BASE_S}))::INTEGER) END"
)


# Rows of (kind, vehicle, bucket, label, n, a, b). $1..$3 the pieces, $4 the vehicle ids,
# $5/$6 first/last instant (bounds on each time column let the zone maps skip row groups),
# $7 the load-handling action types.
_PIECES_CTE = (
    "WITH p AS (SELECT unnest($1::TIMESTAMPTZ[]) AS lo, unnest($2::TIMESTAMPTZ[]) AS hi, "
    "unnest($3::INTEGER[]) AS bucket) "
)
_STOP = "upper(f.level) IN ('CRITICAL', 'FATAL')"
_RAW_PARTS = (
    # kind, table, join of a fact to its piece, label, n, a, b
    (
        "s",
        "state_intervals",
        "f.start_at < p.hi AND f.end_at > p.lo AND f.start_at < $6 AND f.end_at > $5",
        "f.state",
        "0",
        f"sum({seconds_between('least(f.end_at, p.hi)', 'greatest(f.start_at, p.lo)')})",
        "NULL",
    ),
    ("o", "orders", "end_at", "f.outcome", "count(*)", _CYCLE_BUCKET_OF_ORDER, "NULL"),
    (
        "e",
        "error_episodes",
        "start_at",
        "NULL",
        "count(*)",
        f"count(*) FILTER (WHERE {_STOP})",
        f"sum({_CYCLE_S}) FILTER (WHERE {_STOP})",
    ),
    (
        "l",
        "actions",
        "end_at AND f.status = 'FINISHED' "
        "AND (f.load_handling OR list_contains($7, lower(f.action_type)))",
        "NULL",
        "count(*)",
        "NULL",
        "NULL",
    ),
    ("t", "track_points", "sampled_at", "NULL", "0", "sum(f.distance_m)", "NULL"),
    ("b", "battery_samples", "sampled_at", "NULL", "0", "NULL", "min(f.charge)"),
    # The charge's hold as the rollups sum it (``facts.rollup``): where it starts, in
    # microseconds, and the charge integrated over it.
    (
        "h",
        "battery_samples",
        HELD_START_SQL,
        "NULL",
        f"sum(round(f.held_s * {MICROS}))",
        "sum(f.held_charge_s)",
        "NULL",
    ),
)


def _raw_sql(by_vehicle: bool) -> str:
    vehicle = vehicle_column(by_vehicle, "f")
    parts = []
    for kind, table, at, label, n, a, b in _RAW_PARTS:
        if kind == "s":
            join = at
        elif kind == "h":
            join = f"{at} >= p.lo AND {at} < p.hi AND f.held_s > 0 AND f.sampled_at >= $5 "
            join += f"AND f.sampled_at < $6::TIMESTAMPTZ + INTERVAL '{_HOLD_REACH_S} seconds'"
        else:
            column, _, extra = at.partition(" AND ")
            join = f"f.{column} >= p.lo AND f.{column} < p.hi AND f.{column} >= $5 "
            join += f"AND f.{column} < $6" + (f" AND {extra}" if extra else "")
        parts.append(
            f"SELECT '{kind}' AS kind, {vehicle} AS vehicle, p.bucket, {label}::VARCHAR, "  # noqa: S608 - constants only
            f"({n})::BIGINT, ({a})::DOUBLE, ({b})::DOUBLE FROM {table} f JOIN p ON {join} "
            "WHERE list_contains($4::INTEGER[], f.vehicle_id) GROUP BY ALL"
        )
    return _PIECES_CTE + " UNION ALL ".join(parts)


def add_raw_pieces(
    cursor: duckdb.DuckDBPyConnection,
    *,
    by_vehicle: bool,
    vehicle_ids: list[int],
    pieces: Sequence[Tagged],
    result: MeasureTable,
) -> None:
    """Add the raw facts' measures in ``pieces`` per vehicle, or summed as ``FLEET``."""
    lows = [tagged.window.start for tagged in pieces]
    highs = [tagged.window.end for tagged in pieces]
    parameters = [
        lows,
        highs,
        [tagged.bucket for tagged in pieces],
        vehicle_ids,
        min(lows),
        max(highs),
        _LOADS,
    ]
    for kind, vehicle, bucket, label, n, a, b in cursor.execute(
        _raw_sql(by_vehicle), parameters
    ).fetchall():
        key: Key = (int(vehicle), int(bucket))
        if kind == "s":
            result.add(key, f"{label}_s", float(a))
        elif kind == "o":
            if label in _OUTCOMES:
                result.add(key, f"orders_{label}", int(n))
            if label == "finished":
                result.add(key, CYCLE_BUCKET_COLUMNS[int(a)], int(n))
        elif kind == "e":
            result.add(key, "errors", int(n))
            result.add(key, "stop_errors", int(a))
            result.add(key, "stop_error_s", float(b or 0.0))
        elif kind == "l":
            result.add(key, "loads_handled", int(n))
        elif kind == "t":
            result.add(key, "distance_m", float(a or 0.0))
        elif kind == "h":
            result.add(key, "battery_samples", int(n))
            result.add(key, "battery_charge_sum", float(a or 0.0))
        else:
            result.add_minimum(key, "battery_charge_min", b)
