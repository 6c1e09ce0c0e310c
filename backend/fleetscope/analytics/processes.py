"""``GET /v2/Analytics/Processes``: order cycle times, outcomes, paused and waiting time.

Orders count in T where they **end** (as in the rollups and productivity). Cycle time =
end - start of finished orders; its percentiles are exact (``quantile_cont``: linear
interpolation between the closest ranks), read from the orders themselves, because the
rollups' histogram is only within 10 %. The histogram uses the rollups' fixed log-spaced
buckets (``facts.rollup``), so it lines up with every other cycle-time chart. Paused and
waiting time are the sums (and means per ended order) of the orders' ``paused_s`` and
``waiting_s``: time with the order paused, and time with one of its actions WAITING.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import duckdb
from pydantic import Field

from fleetscope.analytics.fact_rows import CURRENT, PREVIOUS, rows_in_periods, select_periods
from fleetscope.analytics.models import PeriodOut
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.plan import period_out
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.rollup import (
    CYCLE_BUCKET_BASE_S,
    CYCLE_BUCKET_COUNT,
    cycle_bucket_lower_bounds,
)

CYCLE_SQL = "(epoch(f.end_at) - epoch(f.start_at))"
_CYCLE_BUCKET_SQL = (
    f"CASE WHEN cycle_s < {CYCLE_BUCKET_BASE_S} THEN 0 ELSE least({CYCLE_BUCKET_COUNT - 1}, "
    f"1 + floor(4 * log2(cycle_s / {CYCLE_BUCKET_BASE_S}))::INTEGER) END"
)
ORDER_COLUMNS = (
    f"f.vehicle_id, f.workflow, f.outcome, {CYCLE_SQL} AS cycle_s, f.paused_s, f.waiting_s"
)
FINISHED = "outcome = 'finished'"
# Aggregates over orders of the subquery: counts, exact cycle-time statistics, histogram.
ORDER_AGGREGATES = (
    f"count(*) FILTER (WHERE {FINISHED}), count(*) FILTER (WHERE outcome = 'failed'), "
    "count(*) FILTER (WHERE outcome = 'cancelled'), "
    f"quantile_cont(cycle_s, [0.5, 0.9, 0.95]) FILTER (WHERE {FINISHED}), "
    f"max(cycle_s) FILTER (WHERE {FINISHED}), avg(cycle_s) FILTER (WHERE {FINISHED}), "
    f"histogram({_CYCLE_BUCKET_SQL}) FILTER (WHERE {FINISHED}), "
    "coalesce(sum(paused_s), 0), coalesce(sum(waiting_s), 0)"
)
AGGREGATE_COUNT = 9


class CycleTimes(CamelModel):
    count: int = Field(description="finished orders")
    p50_seconds: float | None
    p90_seconds: float | None
    p95_seconds: float | None
    max_seconds: float | None
    mean_seconds: float | None


class Outcomes(CamelModel):
    finished: int
    failed: int
    cancelled: int
    total: int
    success_rate: float | None = Field(description="finished / (finished + failed + cancelled)")


class OrderTimes(CamelModel):
    paused_seconds: float = Field(description="sum over ended orders")
    waiting_seconds: float = Field(description="sum of time with an action WAITING")
    mean_paused_seconds: float | None = Field(description="per ended order")
    mean_waiting_seconds: float | None


class ProcessFigures(CamelModel):
    cycle: CycleTimes
    outcomes: Outcomes
    times: OrderTimes
    histogram: list[int] = Field(description="finished orders per bucket of histogramEdges")


class ProcessEntry(CamelModel):
    vehicle_id: int | None = Field(description="null: the selected vehicles combined")
    name: str | None
    current: ProcessFigures
    previous: ProcessFigures


class ProcessesOut(CamelModel):
    period: PeriodOut
    histogram_edges: list[float] = Field(
        description="lower edge in seconds of each histogram bucket; the last is open above"
    )
    entries: list[ProcessEntry] = Field(description="one per vehicle, or the combined entry")
    fleet: ProcessEntry


def _share(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator > 0 else None


def figures(row: Sequence[Any] | None) -> ProcessFigures:
    """Figures from the ``ORDER_AGGREGATES`` columns of one group (``None``: no orders)."""
    values: list[Any] = list(row) if row is not None else [0, 0, 0] + [None] * 4 + [0.0, 0.0]
    finished, failed, cancelled = (int(v or 0) for v in values[:3])
    quantiles = values[3] or [None, None, None]
    histogram = [0] * CYCLE_BUCKET_COUNT
    for bucket, count in (values[6] or {}).items():
        histogram[int(bucket)] = int(count)
    ended = finished + failed + cancelled
    paused, waiting = float(values[7] or 0.0), float(values[8] or 0.0)
    return ProcessFigures(
        cycle=CycleTimes(
            count=finished,
            p50_seconds=quantiles[0],
            p90_seconds=quantiles[1],
            p95_seconds=quantiles[2],
            max_seconds=values[4],
            mean_seconds=values[5],
        ),
        outcomes=Outcomes(
            finished=finished,
            failed=failed,
            cancelled=cancelled,
            total=ended,
            success_rate=_share(finished, ended),
        ),
        times=OrderTimes(
            paused_seconds=paused,
            waiting_seconds=waiting,
            mean_paused_seconds=_share(paused, ended),
            mean_waiting_seconds=_share(waiting, ended),
        ),
        histogram=histogram,
    )


def histogram_edges() -> list[float]:
    return cycle_bucket_lower_bounds()


def processes(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime
) -> ProcessesOut:
    selection = select_periods(scope, now=now)
    rows_sql, parameters = rows_in_periods(
        selection, table="orders", at="end_at", columns=ORDER_COLUMNS
    )
    by_vehicle = not scope.combined
    groups = "GROUPING SETS ((vehicle_id, bucket), (bucket))" if by_vehicle else "bucket"
    vehicle = "vehicle_id" if by_vehicle else "NULL::INTEGER"
    sql = (
        f"SELECT {vehicle} AS grouped_vehicle, bucket, {ORDER_AGGREGATES} "  # noqa: S608 - constants only
        f"FROM ({rows_sql}) GROUP BY {groups}"
    )
    found: dict[tuple[int | None, int], Sequence[Any]] = {}
    for row in cursor.execute(sql, parameters).fetchall():
        found[(row[0], int(row[1]))] = row[2:]

    def entry(vehicle_id: int | None, name: str | None) -> ProcessEntry:
        return ProcessEntry(
            vehicle_id=vehicle_id,
            name=name,
            current=figures(found.get((vehicle_id, CURRENT))),
            previous=figures(found.get((vehicle_id, PREVIOUS))),
        )

    fleet = entry(None, None)
    if scope.combined:
        entries = [fleet]
    else:
        entries = [entry(vehicle.id, vehicle.name) for vehicle in scope.vehicles]
    return ProcessesOut(
        period=period_out(scope), histogram_edges=histogram_edges(), entries=entries, fleet=fleet
    )
