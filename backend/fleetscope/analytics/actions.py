"""``GET /v2/Analytics/Actions`` and ``/Actions/{actionType}/Failures``.

Actions count in T where they **end** (FINISHED or FAILED; actions that vanished unfinished
when another order replaced theirs are not facts). Per action type: count, failed, failure
rate = failed / count, duration (end - first RUNNING) p50/p90 of the finished actions that
ran, and the wait before start (first RUNNING - first seen) of every action that ran, with
the previous period's count and failure rate. The drill-down lists the failed actions of
one type, paged; a type none of the selected vehicles ever reported is a 404.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import duckdb
import numpy as np
from pydantic import Field

from fleetscope.analytics.counted_values import CountedValues
from fleetscope.analytics.drilldown import require_named
from fleetscope.analytics.fact_rows import CURRENT, PREVIOUS, rows_in_periods, select_periods
from fleetscope.analytics.models import PeriodOut
from fleetscope.analytics.paging import Page, PageRequest, page_count, page_ordering, parse_sort
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.plan import period_out
from fleetscope.analytics.sql_time import seconds_between
from fleetscope.appstore.schemas import CamelModel

MAX_ACTION_TYPE_LENGTH = 200
DURATION_QUANTILES = (0.5, 0.9)
_ACTION_COLUMNS = (
    "f.action_type, f.status, epoch_us(f.end_at) - epoch_us(f.started_at) AS run_us, "
    "epoch_us(f.started_at) - epoch_us(f.first_seen_at) AS wait_us"
)
# One pass, three groupings: the counts per bucket, and how often each distinct duration
# and wait occurs in the period itself (``counted_values`` ranks them; the previous period
# shows count and failure rate only). A duration only for finished actions that ran, a
# wait for every action that ran; NULL otherwise, a group that is skipped.
_COUNTS, _DURATIONS, _WAITS = 0b0011, 0b1101, 0b1110  # grouping(bucket, failed, run, wait)
_COUNTED = (
    "SELECT action_type, grouping(bucket, failed, run_us, wait_us) AS grouping_id, bucket, "  # noqa: S608 - constants only
    "failed, run_us, wait_us, count(*) AS n FROM ("
    f"SELECT action_type, bucket, status = 'FAILED' AS failed, CASE WHEN bucket = {CURRENT} "
    "AND status = 'FINISHED' THEN run_us END AS run_us, "
    f"CASE WHEN bucket = {CURRENT} THEN wait_us END AS wait_us FROM ({{rows}})) "
    "GROUP BY GROUPING SETS ((action_type, bucket, failed), (action_type, run_us), "
    "(action_type, wait_us))"
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


def _rate(failed: int, count: int) -> float | None:
    return failed / count if count else None


@dataclass(slots=True)
class _TypeFigures:
    counts: dict[tuple[int, bool], int] = field(default_factory=dict)  # (bucket, failed)
    durations: CountedValues | None = None  # microseconds, this period
    waits: CountedValues | None = None

    def count(self, bucket: int) -> tuple[int, int]:
        """(all, failed) in ``bucket``."""
        failed = self.counts.get((bucket, True), 0)
        return self.counts.get((bucket, False), 0) + failed, failed


def _counted(columns: dict[str, Any]) -> dict[str, _TypeFigures]:
    """The rows of ``_COUNTED`` per action type."""
    found: dict[str, _TypeFigures] = {}
    grouping = columns["grouping_id"]
    for action_type in {str(value) for value in columns["action_type"].tolist()}:
        of_type = columns["action_type"] == action_type
        figures = found[action_type] = _TypeFigures()
        rows = np.flatnonzero(of_type & (grouping == _COUNTS))
        for bucket, failed, n in zip(
            columns["bucket"][rows].tolist(),
            columns["failed"][rows].tolist(),
            columns["n"][rows].tolist(),
            strict=True,
        ):
            figures.counts[(int(bucket), bool(failed))] = int(n)
        for kind, column in ((_DURATIONS, "run_us"), (_WAITS, "wait_us")):
            values = columns[column]
            known = of_type & (grouping == kind) & ~np.ma.getmaskarray(values)
            counted = CountedValues.of(np.ma.getdata(values)[known], columns["n"][known])
            if kind == _DURATIONS:
                figures.durations = counted
            else:
                figures.waits = counted
    return found


def _seconds(micros: float | None) -> float | None:
    return None if micros is None else micros / 1_000_000


def actions(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime
) -> ActionsOut:
    rows_sql, parameters = rows_in_periods(
        select_periods(scope, now=now), table="actions", at="end_at", columns=_ACTION_COLUMNS
    )
    columns = cursor.execute(_COUNTED.format(rows=rows_sql), parameters).fetchnumpy()
    result = []
    for action_type, figures in _counted(columns).items():
        count, failed = figures.count(CURRENT)
        previous_count, previous_failed = figures.count(PREVIOUS)
        durations = figures.durations or CountedValues.of([], [])
        waits = figures.waits or CountedValues.of([], [])
        p50, p90 = durations.quantiles(DURATION_QUANTILES)
        result.append(
            ActionRow(
                action_type=action_type,
                count=count,
                failed=failed,
                failure_rate=_rate(failed, count),
                duration_p50_seconds=_seconds(p50),
                duration_p90_seconds=_seconds(p90),
                mean_wait_seconds=_seconds(waits.mean()),
                wait_p50_seconds=_seconds(waits.quantiles([0.5])[0]),
                previous_count=previous_count,
                previous_failure_rate=_rate(previous_failed, previous_count),
            )
        )
    result.sort(key=lambda row: (-row.count, row.action_type))
    return ActionsOut(period=period_out(scope), actions=result)


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
    base = f"FROM ({rows_sql}) WHERE action_type = ? AND status = 'FAILED'"
    parameters.append(action_type)
    total_row = cursor.execute(f"SELECT count(*) {base}", parameters).fetchone()
    total = int(total_row[0]) if total_row else 0
    ordering = page_ordering(
        page,
        total=total,
        column_sql=FAILURE_SORTS[column],
        descending=descending,
        tie_breakers=["vehicle_id", "end_at", "action_id"],
    )
    items: list[FailedAction] = []
    if ordering.limit > 0:
        names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
        rows = cursor.execute(
            f"SELECT * EXCLUDE (bucket) {base} ORDER BY {ordering.sql} LIMIT ? OFFSET ?",
            [*parameters, ordering.limit, ordering.offset],
        ).fetchall()
        if ordering.reversed_read:
            rows.reverse()
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
        items=items,
        total=total,
        page=page.page,
        page_size=page.page_size,
        pages=page_count(total, page.page_size),
        sort=f"{'-' if descending else ''}{column}",
    )
