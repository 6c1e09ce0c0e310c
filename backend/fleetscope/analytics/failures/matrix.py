"""``GET /v2/Analytics/FailureMatrix``: error types x vehicles with counts, the worst level,
first and last seen (episodes starting in T; filters ``errorType`` and ``level``).

Instants are read as ``epoch_us`` integers and turned into datetimes only for the result:
a TIMESTAMPTZ fetched into Python costs ten times as much (a time zone lookup each)."""

from collections import Counter
from datetime import datetime

import duckdb
from pydantic import Field

from fleetscope.analytics.core.facts import select_periods
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.failures.failures import LEVELS, ErrorFilter, LevelCounts, episodes
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


def _worst(levels: list[int]) -> str:
    """The most severe level seen (only other levels: a WARNING)."""
    return next((lv for lv, n in zip(LEVELS[::-1], levels[::-1], strict=True) if n), "WARNING")


def failure_matrix(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime, errors: ErrorFilter
) -> FailureMatrixOut:
    sql, parameters = episodes(select_periods(scope, now=now, previous=False), errors)
    cells = sorted(
        cursor.execute(
            f"SELECT error_type, vehicle_id, count(*), {_LEVELS_SQL}, min(epoch_us(start_at)), "  # noqa: S608 - constants only
            f"max(epoch_us(start_at)) FROM ({sql}) GROUP BY error_type, vehicle_id",
            parameters,
        ).fetchall()
    )
    per_vehicle: Counter[int] = Counter()
    types: dict[str, list[int]] = {}  # count, the levels' counts, first and last seen
    for error_type, vehicle_id, count, *levels, first, last in cells:
        per_vehicle[vehicle_id] += count
        row = types.setdefault(error_type, [0, 0, 0, 0, 0, first, last])
        row[:5] = [a + b for a, b in zip(row[:5], (count, *levels), strict=True)]
        row[5:] = [min(row[5], first), max(row[6], last)]
    ranked = sorted(types.items(), key=lambda item: (-item[1][0], item[0]))
    return FailureMatrixOut(
        period=period_out(scope, now=now),
        error_types=[
            MatrixType(
                error_type=name, count=count,
                levels=LevelCounts.of(dict(zip(LEVELS, levels, strict=True))),
                first_seen=from_micros(first), last_seen=from_micros(last),
            )
            for name, (count, *levels, first, last) in ranked
        ],
        vehicles=[
            MatrixVehicle(vehicle_id=v.id, name=v.name, count=per_vehicle[v.id])
            for v in scope.vehicles
        ],
        cells=[
            MatrixCell(
                error_type=name, vehicle_id=vehicle_id, count=count, worst_level=_worst(levels),
                first_seen=from_micros(first), last_seen=from_micros(last),
            )
            for name, vehicle_id, count, *levels, first, last in cells
        ],
        max_count=max((row[2] for row in cells), default=0),
    )  # fmt: skip
