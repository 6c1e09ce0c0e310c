"""Orders ended in T summed per group: outcomes, paused and waiting time, and the exact
cycle times of the finished ones (percentiles, maximum, mean, display histogram).

One grouped DuckDB query: counts per outcome, sums, ``quantile_cont`` of the finished
orders' cycle times in integer microseconds (linear interpolation between the closest
ranks, exact), their maximum and sum, and the histogram of the rollups' cycle-time buckets
(``facts.rollup.cycle_bucket``, in SQL). The fleet is a second grouping set of the same
query, so its percentiles are those of the union of the vehicles' orders.
"""

from dataclasses import dataclass, field
from typing import Any

import duckdb

from fleetscope.facts.rollup import CYCLE_BUCKET_BASE_S, CYCLE_BUCKET_COUNT

ORDER_COLUMNS = (
    "f.vehicle_id, f.workflow, f.outcome, epoch_us(f.end_at) - epoch_us(f.start_at) AS cycle_us, "
    "f.paused_s, f.waiting_s"
)
CYCLE_QUANTILES = (0.5, 0.9, 0.95)
OUTCOMES = ("finished", "failed", "cancelled")
# ``facts.rollup.cycle_bucket`` of cycle_us / 1e6 seconds, the same floating-point steps
# (so the bucket edges agree to the microsecond).
_BASE_US = int(CYCLE_BUCKET_BASE_S * 1_000_000)
CYCLE_BUCKET_SQL = (
    f"CASE WHEN cycle_us < {_BASE_US} THEN 0 ELSE least({CYCLE_BUCKET_COUNT - 1}, "
    f"1 + floor(4 * log2(cycle_us / 1e6 / {CYCLE_BUCKET_BASE_S:.1f})))::INTEGER END"
)
_FINISHED = "FILTER (WHERE outcome = 'finished')"

Key = tuple[Any, int]  # (key value, or None for the sum over the values; bucket)


@dataclass(frozen=True, slots=True)
class Figures:
    """Of one group's finished orders: ``quantile_cont`` of each of ``CYCLE_QUANTILES`` and
    the maximum in seconds, and the counts per cycle-time bucket."""

    quantiles: list[float]
    maximum: float
    histogram: list[int]


@dataclass(slots=True)
class OrderSummary:
    outcomes: dict[str, int] = field(default_factory=dict)
    paused_s: float = 0.0
    waiting_s: float = 0.0
    cycle_sum_us: float = 0.0
    cycle: Figures | None = None  # of the finished orders

    def mean_cycle_s(self) -> float | None:
        finished = self.outcomes.get("finished", 0)
        return self.cycle_sum_us / finished / 1e6 if finished else None


def _histogram(counts: dict[int, int] | None) -> list[int]:
    histogram = [0] * CYCLE_BUCKET_COUNT
    for bucket, count in (counts or {}).items():
        histogram[bucket] = int(count)
    return histogram


def summarize_orders(
    cursor: duckdb.DuckDBPyConnection,
    rows: tuple[str, list[Any]],
    *,
    key: str | None,
    where: tuple[str, list[Any]] = ("TRUE", []),
    fleet: bool = False,
    sums: bool = True,
) -> dict[Key, OrderSummary]:
    """Per ``(value of key, bucket)`` and, with ``fleet``, over all values per
    ``(None, bucket)``; without ``sums`` the paused and waiting sums stay 0.

    ``key`` is ``vehicle_id``, ``workflow`` or ``None`` (per bucket alone); ``rows`` come
    from ``rows_in_periods`` with ``ORDER_COLUMNS``, ``where`` narrows them (a constant
    condition of the caller and its parameters). Outcomes other than ``OUTCOMES`` are not
    counted.
    """
    rows_sql, parameters = rows
    condition, condition_parameters = where
    if key is None:
        grouping, key_sql = "GROUP BY bucket", "NULL"
    elif fleet:
        grouping, key_sql = f"GROUP BY GROUPING SETS (({key}, bucket), (bucket))", key
    else:
        grouping, key_sql = f"GROUP BY {key}, bucket", key
    times = "sum(paused_s), sum(waiting_s)" if sums else "0.0, 0.0"
    fleet_row = f"grouping({key})" if key is not None and fleet else "0"
    found = cursor.execute(
        f"SELECT {key_sql}, bucket, {fleet_row}, "  # noqa: S608 - constants only
        f"count(*) {_FINISHED}, count(*) FILTER (WHERE outcome = 'failed'), "
        f"count(*) FILTER (WHERE outcome = 'cancelled'), {times}, "
        f"sum(cycle_us) {_FINISHED}, max(cycle_us) {_FINISHED}, "
        f"quantile_cont(cycle_us, {list(CYCLE_QUANTILES)}) {_FINISHED}, "
        f"histogram({CYCLE_BUCKET_SQL}) {_FINISHED} "
        f"FROM ({rows_sql}) WHERE outcome IN {OUTCOMES} AND {condition} {grouping}",
        [*parameters, *condition_parameters],
    ).fetchall()
    result: dict[Key, OrderSummary] = {}
    for value, bucket, is_fleet, *counts, paused, waiting, total, top, quantiles, cells in found:
        outcomes = {outcome: n for outcome, n in zip(OUTCOMES, counts, strict=True) if n}
        cycle = None
        if top is not None:
            seconds = [micros / 1e6 for micros in quantiles]
            cycle = Figures(seconds, top / 1e6, _histogram(cells))
        result[(None if is_fleet else value, int(bucket))] = OrderSummary(
            outcomes=outcomes,
            paused_s=float(paused or 0.0),
            waiting_s=float(waiting or 0.0),
            cycle_sum_us=float(total or 0),
            cycle=cycle,
        )
    return result
