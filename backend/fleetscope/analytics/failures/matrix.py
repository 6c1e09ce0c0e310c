"""``GET /v2/Analytics/FailureMatrix``: error types x vehicles with counts, the worst level,
first and last seen (episodes starting in T; filters ``errorType`` and ``level``).

One statement groups the cells, the rows (types) and the columns (vehicles). Instants are
read as ``epoch_us`` integers and turned into datetimes only for the result: a TIMESTAMPTZ
fetched into Python costs ten times as much (a time zone lookup each)."""

from datetime import datetime

import duckdb
from pydantic import Field

from fleetscope.analytics.core.facts import rows_in_periods, select_periods
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.failures.failures import (
    EPISODE_COLUMNS,
    LEVEL_COUNTS,
    LEVELS,
    ErrorFilter,
    LevelCounts,
)
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.rawlog import from_micros


class MatrixCell(CamelModel):
    error_type: str
    vehicle_id: int
    count: int
    worst_level: str = Field(description="the most severe level seen")
    first_seen: datetime
    last_seen: datetime


class MatrixType(CamelModel):
    error_type: str
    count: int
    levels: LevelCounts
    first_seen: datetime
    last_seen: datetime


class MatrixVehicle(CamelModel):
    vehicle_id: int
    name: str
    count: int


class FailureMatrixOut(CamelModel):
    period: PeriodOut
    error_types: list[MatrixType] = Field(description="rows, most frequent first")
    vehicles: list[MatrixVehicle] = Field(description="columns, every selected vehicle")
    cells: list[MatrixCell] = Field(description="non-empty cells only")
    max_count: int = Field(description="the largest cell: top of the colour scale")


# Severity: the position in ``LEVELS`` (any other level counts as a WARNING).
_WORST = f"{list(LEVELS)}[max(coalesce(list_position({list(LEVELS)}, level), 1))]"


def failure_matrix(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime, errors: ErrorFilter
) -> FailureMatrixOut:
    rows_sql, parameters = rows_in_periods(
        select_periods(scope, now=now, previous=False),
        table="error_episodes",
        at="start_at",
        columns=EPISODE_COLUMNS,
    )
    where, filter_parameters = errors.sql()
    rows = cursor.execute(
        "SELECT grouping(error_type, vehicle_id), error_type, vehicle_id, count(*), "  # noqa: S608 - constants only
        f"{_WORST}, min(epoch_us(start_at)), max(epoch_us(start_at)), {LEVEL_COUNTS} "
        f"FROM ({rows_sql}) WHERE {where} "
        "GROUP BY GROUPING SETS ((error_type, vehicle_id), (error_type), (vehicle_id)) "
        "ORDER BY 1, count(*) DESC, 2, 3",
        [*parameters, *filter_parameters],
    ).fetchall()
    per_vehicle = {row[2]: row[3] for row in rows if row[0] == 2}
    return FailureMatrixOut(
        period=period_out(scope, now=now),
        error_types=[
            MatrixType(
                error_type=row[1], count=row[3], levels=LevelCounts.of(row[7:]),
                first_seen=from_micros(row[5]), last_seen=from_micros(row[6]),
            )
            for row in rows if row[0] == 1
        ],
        vehicles=[
            MatrixVehicle(vehicle_id=v.id, name=v.name, count=per_vehicle.get(v.id, 0))
            for v in scope.vehicles
        ],
        cells=sorted(
            (
                MatrixCell(
                    error_type=row[1], vehicle_id=row[2], count=row[3], worst_level=row[4],
                    first_seen=from_micros(row[5]), last_seen=from_micros(row[6]),
                )
                for row in rows if row[0] == 0
            ),
            key=lambda cell: (cell.error_type, cell.vehicle_id),
        ),
        max_count=max((row[3] for row in rows if row[0] == 0), default=0),
    )  # fmt: skip
