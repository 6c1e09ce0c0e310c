"""``GET /v2/Analytics/Workflows`` and the drill-down into one workflow.

- the table: per workflow, orders ended in T, success rate, cycle time p50/p90 and the same
  for the previous period (trend = current - previous), sortable;
- ``/Workflows/{workflow}/Orders``: the workflow's orders ended in T, paged and sortable
  (``workflow_orders``);
- ``/Workflows/{workflow}/Histogram``: its cycle-time histogram and percentiles.
A workflow none of the selected vehicles ever ran is "workflow ... not found" (404); one
they ran, but not in T, is an empty result.
"""

from collections.abc import Callable
from datetime import datetime
from typing import Any

import duckdb
from pydantic import Field

from fleetscope.analytics.core.drilldown import require_named
from fleetscope.analytics.core.facts import (
    CURRENT,
    PREVIOUS,
    Selection,
    rows_in_periods,
    select_periods,
)
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.paging import parse_sort
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.processes.order_summary import (
    ORDER_COLUMNS,
    Key,
    OrderSummary,
    summarize_orders,
)
from fleetscope.analytics.processes.processes import ProcessFigures, figures, histogram_edges
from fleetscope.appstore.schemas import CamelModel

MAX_WORKFLOW_LENGTH = 200


class WorkflowRow(CamelModel):
    workflow: str
    orders: int = Field(description="orders ended in T (finished + failed + cancelled)")
    finished: int
    success_rate: float | None
    cycle_p50_seconds: float | None
    cycle_p90_seconds: float | None
    previous_orders: int
    previous_success_rate: float | None
    previous_cycle_p50_seconds: float | None
    previous_cycle_p90_seconds: float | None
    orders_trend: int = Field(description="orders - previousOrders")


class WorkflowsOut(CamelModel):
    period: PeriodOut
    sort: str
    workflows: list[WorkflowRow]


class WorkflowHistogramOut(CamelModel):
    period: PeriodOut
    workflow: str
    histogram_edges: list[float]
    current: ProcessFigures
    previous: ProcessFigures


def _sort_value(key: str) -> Callable[[WorkflowRow], Any]:
    def value(row: WorkflowRow) -> Any:
        return getattr(row, key)

    return value


WORKFLOW_SORTS = {
    "workflow": "workflow",
    "orders": "orders",
    "successRate": "success_rate",
    "cycleP50": "cycle_p50_seconds",
    "cycleP90": "cycle_p90_seconds",
    "ordersTrend": "orders_trend",
}


def _summaries(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    *,
    workflow: str | None = None,
) -> dict[Key, OrderSummary]:
    """Per (workflow, bucket), or with ``workflow`` per (None, bucket) of its orders."""
    rows = rows_in_periods(selection, table="orders", at="end_at", columns=ORDER_COLUMNS)
    if workflow is not None:
        return summarize_orders(cursor, rows, key=None, where=("workflow = ?", [workflow]))
    # The table shows counts and cycle times only: the paused and waiting sums are skipped.
    return summarize_orders(cursor, rows, key="workflow", sums=False)


def workflows(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    sort: str | None,
) -> WorkflowsOut:
    column, descending = parse_sort(sort, columns=WORKFLOW_SORTS, default="-orders")
    selection = select_periods(scope, now=now)
    found: dict[str, dict[int, ProcessFigures]] = {}
    summaries = _summaries(cursor, selection)
    for (workflow, bucket), summary in summaries.items():
        if workflow is not None:
            found.setdefault(str(workflow), {})[bucket] = figures(summary)
    empty = figures(None)
    result = []
    for workflow, buckets in found.items():
        now_figures = buckets.get(CURRENT, empty)
        before = buckets.get(PREVIOUS, empty)
        result.append(
            WorkflowRow(
                workflow=workflow,
                orders=now_figures.outcomes.total,
                finished=now_figures.outcomes.finished,
                success_rate=now_figures.outcomes.success_rate,
                cycle_p50_seconds=now_figures.cycle.p50_seconds,
                cycle_p90_seconds=now_figures.cycle.p90_seconds,
                previous_orders=before.outcomes.total,
                previous_success_rate=before.outcomes.success_rate,
                previous_cycle_p50_seconds=before.cycle.p50_seconds,
                previous_cycle_p90_seconds=before.cycle.p90_seconds,
                orders_trend=now_figures.outcomes.total - before.outcomes.total,
            )
        )
    attribute = WORKFLOW_SORTS[column]
    # Rows without a value (no finished order) last in either direction; name breaks ties.
    result.sort(key=lambda row: row.workflow)
    with_value = [row for row in result if getattr(row, attribute) is not None]
    without = [row for row in result if getattr(row, attribute) is None]
    with_value.sort(key=_sort_value(attribute), reverse=descending)
    return WorkflowsOut(
        period=period_out(scope, now=now),
        sort=f"{'-' if descending else ''}{column}",
        workflows=with_value + without,
    )


def require_workflow(
    cursor: duckdb.DuckDBPyConnection, *, workflow: str, vehicle_ids: list[int]
) -> None:
    """404 unless one of ``vehicle_ids`` ever ran ``workflow``."""
    require_named(
        cursor,
        field="workflow",
        value=workflow,
        max_length=MAX_WORKFLOW_LENGTH,
        vehicle_ids=vehicle_ids,
    )


def workflow_histogram(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    workflow: str,
) -> WorkflowHistogramOut:
    require_workflow(cursor, workflow=workflow, vehicle_ids=scope.vehicle_ids)
    summaries = _summaries(cursor, select_periods(scope, now=now), workflow=workflow)
    found = {bucket: figures(summary) for (_, bucket), summary in summaries.items()}
    return WorkflowHistogramOut(
        period=period_out(scope, now=now),
        workflow=workflow,
        histogram_edges=histogram_edges(),
        current=found.get(CURRENT) or figures(None),
        previous=found.get(PREVIOUS) or figures(None),
    )
