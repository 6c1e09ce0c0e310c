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
from fleetscope.analytics.core.percentiles import PERCENTILES_EXACT, exact_for, percentiles
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
_NOW = f"CASE WHEN bucket = {CURRENT} THEN {{}} END"
_COUNTS = "count(*) FILTER (WHERE bucket = {0}), count(*) FILTER (WHERE bucket = {0} AND failed)"
# Per action type the columns of ``ActionRow`` in its order; exact percentiles in the same
# pass, a histogram's (``core.percentiles``) added from a second one.
_ACTIONS = (
    "SELECT action_type, n, failed, failed / nullif(n, 0), run[1] / 1e6, run[2] / 1e6, "  # noqa: S608 - constants only
    "wait / 1e6, wait_p50 / 1e6, before, before_failed / nullif(before, 0) FROM (SELECT "
    f"action_type, {_COUNTS.format(CURRENT)}, {{run}}, avg({_NOW.format('wait_us')}), {{wait}}, "
    f"{_COUNTS.format(PREVIOUS)} FROM (SELECT *, status = 'FAILED' AS failed FROM ({{rows}})) "
    "GROUP BY action_type) AS a(action_type, n, failed, run, wait, wait_p50, before, "
    "before_failed) ORDER BY n DESC, action_type"
)
_EXACT = {
    "run": f"quantile_cont({_NOW.format('run_us')}, [0.5, 0.9])",
    "wait": f"quantile_cont({_NOW.format('wait_us')}, 0.5)",
}


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
    exact = exact_for(scope.span)
    parts = _EXACT if exact else {"run": "NULL::DOUBLE[]", "wait": "NULL::DOUBLE"}
    found = cursor.execute(_ACTIONS.format(rows=rows_sql, **parts), parameters).fetchall()
    result = [ActionRow(**dict(zip(ActionRow.model_fields, row, strict=True))) for row in found]
    if not exact:
        period = (f"SELECT * FROM ({rows_sql}) WHERE bucket = {CURRENT}", parameters)  # noqa: S608
        run, wait = (
            percentiles(cursor, period, value=v, sets=[("action_type",)], quantiles=q, exact=False)
            for v, q in (("run_us", (0.5, 0.9)), ("wait_us", (0.5,)))
        )
        for row in result:
            runs, waits = run.get((row.action_type,)), wait.get((row.action_type,))
            if runs is not None:
                row.duration_p50_seconds, row.duration_p90_seconds = runs[0] / 1e6, runs[1] / 1e6
            row.wait_p50_seconds = waits[0] / 1e6 if waits is not None else None
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
