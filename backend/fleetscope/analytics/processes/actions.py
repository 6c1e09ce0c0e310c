"""``GET /v2/Analytics/Actions`` and ``/Actions/{actionType}/Failures``: actions ended in T
(FINISHED or FAILED), as docs/analytics-v2.md describes. A type never reported is a 404."""

from datetime import datetime

import duckdb
from pydantic import Field

from fleetscope.analytics.core import percentiles
from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, rows_in_periods, select_periods
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.paging import (
    Page,
    PageRequest,
    named_rows,
    page_fields,
    parse_sort,
    read_page,
)
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.core.sql import require_named, seconds_between
from fleetscope.analytics.processes.orders import rows_by_period
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.action_rows import TYPES_TABLE

# A duration for finished actions that ran, a wait for every action that ran (else NULL, which
# the aggregates skip), with their stored buckets (facts/action_rows.py); integer microseconds
# and a CASE are cheaper than DOUBLE seconds and a FILTER clause.
_ACTION_COLUMNS = (
    "f.action_type_code AS code, f.status, f.run_bucket, f.wait_bucket, "
    "CASE WHEN f.status = 'FINISHED' THEN epoch_us(f.end_at) - epoch_us(f.started_at) END "
    "AS run_us, epoch_us(f.started_at) - epoch_us(f.first_seen_at) AS wait_us"
)
_NOW = f"CASE WHEN bucket = {CURRENT} THEN {{}} END"  # durations and waits: the period's only
# The columns of ``ActionRow`` in its order from ``a``: per type's code both periods' counts,
# the mean wait and the period's percentiles, lists ``run`` (p50, p90) and ``wait_p50``.
_ACTIONS = (
    "SELECT t.action_type, n, failed, failed / nullif(n, 0), run[1] / 1e6, run[2] / 1e6, "  # noqa: S608 - constants only
    "wait / 1e6, wait_p50[1] / 1e6, before, before_failed / nullif(before, 0) FROM {a} "
    f"JOIN {TYPES_TABLE} t USING (code) ORDER BY n DESC, t.action_type"
)
_COUNTS = "count(*) FILTER (WHERE bucket = {0}), count(*) FILTER (WHERE bucket = {0} AND failed)"
# Up to 31 days, exact percentiles in the same pass.
_EXACT = _ACTIONS.format(
    a=f"(SELECT code, {_COUNTS.format(CURRENT)}, quantile_cont({_NOW.format('run_us')}, "  # noqa: S608 - constants only
    f"[0.5, 0.9]), avg({_NOW.format('wait_us')}), quantile_cont({_NOW.format('wait_us')}, "
    f"[0.5]), {_COUNTS.format(PREVIOUS)} FROM (SELECT *, status = 'FAILED' AS failed "
    "FROM ({rows})) GROUP BY code) AS a(code, n, failed, run, wait, wait_p50, before, "
    "before_failed)"
)
# Beyond 31 days, one pass: per type and period the counts per stored bucket of the wait
# (gid 2; NULL outside the period and for actions that never ran), and the period's runs
# per stored bucket (gid 5); the percentiles read from those counts.
_GROUPED = (
    "SELECT code, bucket, rb, wb, grouping(bucket, rb, wb) AS gid, count(*) AS n, "  # noqa: S608 - constants only
    "count(*) FILTER (WHERE failed) AS failed, sum(wait_us) AS waited, count(wait_us) AS "
    "waits FROM (SELECT code, bucket, status = 'FAILED' AS failed, wait_us, "
    f"{_NOW.format('run_bucket')} AS rb, {_NOW.format('wait_bucket')} AS wb FROM ({{rows}})) "
    "GROUP BY GROUPING SETS ((code, bucket, wb), (code, rb))"
)
_RUNS = "SELECT code, rb AS b, n FROM g WHERE gid = 5 AND rb IS NOT NULL"
_WAITS = "SELECT code, wb AS b, n FROM g WHERE gid = 2 AND wb IS NOT NULL"
_SUMS = "coalesce(sum(n) FILTER (WHERE bucket = {0}), 0), "
_SUMS += "coalesce(sum(failed) FILTER (WHERE bucket = {0}), 0)"
_HISTOGRAMS = (
    f"WITH g AS MATERIALIZED ({_GROUPED}), runs(code, run) AS "  # noqa: S608 - constants only
    f"({percentiles.histogram_quantiles_sql(_RUNS, group='code', quantiles=(0.5, 0.9))}), "
    "waits(code, wait_p50) AS "
    f"({percentiles.histogram_quantiles_sql(_WAITS, group='code', quantiles=(0.5,))}), "
    "a(code, n, failed, wait, before, before_failed) AS (SELECT code, "
    f"{_SUMS.format(CURRENT)}, sum(waited) FILTER (WHERE bucket = {CURRENT}) / "
    f"sum(waits) FILTER (WHERE bucket = {CURRENT}), {_SUMS.format(PREVIOUS)} "
    "FROM g WHERE gid = 2 GROUP BY code) "
    + _ACTIONS.format(a="a LEFT JOIN runs USING (code) LEFT JOIN waits USING (code)")
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
    exact: bool = Field(description=percentiles.PERCENTILES_EXACT)
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
    exact = percentiles.exact_for(scope.span)
    sql = (_EXACT if exact else _HISTOGRAMS).format(rows=rows_sql)
    found = cursor.execute(sql, parameters).fetchall()
    rows = [ActionRow(**dict(zip(ActionRow.model_fields, row, strict=True))) for row in found]
    return ActionsOut(period=period_out(scope, now=now), exact=exact, actions=rows)


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
    selection = select_periods(scope, now=now, previous=False, vehicle_id=vehicle_id)
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
    return Page[FailedAction](
        items=named_rows(FailedAction, rows, scope=scope),
        **page_fields(page, total=total, column=column, descending=descending),
    )
