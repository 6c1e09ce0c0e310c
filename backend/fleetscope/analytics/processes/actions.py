"""``GET /v2/Analytics/Actions`` and ``/Actions/{actionType}/Failures``.

Actions count in T where they **end** (FINISHED or FAILED). Per action type, one grouped
query: count, failed, failure rate, duration (end - first RUNNING) p50/p90 of the finished
actions that ran (``core.percentiles``), the wait before start (first RUNNING - first
seen) of every action that ran, and the previous period's count and failure rate. The
drill-down pages the failed actions of one type; a type never reported is a 404.
"""

from datetime import datetime

import duckdb
from pydantic import Field

from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, rows_in_periods, select_periods
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.paging import Page, PageRequest, page_fields, parse_sort, read_page
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.percentiles import PERCENTILES_EXACT, exact_for, percentile_sql
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.core.sql import require_named, seconds_between
from fleetscope.analytics.processes.orders import rows_by_period
from fleetscope.appstore.schemas import CamelModel

# A duration only for finished actions that ran, a wait for every action that ran (NULL
# otherwise: the aggregates skip NULLs), both of the period only (the previous period shows
# count and failure rate). In integer microseconds: DuckDB's quantiles and mean over BIGINT
# cost a fifth less than over DOUBLE seconds; a CASE costs less than a FILTER clause each.
_ACTION_COLUMNS = (
    "f.action_type, f.status, CASE WHEN f.status = 'FINISHED' THEN "
    "epoch_us(f.end_at) - epoch_us(f.started_at) END AS run_us, "
    "epoch_us(f.started_at) - epoch_us(f.first_seen_at) AS wait_us"
)
_COUNTS = "count(*) FILTER (WHERE bucket = {0}), count(*) FILTER (WHERE bucket = {0} AND failed)"
# Per action type the columns of ``ActionRow`` in its order; the percentiles of the period's
# actions joined (``core.percentiles``).
_ACTIONS = (
    "SELECT action_type, n, failed, failed / nullif(n, 0), run[1] / 1e6, run[2] / 1e6, "  # noqa: S608 - constants only
    "wait / 1e6, wait_p50[1] / 1e6, before, before_failed / nullif(before, 0) FROM (SELECT "
    f"action_type, {_COUNTS.format(CURRENT)}, avg(wait_us) FILTER (WHERE bucket = {CURRENT}), "
    f"{_COUNTS.format(PREVIOUS)} FROM (SELECT *, status = 'FAILED' AS failed FROM ({{}})) "
    "GROUP BY action_type) AS a(action_type, n, failed, wait, before, before_failed) "
    "LEFT JOIN ({}) AS r(action_type, run) USING (action_type) "
    "LEFT JOIN ({}) AS w(action_type, wait_p50) USING (action_type) ORDER BY n DESC, action_type"
)


class ActionRow(CamelModel):
    action_type: str
    count: int = Field(description="actions ended in T (FINISHED + FAILED)")
    failed: int
    failure_rate: float | None
    duration_p50_seconds: float | None = Field(description="finished actions: end - RUNNING")
    duration_p90_seconds: float | None
    mean_wait_seconds: float | None = Field(description="first RUNNING - first seen")
    wait_p50_seconds: float | None
    previous_count: int
    previous_failure_rate: float | None


class ActionsOut(CamelModel):
    period: PeriodOut
    exact: bool = Field(description=PERCENTILES_EXACT)
    actions: list[ActionRow] = Field(description="by count, most frequent first")


class FailedAction(CamelModel):
    vehicle_id: int
    vehicle_name: str
    action_id: str
    action_type: str
    order_id: str = Field(description="empty for instant actions")
    first_seen: datetime
    started: datetime | None
    end: datetime
    duration_seconds: float = Field(description="end - first RUNNING, else end - first seen")


def actions(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime
) -> ActionsOut:
    rows_sql, parameters = rows_by_period(scope, now=now, table="actions", columns=_ACTION_COLUMNS)
    period = (f"SELECT * FROM ({rows_sql}) WHERE bucket = {CURRENT}", parameters)  # noqa: S608
    exact = exact_for(scope.span)
    run, run_parameters = percentile_sql(
        period, value="run_us", sets=[("action_type",)], quantiles=(0.5, 0.9), exact=exact
    )
    wait, wait_parameters = percentile_sql(
        period, value="wait_us", sets=[("action_type",)], quantiles=(0.5,), exact=exact
    )
    found = cursor.execute(
        _ACTIONS.format(rows_sql, run, wait), [*parameters, *run_parameters, *wait_parameters]
    ).fetchall()
    result = [ActionRow(**dict(zip(ActionRow.model_fields, row, strict=True))) for row in found]
    return ActionsOut(period=period_out(scope, now=now), exact=exact, actions=result)


FAILURE_SORTS = {
    "end": "end_at",
    "firstSeen": "first_seen_at",
    "duration": "duration_s",
    "vehicle": "vehicle_id",
    "orderId": "order_id",
}
_FAILURE_COLUMNS = (
    "f.vehicle_id, f.action_id, f.action_type, f.order_id, f.first_seen_at, f.started_at, "
    f"f.end_at, {seconds_between('f.end_at', 'coalesce(f.started_at, f.first_seen_at)')} "
    "AS duration_s, f.status"
)
# The selected columns in the order of the model's fields (vehicle_name is added).
_FAILURE_FIELDS = [name for name in FailedAction.model_fields if name != "vehicle_name"]


def failed_actions(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    action_type: str,
    page: PageRequest,
    vehicle_id: int | None = None,
) -> Page[FailedAction]:
    require_named(
        cursor, field="actionType", value=action_type, max_length=200, vehicle_ids=scope.vehicle_ids
    )
    column, descending = parse_sort(page.sort, columns=FAILURE_SORTS, default="-end")
    selection = select_periods(scope, now=now, previous=False)
    if vehicle_id is not None:
        selection = selection.restricted_to({vehicle_id})
    rows_sql, parameters = rows_in_periods(
        selection, table="actions", at="end_at", columns=_FAILURE_COLUMNS
    )
    total, rows = read_page(
        cursor,
        page,
        select="* EXCLUDE (bucket, status)",
        source=f"FROM ({rows_sql}) WHERE action_type = ? AND status = 'FAILED'",
        parameters=[*parameters, action_type],
        column_sql=FAILURE_SORTS[column],
        descending=descending,
        tie_breakers=["vehicle_id", "end_at", "action_id"],
    )
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    items = [
        FailedAction(
            vehicle_name=names.get(row[0], ""), **dict(zip(_FAILURE_FIELDS, row, strict=True))
        )
        for row in rows
    ]
    return Page[FailedAction](
        items=items, **page_fields(page, total=total, column=column, descending=descending)
    )
