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


# Per level, the number of episodes; the worst level (any other counts as a WARNING).
_LEVELS_SQL = ", ".join(f"coalesce(sum(n) FILTER (WHERE level = '{lv}'), 0)" for lv in LEVELS)
_WORST_SQL = f"max(coalesce(list_position({list(LEVELS)}, level), 1))"


def failure_matrix(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime, errors: ErrorFilter
) -> FailureMatrixOut:
    sql, parameters = episodes(select_periods(scope, now=now, previous=False), errors)
    # Counted small first (type x vehicle x level: a plain GROUP BY over the episodes,
    # faster than grouping sets), then by (type, vehicle) and by type.
    found = cursor.execute(
        f"SELECT error_type, vehicle_id, sum(n), {_LEVELS_SQL}, {_WORST_SQL}, min(first), "  # noqa: S608 - constants only
        "max(last), grouping(vehicle_id) FROM (SELECT error_type, vehicle_id, level, "
        "count(*) AS n, min(epoch_us(start_at)) AS first, max(epoch_us(start_at)) AS last "
        f"FROM ({sql}) GROUP BY ALL) GROUP BY GROUPING SETS ((error_type, vehicle_id), "
        "(error_type)) ORDER BY error_type, vehicle_id",
        parameters,
    ).fetchall()
    cells = [row for row in found if not row[-1]]
    per_vehicle: Counter[int] = Counter()
    for _, vehicle_id, count, *_ in cells:
        per_vehicle[vehicle_id] += count
    types = sorted((row for row in found if row[-1]), key=lambda row: (-row[2], row[0]))
    return FailureMatrixOut(
        period=period_out(scope, now=now),
        error_types=[
            MatrixType(
                error_type=name, count=count,
                levels=LevelCounts.of(dict(zip(LEVELS, levels, strict=True))),
                first_seen=from_micros(first), last_seen=from_micros(last),
            )
            for name, _, count, *levels, _, first, last, _ in types
        ],
        vehicles=[
            MatrixVehicle(vehicle_id=v.id, name=v.name, count=per_vehicle[v.id])
            for v in scope.vehicles
        ],
        cells=[
            MatrixCell(
                error_type=name, vehicle_id=vehicle_id, count=count,
                worst_level=LEVELS[worst - 1],
                first_seen=from_micros(first), last_seen=from_micros(last),
            )
            for name, vehicle_id, count, *_, worst, first, last, _ in cells
        ],
        max_count=max((row[2] for row in cells), default=0),
    )  # fmt: skip
