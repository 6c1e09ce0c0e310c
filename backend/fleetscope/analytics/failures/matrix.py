"""``GET /v2/Analytics/FailureMatrix``: error types x vehicles with counts, the worst level,
first and last seen (episodes starting in T; filters ``errorType`` and ``level``).

Instants are read as ``epoch_us`` integers and turned into datetimes only for the result:
a TIMESTAMPTZ fetched into Python costs ten times as much (a time zone lookup each)."""

from datetime import datetime
from typing import Any

import duckdb
from pydantic import Field

from fleetscope.analytics.core.facts import rows_in_periods, select_periods
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.failures.failures import (
    EPISODE_COLUMNS,
    ErrorFilter,
    LevelCounts,
    level_counts,
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


_SEVERITY = "CASE level WHEN 'FATAL' THEN 4 WHEN 'CRITICAL' THEN 3 WHEN 'URGENT' THEN 2 ELSE 1 END"


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
    sql = (
        f"SELECT error_type, vehicle_id, level, count(*), max({_SEVERITY}), "  # noqa: S608 - constants only
        f"min(epoch_us(start_at)), max(epoch_us(start_at)) FROM ({rows_sql}) WHERE {where} "
        "GROUP BY ALL"
    )
    cells: dict[tuple[str, int], dict[str, Any]] = {}
    types: dict[str, dict[str, Any]] = {}
    severity_names = {1: "WARNING", 2: "URGENT", 3: "CRITICAL", 4: "FATAL"}
    for error_type, vehicle_id, level, count, severity, first, last in cursor.execute(
        sql, [*parameters, *filter_parameters]
    ).fetchall():
        cell = cells.setdefault(
            (error_type, vehicle_id),
            {"count": 0, "severity": 0, "first": first, "last": last},
        )
        cell["count"] += count
        cell["severity"] = max(cell["severity"], severity)
        cell["first"], cell["last"] = min(cell["first"], first), max(cell["last"], last)
        row = types.setdefault(error_type, {"count": 0, "levels": {}, "first": first, "last": last})
        row["count"] += count
        row["levels"][level] = row["levels"].get(level, 0) + count
        row["first"], row["last"] = min(row["first"], first), max(row["last"], last)
    per_vehicle: dict[int, int] = {}
    for (_, vehicle_id), cell in cells.items():
        per_vehicle[vehicle_id] = per_vehicle.get(vehicle_id, 0) + cell["count"]
    return FailureMatrixOut(
        period=period_out(scope, now=now),
        error_types=[
            MatrixType(
                error_type=name,
                count=row["count"],
                levels=level_counts(row["levels"]),
                first_seen=from_micros(row["first"]),
                last_seen=from_micros(row["last"]),
            )
            for name, row in sorted(types.items(), key=lambda item: (-item[1]["count"], item[0]))
        ],
        vehicles=[
            MatrixVehicle(vehicle_id=v.id, name=v.name, count=per_vehicle.get(v.id, 0))
            for v in scope.vehicles
        ],
        cells=[
            MatrixCell(
                error_type=error_type,
                vehicle_id=vehicle_id,
                count=cell["count"],
                worst_level=severity_names[cell["severity"]],
                first_seen=from_micros(cell["first"]),
                last_seen=from_micros(cell["last"]),
            )
            for (error_type, vehicle_id), cell in sorted(cells.items())
        ],
        max_count=max((cell["count"] for cell in cells.values()), default=0),
    )
