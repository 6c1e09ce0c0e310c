"""Measures of the pieces of T no rollup row covers whole (edges off the hour, the hour up to
now), exactly from the raw facts: one query, each fact clipped to its piece."""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import duckdb

from fleetscope.analytics.core.measure_table import STATE_MEASURES, MeasureTable
from fleetscope.analytics.core.periods import Window
from fleetscope.analytics.core.rollups import FLEET
from fleetscope.analytics.core.sql import seconds_between
from fleetscope.facts.rollup import HELD_START_SQL, LOAD_HANDLING_ACTIONS, MICROS

# A sample's hold starts at most this long before it: it sums the steps between reports
# since the previous sample (taken at least every 60 s), each step shorter than the offline
# timeout (a longer silence is offline, and no charge holds across it).
_HOLD_REACH_S = 3600
_HELD_US = f"round(f.held_s * {MICROS})"
# A hold's microseconds inside its piece. A hold lies within a whole minute, so it is inside
# or outside a piece that starts and ends on whole minutes (days, shifts); a rolling period's
# instant (``since``) may cut it: the part inside counts, at the hold's mean charge.
_HELD_INSIDE_US = (
    f"(least(epoch_us(f.sampled_at), epoch_us(p.hi)) "
    f"- greatest(epoch_us({HELD_START_SQL}), epoch_us(p.lo)))"
)
_STOP = "upper(f.level) IN ('CRITICAL', 'FATAL')"


@dataclass(frozen=True, slots=True)
class Tagged:
    window: Window
    bucket: int


def _in_pieces(at: str) -> str:
    # Bounds on each time column ($5, $6: first and last instant) let the zone maps skip row
    # groups.
    return f"{at} >= p.lo AND {at} < p.hi AND {at} >= $5 AND {at} < $6"


# The predefined load-handling types as an SQL list (constants of the code, not input).
_LOAD_TYPES = "[" + ", ".join(f"'{name}'" for name in sorted(LOAD_HANDLING_ACTIONS)) + "]"
_ORDERS = frozenset(f"orders_{outcome}" for outcome in ("finished", "failed", "cancelled"))
# (table, join of a fact to its piece, names of ``measure_table.COLUMNS``, their values, the
# measures the part can give).
_PARTS: tuple[tuple[str, str, str, str, frozenset[str]], ...] = (
    (
        "state_intervals",
        "f.start_at < p.hi AND f.end_at > p.lo AND f.start_at < $6 AND f.end_at > $5",
        "[f.state || '_s']",
        f"[sum({seconds_between('least(f.end_at, p.hi)', 'greatest(f.start_at, p.lo)')})]",
        STATE_MEASURES,
    ),
    (
        "orders",
        _in_pieces("f.end_at") + " AND f.outcome IN ('finished', 'failed', 'cancelled')",
        "['orders_' || f.outcome]",
        "[count(*)]",
        _ORDERS,
    ),
    (
        "error_episodes",
        _in_pieces("f.start_at"),
        "['errors', 'stop_errors', 'stop_error_s']",
        f"[count(*), count(*) FILTER ({_STOP}), "
        f"sum({seconds_between('f.end_at', 'f.start_at')}) FILTER ({_STOP})]",
        frozenset({"errors", "stop_errors", "stop_error_s"}),
    ),
    (
        "actions",
        _in_pieces("f.end_at") + " AND f.status = 'FINISHED' "
        f"AND (f.load_handling OR list_contains({_LOAD_TYPES}, lower(f.action_type)))",
        "['loads_handled']",
        "[count(*)]",
        frozenset({"loads_handled"}),
    ),
    (
        "track_points",
        _in_pieces("f.sampled_at"),
        "['distance_m']",
        "[sum(f.distance_m)]",
        frozenset({"distance_m"}),
    ),
    (
        "battery_samples",
        _in_pieces("f.sampled_at"),
        "['battery_charge_min']",
        "[min(f.charge)]",
        frozenset({"battery_charge_min"}),
    ),
    # The charge's hold as the rollups sum it (``facts.rollup``), clipped to the piece: in
    # microseconds, the charge integrated over it, and its lowest charge.
    (
        "battery_samples",
        # A range on the hold's start as well: DuckDB joins on it faster than on the overlap
        # alone (Productivity per vehicle, 365 days: 5 ms of 35 per call).
        f"{HELD_START_SQL} >= p.lo - INTERVAL '{_HOLD_REACH_S} seconds' "
        f"AND {HELD_START_SQL} < p.hi AND f.sampled_at > p.lo AND f.held_s > 0 "
        "AND f.sampled_at >= $5 "
        f"AND f.sampled_at < $6::TIMESTAMPTZ + INTERVAL '{_HOLD_REACH_S} seconds'",
        "['battery_samples', 'battery_charge_sum', 'battery_charge_min']",
        f"[sum({_HELD_INSIDE_US}), sum(f.held_charge_s * {_HELD_INSIDE_US} / {_HELD_US}), "
        "min(f.held_low)]",
        frozenset({"battery_samples", "battery_charge_sum", "battery_charge_min"}),
    ),
)


@cache
def _sql(by_vehicle: bool, only: frozenset[str] | None) -> str:
    """The query of the parts giving a measure of ``only`` (None: every measure); "" for none."""
    vehicle = "f.vehicle_id" if by_vehicle else FLEET
    parts = [
        f"SELECT {vehicle}, p.bucket, {names}::VARCHAR[], {values}::DOUBLE[] "  # noqa: S608 - constants only
        f"FROM {table} f JOIN p ON {join} "
        "WHERE list_contains($4::INTEGER[], f.vehicle_id) GROUP BY ALL"
        for table, join, names, values, gives in _PARTS
        if only is None or gives & only
    ]
    if not parts:
        return ""
    return (
        "WITH p AS (SELECT unnest($1::TIMESTAMPTZ[]) AS lo, unnest($2::TIMESTAMPTZ[]) AS hi, "
        "unnest($3::INTEGER[]) AS bucket) " + " UNION ALL ".join(parts)
    )


def add_raw_pieces(
    cursor: duckdb.DuckDBPyConnection,
    *,
    by_vehicle: bool,
    vehicle_ids: list[int],
    pieces: Sequence[Tagged],
    result: MeasureTable,
    only: frozenset[str] | None = None,
) -> None:
    """Add the raw facts' measures in ``pieces`` per vehicle, or summed as ``FLEET``; ``only``:
    the measures needed (the tables giving none of them are not read)."""
    sql = _sql(by_vehicle, only)
    if not sql:
        return
    lows, highs = [t.window.start for t in pieces], [t.window.end for t in pieces]
    parameters = [lows, highs, [t.bucket for t in pieces], vehicle_ids, min(lows), max(highs)]
    for vehicle, bucket, names, values in cursor.execute(sql, parameters).fetchall():
        key = (int(vehicle), int(bucket))
        for name, value in zip(names, values, strict=True):
            if name == "battery_charge_min":
                result.add_minimum(key, name, value)
            elif value is not None:
                result.add(key, name, value)
