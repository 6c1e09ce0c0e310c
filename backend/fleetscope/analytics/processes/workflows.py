"""``GET /v2/Analytics/Workflows`` and the drill-down into one workflow: its orders ended in T
(paged) and its cycle-time histogram, figures as on Processes (docs/analytics-v2.md). A workflow
none of the selected vehicles ever ran is a 404; one they ran, but not in T, an empty result."""

from datetime import datetime, timedelta
from functools import partial
from typing import Literal

import duckdb
from pydantic import Field

from fleetscope.analytics.core import paging
from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, rows_in_periods, select_periods
from fleetscope.analytics.core.kpis import recorded
from fleetscope.analytics.core.measure_table import STATE_MEASURES
from fleetscope.analytics.core.models import Coverage, PeriodOut
from fleetscope.analytics.core.paging import Page, PageRequest, page_fields, parse_sort, read_page
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.percentiles import PERCENTILES_EXACT, exact_for, percentile_sql
from fleetscope.analytics.core.periods import TimeCell
from fleetscope.analytics.core.plan import period_out, period_spans, read_buckets
from fleetscope.analytics.core.sql import require_named, seconds_between
from fleetscope.analytics.processes import orders
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.rollup import cycle_bucket_lower_bounds

_require_workflow = partial(require_named, field="workflow", max_length=200)
Outcome = Literal["finished", "failed", "cancelled"]


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
    exact: bool = Field(description=PERCENTILES_EXACT)
    histogram_edges: list[float] = Field(
        description="lower edge in seconds of each cycle-time bucket, as on Processes "
        "(cycleBucket is an index of this list); the last is open above"
    )
    previous_recorded: bool = Field(
        description="the previous period (in the heatmap cell, with one) has time after the "
        "vehicles' first message; without (before the fleet was connected) its figures are no "
        "comparison"
    )
    coverage: Coverage
    previous_coverage: Coverage
    sort: str
    workflows: list[WorkflowRow]


class WorkflowHistogramOut(CamelModel):
    period: PeriodOut
    workflow: str
    histogram_edges: list[float]
    current: orders.ProcessFigures
    previous: orders.ProcessFigures


class WorkflowOrder(CamelModel):
    vehicle_id: int
    vehicle_name: str
    order_id: str
    start: datetime
    end: datetime
    duration_seconds: float
    outcome: str
    distance_meters: float
    nodes_traversed: int
    nodes_total: int
    paused_seconds: float
    waiting_seconds: float
    error_count: int


# The sortable columns: their position in ``_WORKFLOWS`` (``WorkflowRow``'s fields).
WORKFLOW_SORTS = {
    "workflow": "1",
    "orders": "2",
    "finished": "3",
    "successRate": "4",
    "cycleP50": "5",
    "cycleP90": "6",
    "ordersTrend": "11",
    "previousSuccessRate": "8",
}
_PERIOD = "coalesce(max(n) FILTER (bucket = {0}), 0), coalesce(max(fin) FILTER (bucket = {0}), 0), "
_PERIOD += "any_value(cycle) FILTER (bucket = {0})"
# ``WorkflowRow``'s columns in order, grouped per workflow and period first; the cycle times
# are Processes' (``core.percentiles``, same orders): exact ones in the pass, a histogram's joined.
_WORKFLOWS = (
    "SELECT workflow, n, fin, fin / nullif(n, 0), cycle[1] / 1e6, cycle[2] / 1e6, before, "  # noqa: S608 - constants only
    "before_fin / nullif(before, 0), before_cycle[1] / 1e6, before_cycle[2] / 1e6, n - before "
    f"FROM (SELECT workflow, {_PERIOD.format(CURRENT)}, {_PERIOD.format(PREVIOUS)} FROM "
    "(SELECT workflow, bucket, count(*) AS n, count(*) FILTER (WHERE outcome = 'finished') AS fin"
    f"{{cycle}} FROM ({{rows}}) WHERE {orders.ENDED} GROUP BY ALL) {{join}} GROUP BY workflow) "
    "AS w(workflow, n, fin, cycle, before, before_fin, before_cycle) "
    "ORDER BY {order} NULLS LAST, workflow"
)
_CYCLE = ", quantile_cont(CASE WHEN outcome = 'finished' THEN cycle_us END, [0.5, 0.9]) AS cycle"
ORDER_SORTS = {
    "start": "start_at",
    "end": "end_at",
    "duration": "duration_s",
    "distance": "distance_m",
    "vehicle": "vehicle_id",
    "outcome": "outcome",
    "orderId": "order_id",
}
_ORDER_LIST_COLUMNS = (
    "f.vehicle_id, f.order_id, f.start_at, f.end_at, "
    f"{seconds_between('f.end_at', 'f.start_at')} AS duration_s, f.outcome, f.distance_m, "
    "f.nodes_traversed, f.nodes_total, f.paused_s, f.waiting_s, f.error_count, f.workflow, "
    f"{orders.CYCLE_US}"
)


def workflows(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    sort: str | None,
    cell: TimeCell | None = None,
    cycle_bucket: int | None = None,
) -> WorkflowsOut:
    """Rows without a value in the sort column come last either way; the name breaks ties.
    ``cell``: only the orders ended in that cell of the heatmap; ``cycle_bucket``: only the
    finished orders of that histogram bucket (the drill-downs of a heatmap cell and a bar)."""
    column, descending = parse_sort(sort, columns=WORKFLOW_SORTS, default="-orders")
    rows_sql, parameters = orders.rows_by_period(scope, now=now, cell=cell)
    if cycle_bucket is not None:
        rows_sql = f"SELECT * FROM ({rows_sql}) WHERE {orders.ORDER_CODE} = ?"  # noqa: S608
        parameters = [*parameters, cycle_bucket]
    exact = exact_for(scope.span)
    order = f"{WORKFLOW_SORTS[column]} {'DESC' if descending else 'ASC'}"
    cycle, join = _CYCLE, ""
    if not exact:
        finished = (f"SELECT * FROM ({rows_sql}) WHERE outcome = 'finished'", parameters)  # noqa: S608
        cycles, _ = percentile_sql(
            finished,
            value="cycle_us",
            sets=[("workflow", "bucket")],
            quantiles=(0.5, 0.9),
            exact=False,
        )
        cycle = ""
        join = f"LEFT JOIN ({cycles}) AS p(workflow, bucket, cycle) USING (workflow, bucket)"
        parameters = [*parameters, *parameters]
    sql = _WORKFLOWS.format(rows=rows_sql, cycle=cycle, join=join, order=order)
    found = cursor.execute(sql, parameters).fetchall()
    rows = [WorkflowRow(**dict(zip(WorkflowRow.model_fields, row, strict=True))) for row in found]
    # Both periods' recorded time (the state rollups; in the heatmap cell the rows count):
    # their order counts compare only as far.
    spans = period_spans(scope, current=CURRENT, previous=PREVIOUS)
    collected = read_buckets(
        cursor,
        scope,
        spans,
        by_vehicle=False,
        now=now,
        offline_after=offline_after,
        only=STATE_MEASURES,
        cell=cell,
    )
    current, previous = (
        collected.figures(b, scope.vehicle_ids)[1][-1] for b in (CURRENT, PREVIOUS)
    )
    return WorkflowsOut(
        period=period_out(scope, now=now),
        exact=exact,
        histogram_edges=cycle_bucket_lower_bounds(),
        previous_recorded=recorded(previous),
        coverage=Coverage.of(current),
        previous_coverage=Coverage.of(previous),
        sort=f"{'-' if descending else ''}{column}",
        workflows=rows,
    )


def workflow_histogram(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    workflow: str,
    cell: TimeCell | None = None,
) -> WorkflowHistogramOut:
    _require_workflow(cursor, value=workflow, vehicle_ids=scope.vehicle_ids)
    rows = orders.rows_by_period(scope, now=now, cell=cell)
    exact = exact_for(scope.span)
    summaries = orders.summarize_orders(
        cursor, rows, key=None, where=("workflow = ?", [workflow]), exact=exact
    )
    return WorkflowHistogramOut(
        period=period_out(scope, now=now),
        workflow=workflow,
        histogram_edges=cycle_bucket_lower_bounds(),
        current=orders.figures(summaries.get((None, CURRENT)), exact=exact),
        previous=orders.figures(summaries.get((None, PREVIOUS)), exact=exact),
    )


def workflow_orders(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    workflow: str,
    page: PageRequest,
    outcome: Outcome | None = None,
    cycle_bucket: int | None = None,
    vehicle_id: int | None = None,
    cell: TimeCell | None = None,
) -> Page[WorkflowOrder]:
    """``cycle_bucket``: only the finished orders of that histogram bucket (``orders.ORDER_CODE``,
    the histograms' own arithmetic: the list holds what the bar counts)."""
    _require_workflow(cursor, value=workflow, vehicle_ids=scope.vehicle_ids)
    column, descending = parse_sort(page.sort, columns=ORDER_SORTS, default="-start")
    selection = select_periods(scope, now=now, previous=False, vehicle_id=vehicle_id, cell=cell)
    rows_sql, parameters = rows_in_periods(
        selection, table="orders", at="end_at", columns=_ORDER_LIST_COLUMNS
    )
    wanted = {"workflow": workflow, "outcome": outcome, orders.ORDER_CODE: cycle_bucket}
    conditions = {f"{sql} = ?": value for sql, value in wanted.items() if value is not None}
    total, rows = read_page(
        cursor,
        page,
        select="* EXCLUDE (workflow, bucket, cycle_us)",
        source=f"FROM ({rows_sql}) WHERE {' AND '.join(conditions)}",
        parameters=[*parameters, *conditions.values()],
        column_sql=ORDER_SORTS[column],
        descending=descending,
        tie_breakers=["vehicle_id", "start_at", "order_id"],
        # Orders end in T; most start in it too (the span is a guess for the first read).
        span=selection.bounds if column in ("start", "end") else None,
    )
    return Page[WorkflowOrder](
        items=paging.named_rows(WorkflowOrder, rows, scope=scope),
        **page_fields(page, total=total, column=column, descending=descending),
    )
