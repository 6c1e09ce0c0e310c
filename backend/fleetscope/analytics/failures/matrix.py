"""``GET /v2/Analytics/FailureMatrix``: error types x vehicles with counts, the worst level,
first and last seen (episodes starting in T; filters ``errorType`` and ``level``).

Instants are read as ``epoch_us`` integers and turned into datetimes only for the result:
a TIMESTAMPTZ fetched into Python costs ten times as much (a time zone lookup each)."""

from collections import Counter
from datetime import datetime
from typing import Any

import duckdb
from pydantic import Field

from fleetscope.analytics.core.facts import rows_in_periods, select_periods
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.failures.failures import EPISODE_COLUMNS, LEVELS, ErrorFilter, LevelCounts
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


def _worst(levels: Counter[str]) -> str:
    """The most severe of ``levels`` (any other level counts as a WARNING)."""
    return max((lv if lv in LEVELS else "WARNING" for lv in levels), key=LEVELS.index)


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
    # Counted small (type x vehicle x level: a plain GROUP BY, faster than grouping sets),
    # folded into cells and rows here.
    # By (type, vehicle) and by type: the levels' counts, and first and last seen.
    cells: dict[Any, tuple[Counter[str], list[int]]] = {}
    types: dict[Any, tuple[Counter[str], list[int]]] = {}
    for error_type, vehicle_id, level, count, first, last in cursor.execute(
        "SELECT error_type, vehicle_id, level, count(*), min(epoch_us(start_at)), "  # noqa: S608 - constants only
        f"max(epoch_us(start_at)) FROM ({rows_sql}) WHERE {where} GROUP BY ALL",
        [*parameters, *filter_parameters],
    ).fetchall():
        for table, key in ((cells, (error_type, vehicle_id)), (types, error_type)):
            by_level, seen = table.setdefault(key, (Counter(), [first, last]))
            by_level[level] += count
            seen[:] = [min(seen[0], first), max(seen[1], last)]
    per_vehicle: Counter[int] = Counter()
    for (_, vehicle_id), (by_level, _) in cells.items():
        per_vehicle[vehicle_id] += sum(by_level.values())
    ranked = sorted(types.items(), key=lambda item: (-sum(item[1][0].values()), item[0]))
    return FailureMatrixOut(
        period=period_out(scope, now=now),
        error_types=[
            MatrixType(
                error_type=name, count=sum(by_level.values()), levels=LevelCounts.of(by_level),
                first_seen=from_micros(seen[0]), last_seen=from_micros(seen[1]),
            )
            for name, (by_level, seen) in ranked
        ],
        vehicles=[
            MatrixVehicle(vehicle_id=v.id, name=v.name, count=per_vehicle[v.id])
            for v in scope.vehicles
        ],
        cells=[
            MatrixCell(
                error_type=error_type, vehicle_id=vehicle_id, count=sum(by_level.values()),
                worst_level=_worst(by_level),
                first_seen=from_micros(seen[0]), last_seen=from_micros(seen[1]),
            )
            for (error_type, vehicle_id), (by_level, seen) in sorted(cells.items())
        ],
        max_count=max((sum(by_level.values()) for by_level, _ in cells.values()), default=0),
    )  # fmt: skip
