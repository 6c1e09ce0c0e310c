"""``GET /v2/Analytics/FailureMatrix``: error types x vehicles with counts, the worst level,
first and last seen (episodes starting in T; filters ``errorType`` and ``level``)."""

from datetime import datetime

import duckdb
from pydantic import Field

from fleetscope.analytics.core.facts import select_periods
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.failures.failures import (
    LEVELS,
    SEVERITY,
    ErrorFilter,
    LevelCounts,
    episodes,
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


_LEVELS_SQL = ", ".join(f"count(*) FILTER (WHERE level = '{level}')" for level in LEVELS)


def failure_matrix(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime, errors: ErrorFilter
) -> FailureMatrixOut:
    sql, parameters = episodes(select_periods(scope, now=now, previous=False), errors)
    # Cells, types (no vehicle) and vehicles (no type) in one statement. Instants as
    # ``epoch_us`` integers: a TIMESTAMPTZ fetched into Python costs ten times as much.
    rows = cursor.execute(
        f"SELECT error_type, vehicle_id, count(*) AS n, {_LEVELS_SQL}, max({SEVERITY}), "  # noqa: S608 - constants only
        f"min(epoch_us(start_at)), max(epoch_us(start_at)) FROM ({sql}) "
        "GROUP BY GROUPING SETS ((error_type, vehicle_id), error_type, vehicle_id) "
        "ORDER BY n DESC, error_type, vehicle_id",
        parameters,
    ).fetchall()
    cells = sorted(row for row in rows if row[0] is not None and row[1] is not None)
    per_vehicle = {row[1]: row[2] for row in rows if row[0] is None}
    return FailureMatrixOut(
        period=period_out(scope, now=now),
        error_types=[
            MatrixType(
                error_type=name, count=count,
                levels=LevelCounts.of(dict(zip(LEVELS, levels, strict=True))),
                first_seen=from_micros(first), last_seen=from_micros(last),
            )
            for name, vehicle_id, count, *levels, _, first, last in rows
            if vehicle_id is None
        ],
        vehicles=[
            MatrixVehicle(vehicle_id=v.id, name=v.name, count=per_vehicle.get(v.id, 0))
            for v in scope.vehicles
        ],
        cells=[
            MatrixCell(
                error_type=name, vehicle_id=vehicle_id, count=count,
                worst_level=LEVELS[worst - 1],
                first_seen=from_micros(first), last_seen=from_micros(last),
            )
            for name, vehicle_id, count, *_, worst, first, last in cells
        ],
        max_count=max((row[2] for row in cells), default=0),
    )  # fmt: skip
