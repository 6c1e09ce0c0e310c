"""``GET /v2/Analytics/Processes``: order cycle times, outcomes, paused and waiting time.

Orders count in T where they **end** (as in the rollups and productivity). Cycle time =
end - start of finished orders; its percentiles are exact (``quantile_cont``: linear
interpolation between the closest ranks), read from the orders themselves
(``order_summary``), because the rollups' histogram is only within 10 %. The histogram uses
the rollups' fixed log-spaced buckets (``facts.rollup``), so it lines up with every other
cycle-time chart. Paused and waiting time are the sums (and means per ended order) of the
orders' ``paused_s`` and ``waiting_s``: time with the order paused, and time with one of
its actions WAITING.
"""

from datetime import datetime

import duckdb
from pydantic import Field

from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, rows_in_periods, select_periods
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.processes.order_summary import (
    ORDER_COLUMNS,
    OrderSummary,
    summarize_orders,
)
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.rollup import CYCLE_BUCKET_COUNT, cycle_bucket_lower_bounds


class CycleTimes(CamelModel):
    count: int = Field(description="finished orders")
    p50_seconds: float | None
    p90_seconds: float | None
    p95_seconds: float | None
    max_seconds: float | None
    mean_seconds: float | None
    exact: bool = Field(
        default=True,
        description="the percentiles are exact (linear interpolation between the closest "
        "ranks of the orders themselves), for any period",
    )


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


def figures(summary: OrderSummary | None) -> ProcessFigures:
    summary = summary or OrderSummary()
    finished, failed, cancelled = (
        summary.outcomes.get(outcome, 0) for outcome in ("finished", "failed", "cancelled")
    )
    cycle = summary.cycle
    quantiles: list[float | None] = list(cycle.quantiles) if cycle else [None, None, None]
    ended = finished + failed + cancelled
    return ProcessFigures(
        cycle=CycleTimes(
            count=finished,
            p50_seconds=quantiles[0],
            p90_seconds=quantiles[1],
            p95_seconds=quantiles[2],
            max_seconds=cycle.maximum if cycle else None,
            mean_seconds=summary.mean_cycle_s(),
        ),
        outcomes=Outcomes(
            finished=finished,
            failed=failed,
            cancelled=cancelled,
            total=ended,
            success_rate=_share(finished, ended),
        ),
        times=OrderTimes(
            paused_seconds=summary.paused_s,
            waiting_seconds=summary.waiting_s,
            mean_paused_seconds=_share(summary.paused_s, ended),
            mean_waiting_seconds=_share(summary.waiting_s, ended),
        ),
        histogram=cycle.histogram if cycle else [0] * CYCLE_BUCKET_COUNT,
    )


def histogram_edges() -> list[float]:
    return cycle_bucket_lower_bounds()


def processes(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
) -> ProcessesOut:
    rows = rows_in_periods(
        select_periods(scope, now=now), table="orders", at="end_at", columns=ORDER_COLUMNS
    )
    summaries = summarize_orders(
        cursor, rows, key=None if scope.combined else "vehicle_id", fleet=not scope.combined
    )

    def entry(vehicle_id: int | None, name: str | None) -> ProcessEntry:
        return ProcessEntry(
            vehicle_id=vehicle_id,
            name=name,
            current=figures(summaries.get((vehicle_id, CURRENT))),
            previous=figures(summaries.get((vehicle_id, PREVIOUS))),
        )

    fleet = entry(None, None)
    if scope.combined:
        entries = [fleet]
    else:
        entries = [entry(vehicle.id, vehicle.name) for vehicle in scope.vehicles]
    return ProcessesOut(
        period=period_out(scope, now=now),
        histogram_edges=histogram_edges(),
        entries=entries,
        fleet=fleet,
    )
