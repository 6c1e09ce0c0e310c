"""``GET /v2/Analytics/Workflows/{workflow}/Orders``: one workflow's orders ended in T,
paged, sortable and filtered by outcome and vehicle (the drill-down of the workflow table).

The total comes first (a count over T), so the last pages are read backwards from the end
(``paging.read_page``) and cost as little as the first. A page by start or end is read from
the end of T it is near.
"""

from datetime import datetime
from typing import Any, Literal

import duckdb

from fleetscope.analytics.core.facts import Selection, rows_in_periods, select_periods
from fleetscope.analytics.core.paging import (
    Page,
    PageRequest,
    TimeSpan,
    page_fields,
    parse_sort,
    read_page,
)
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.sql_time import seconds_between
from fleetscope.analytics.processes.workflows import require_workflow
from fleetscope.appstore.schemas import CamelModel

Outcome = Literal["finished", "failed", "cancelled"]


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


ORDER_SORTS = {
    "start": "start_at",
    "end": "end_at",
    "duration": "duration_s",
    "distance": "distance_m",
    "vehicle": "vehicle_id",
    "outcome": "outcome",
    "orderId": "order_id",
}
# The sorts by a time: a page is read from the end of T it is near (``paging.read_page``).
_TIME_SORTS = frozenset({"start", "end"})
_ORDER_LIST_COLUMNS = (
    "f.vehicle_id, f.order_id, f.workflow, f.start_at, f.end_at, "
    f"{seconds_between('f.end_at', 'f.start_at')} AS duration_s, f.outcome, f.distance_m, "
    "f.nodes_traversed, f.nodes_total, f.paused_s, f.waiting_s, f.error_count"
)
_ORDER_LIST_NAMES = (
    "vehicle_id, order_id, workflow, start_at, end_at, duration_s, outcome, distance_m, "
    "nodes_traversed, nodes_total, paused_s, waiting_s, error_count"
)


def workflow_orders(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    workflow: str,
    page: PageRequest,
    outcome: Outcome | None = None,
    vehicle_id: int | None = None,
) -> Page[WorkflowOrder]:
    require_workflow(cursor, workflow=workflow, vehicle_ids=scope.vehicle_ids)
    column, descending = parse_sort(page.sort, columns=ORDER_SORTS, default="-start")
    selection = select_periods(scope, now=now, previous=False)
    if vehicle_id is not None:
        selection = selection.restricted_to({vehicle_id})
    return _paged_orders(
        cursor,
        selection,
        scope=scope,
        workflow=workflow,
        outcome=outcome,
        page=page,
        column=column,
        descending=descending,
    )


def _paged_orders(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    *,
    scope: AnalyticsScope,
    workflow: str,
    outcome: Outcome | None,
    page: PageRequest,
    column: str,
    descending: bool,
) -> Page[WorkflowOrder]:
    rows_sql, parameters = rows_in_periods(
        selection, table="orders", at="end_at", columns=_ORDER_LIST_COLUMNS
    )
    where = "workflow = ?" + (" AND outcome = ?" if outcome else "")
    filters: list[Any] = [workflow, *([outcome] if outcome else [])]
    bounds = selection.bounds
    # Orders end in T; most start in it too (the span is a guess for the first read).
    span = TimeSpan(bounds.start, bounds.end) if bounds and column in _TIME_SORTS else None

    total, rows = read_page(
        cursor,
        page,
        select=_ORDER_LIST_NAMES,
        source=f"FROM ({rows_sql}) WHERE {where}",
        parameters=[*parameters, *filters],
        column_sql=ORDER_SORTS[column],
        descending=descending,
        tie_breakers=["vehicle_id", "start_at", "order_id"],
        span=span,
    )
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    items = [
        WorkflowOrder(
            vehicle_id=row[0],
            vehicle_name=names.get(row[0], ""),
            order_id=row[1],
            start=row[3],
            end=row[4],
            duration_seconds=row[5],
            outcome=row[6],
            distance_meters=row[7],
            nodes_traversed=row[8],
            nodes_total=row[9],
            paused_seconds=row[10],
            waiting_seconds=row[11],
            error_count=row[12],
        )
        for row in rows
    ]
    return Page[WorkflowOrder](
        items=items, **page_fields(page, total=total, column=column, descending=descending)
    )
