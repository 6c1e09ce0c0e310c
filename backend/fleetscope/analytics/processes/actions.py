"""``GET /v2/Analytics/Actions`` and ``/Actions/{actionType}/Failures``.

Actions count in T where they **end** (FINISHED or FAILED; actions that vanished unfinished
when another order replaced theirs are not facts). Per action type: count, failed, failure
rate = failed / count, duration (end - first RUNNING) p50/p90 of the finished actions that
ran, and the wait before start (first RUNNING - first seen) of every action that ran, with
the previous period's count and failure rate. The drill-down lists the failed actions of
one type, paged; a type none of the selected vehicles ever reported is a 404.
"""

from dataclasses import dataclass
from datetime import datetime

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
from fleetscope.analytics.core.paging import Page, PageRequest, page_fields, parse_sort, read_page
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.core.sql_time import seconds_between
from fleetscope.appstore.schemas import CamelModel

MAX_ACTION_TYPE_LENGTH = 200
# A duration only for finished actions that ran, a wait for every action that ran (NULL
# otherwise: the aggregates skip NULLs). In integer microseconds: DuckDB's quantiles and
# mean over BIGINT cost a fifth less than over DOUBLE seconds (30 days: 45 against 56 ms).
_ACTION_COLUMNS = (
    "f.action_type, f.status, CASE WHEN f.status = 'FINISHED' THEN "
    "epoch_us(f.end_at) - epoch_us(f.started_at) END AS run_us, "
    "epoch_us(f.started_at) - epoch_us(f.first_seen_at) AS wait_us"
)
# Durations and waits only for the period itself: the previous period shows count and
# failure rate, and sorting its values for percentiles would double the work. A CASE per
# aggregate costs less than a FILTER clause each (10-15 % of the query over a year).
_THIS_PERIOD = f"CASE WHEN bucket = {CURRENT} THEN {{}} END"
_AGGREGATES = (
    "count(*), count(*) FILTER (WHERE status = 'FAILED'), "
    f"quantile_cont({_THIS_PERIOD.format('run_us')}, [0.5, 0.9]), "
    f"avg({_THIS_PERIOD.format('wait_us')}), "
    f"quantile_cont({_THIS_PERIOD.format('wait_us')}, 0.5)"
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


@dataclass(frozen=True, slots=True)
class ActionFigures:
    """Of one action type in one bucket; durations and waits in the period only."""

    count: int = 0
    failed: int = 0
    duration_p50_s: float | None = None
    duration_p90_s: float | None = None
    mean_wait_s: float | None = None
    wait_p50_s: float | None = None


def _rate(failed: int, count: int) -> float | None:
    return failed / count if count else None


def _seconds(micros: float | None) -> float | None:
    return micros / 1_000_000 if micros is not None else None


def action_figures_by_sql(
    cursor: duckdb.DuckDBPyConnection, selection: Selection
) -> dict[tuple[str, int], ActionFigures]:
    rows_sql, parameters = rows_in_periods(
        selection, table="actions", at="end_at", columns=_ACTION_COLUMNS
    )
    sql = f"SELECT action_type, bucket, {_AGGREGATES} FROM ({rows_sql}) GROUP BY ALL"  # noqa: S608 - constants only
    found: dict[tuple[str, int], ActionFigures] = {}
    for action_type, bucket, count, failed, durations, mean_wait, wait_p50 in cursor.execute(
        sql, parameters
    ).fetchall():
        p50, p90 = durations or (None, None)
        found[(str(action_type), int(bucket))] = ActionFigures(
            count=count,
            failed=failed,
            duration_p50_s=_seconds(p50),
            duration_p90_s=_seconds(p90),
            mean_wait_s=_seconds(mean_wait),
            wait_p50_s=_seconds(wait_p50),
        )
    return found


def actions(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
) -> ActionsOut:
    found = action_figures_by_sql(cursor, select_periods(scope, now=now))
    result = []
    empty = ActionFigures()
    for action_type in {action_type for action_type, _ in found}:
        current = found.get((action_type, CURRENT), empty)
        previous = found.get((action_type, PREVIOUS), empty)
        result.append(
            ActionRow(
                action_type=action_type,
                count=current.count,
                failed=current.failed,
                failure_rate=_rate(current.failed, current.count),
                duration_p50_seconds=current.duration_p50_s,
                duration_p90_seconds=current.duration_p90_s,
                mean_wait_seconds=current.mean_wait_s,
                wait_p50_seconds=current.wait_p50_s,
                previous_count=previous.count,
                previous_failure_rate=_rate(previous.failed, previous.count),
            )
        )
    result.sort(key=lambda row: (-row.count, row.action_type))
    return ActionsOut(period=period_out(scope, now=now), actions=result)


FAILURE_SORTS = {
    "end": "end_at",
    "firstSeen": "first_seen_at",
    "duration": "duration_s",
    "vehicle": "vehicle_id",
    "orderId": "order_id",
}
_FAILURE_COLUMNS = (
    "f.vehicle_id, f.action_id, f.action_type, f.order_id, f.first_seen_at, f.started_at, "
    f"f.end_at, f.status, {seconds_between('f.end_at', 'coalesce(f.started_at, f.first_seen_at)')} "
    "AS duration_s"
)


def require_action_type(
    cursor: duckdb.DuckDBPyConnection, *, action_type: str, vehicle_ids: list[int]
) -> None:
    require_named(
        cursor,
        field="actionType",
        value=action_type,
        max_length=MAX_ACTION_TYPE_LENGTH,
        vehicle_ids=vehicle_ids,
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
    require_action_type(cursor, action_type=action_type, vehicle_ids=scope.vehicle_ids)
    column, descending = parse_sort(page.sort, columns=FAILURE_SORTS, default="-end")
    selection = select_periods(scope, now=now, previous=False)
    if vehicle_id is not None:
        selection = selection.restricted_to({vehicle_id})
    rows_sql, parameters = rows_in_periods(
        selection, table="actions", at="end_at", columns=_FAILURE_COLUMNS
    )
    parameters.append(action_type)
    total, rows = read_page(
        cursor,
        page,
        select="* EXCLUDE (bucket)",
        source=f"FROM ({rows_sql}) WHERE action_type = ? AND status = 'FAILED'",
        parameters=parameters,
        column_sql=FAILURE_SORTS[column],
        descending=descending,
        tie_breakers=["vehicle_id", "end_at", "action_id"],
    )
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    items = [
        FailedAction(
            vehicle_id=row[0],
            vehicle_name=names.get(row[0], ""),
            action_id=row[1],
            action_type=row[2],
            order_id=row[3],
            first_seen=row[4],
            started=row[5],
            end=row[6],
            duration_seconds=row[8],
        )
        for row in rows
    ]
    return Page[FailedAction](
        items=items, **page_fields(page, total=total, column=column, descending=descending)
    )
