"""``GET /v2/Analytics/Failures`` (Pareto, MTBF/MTTR, errors per 1,000 orders) and ``FailureMatrix``
(types x vehicles) of the error episodes starting in T; the filters ``errorType`` and ``level``
narrow all but MTBF, MTTR and the rates (docs/analytics-v2.md; glossary: product.md section 3)."""

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import accumulate
from typing import Any, Literal

import duckdb
from pydantic import Field

from fleetscope.analytics.core import facts
from fleetscope.analytics.core.measure_table import STATE_MEASURES
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out, period_spans, read_buckets
from fleetscope.analytics.core.sql import seconds_between, summed_seconds
from fleetscope.analytics.failures.layout import MapCell
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.rawlog import from_micros

ErrorLevel = Literal["WARNING", "URGENT", "CRITICAL", "FATAL"]
LEVELS: tuple[ErrorLevel, ...] = ("WARNING", "URGENT", "CRITICAL", "FATAL")
STOP_LEVELS = ("CRITICAL", "FATAL")  # put a vehicle into ``error`` (CRITICAL: VDA 5050 3.0)
# A level's rank, 1 (WARNING) to 4 (FATAL); a level VDA 5050 does not name ranks as WARNING.
SEVERITY = f"coalesce(list_position({list(LEVELS)}, level), 1)"
MAX_ERROR_TYPE_LENGTH = 200
# Every column a failure resource reads of an episode (DuckDB reads only those it uses).
EPISODE_COLUMNS = (
    "f.vehicle_id, f.error_type, upper(f.level) AS level, f.description, f.start_at, f.end_at, "
    f"{seconds_between('f.end_at', 'f.start_at')} AS duration_s, f.order_id, f.x, f.y, f.map_id, "
    "f.references_json"
)
_ENDED_ORDERS = ("orders_finished", "orders_failed", "orders_cancelled")
_BUCKETS = (facts.CURRENT, facts.PREVIOUS)
# What the page uses of the rollups: time in each state (planned time, downtime, uptime),
# the stopping errors and their time (MTBF, MTTR), the ended orders (errors per 1,000).
_ROLLUP_MEASURES = frozenset({*STATE_MEASURES, "stop_errors", "stop_error_s", *_ENDED_ORDERS})


@dataclass(frozen=True, slots=True)
class ErrorFilter:
    error_type: str | None = None
    # Any of these levels (empty: every level); the stop levels are the fatal errors' list.
    levels: tuple[ErrorLevel, ...] = ()
    cell: MapCell | None = None  # one cell of a failure map's density grid

    def sql(self) -> tuple[str, list[Any]]:
        """A condition on the episodes' type, level and position (``TRUE`` without filter)."""
        parts: list[tuple[str, list[Any]]] = [("TRUE", [])]
        if self.error_type is not None:
            parts.append(("error_type = ?", [self.error_type]))
        if self.levels:
            parts.append(("list_contains(?::VARCHAR[], level)", [list(self.levels)]))
        if self.cell is not None:
            parts.append(self.cell.sql())
        return " AND ".join(sql for sql, _ in parts), [p for _, values in parts for p in values]


def episodes(selection: facts.Selection, errors: ErrorFilter) -> tuple[str, list[Any]]:
    """The error episodes starting in T of ``selection`` that ``errors`` lets through."""
    rows_sql, parameters = facts.rows_in_periods(
        selection, table="error_episodes", at="start_at", columns=EPISODE_COLUMNS
    )
    where, filter_parameters = errors.sql()
    if not filter_parameters:  # no layer more to plan
        return rows_sql, parameters
    return f"SELECT * FROM ({rows_sql}) WHERE {where}", [*parameters, *filter_parameters]  # noqa: S608 - constants only


class LevelCounts(CamelModel):
    warning: int = 0
    urgent: int = 0
    critical: int = 0
    fatal: int = 0

    @classmethod
    def of(cls, counts: Mapping[str, int]) -> "LevelCounts":
        return cls(**{level.lower(): counts.get(level, 0) for level in LEVELS})


class ParetoItem(CamelModel):
    error_type: str
    count: int
    downtime_seconds: float = Field(description="summed duration of its stop-level episodes")
    levels: LevelCounts
    share: float = Field(description="of all episodes (by count) or all downtime")
    cumulative_share: float


class ReliabilityFigures(CamelModel):
    period_seconds: float = Field(description="T, as in Kpis")
    no_data_seconds: float = Field(description="part of T before a vehicle's first message")
    planned_seconds: float
    downtime_seconds: float
    episodes: int = Field(description="error episodes of every level started in T")
    stop_episodes: int = Field(description="FATAL (3.0: CRITICAL or FATAL)")
    warnings: int
    mtbf_seconds: float | None
    mttr_seconds: float | None
    orders: int = Field(description="orders ended in T")
    errors_per_1000_orders: float | None
    stop_errors_per_1000_orders: float | None
    warnings_per_1000_orders: float | None


class ReliabilityEntry(CamelModel):
    vehicle_id: int | None = Field(description="null: the selected vehicles together")
    name: str | None
    current: ReliabilityFigures
    previous: ReliabilityFigures


class FailuresOut(CamelModel):
    period: PeriodOut
    pareto_by_count: list[ParetoItem]
    pareto_by_downtime: list[ParetoItem] = Field(description="types with downtime only")
    levels: LevelCounts
    entries: list[ReliabilityEntry] = Field(description="per vehicle, or the combined entry")
    fleet: ReliabilityEntry


def _per_1000(count: int, orders: int) -> float | None:
    return count * 1000 / orders if orders else None


def _pareto(
    by_type: dict[str, Counter[str]], stop_time: dict[str, float], *, by_count: bool
) -> list[ParetoItem]:
    stop_time = {name: summed_seconds(seconds) for name, seconds in stop_time.items()}
    size = {name: sum(c.values()) if by_count else stop_time[name] for name, c in by_type.items()}
    ranked = sorted((name for name in size if size[name] > 0), key=lambda n: (-size[n], n))
    whole = sum(size[name] for name in ranked)
    return [
        ParetoItem(
            error_type=name, count=sum(by_type[name].values()),
            downtime_seconds=stop_time[name], levels=LevelCounts.of(by_type[name]),
            share=size[name] / whole, cumulative_share=min(1.0, running / whole),
        )
        for name, running in zip(ranked, accumulate(size[name] for name in ranked), strict=True)
    ]  # fmt: skip


def failures(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    errors: ErrorFilter,
) -> FailuresOut:
    rows_sql, parameters = episodes(facts.select_periods(scope, now=now), ErrorFilter())
    where, filter_parameters = errors.sql()
    # The episodes counted by vehicle, bucket, type and level (a plain GROUP BY, faster than
    # grouping sets) and folded here; the filters apply to the Pareto only.
    counted = cursor.execute(
        "SELECT vehicle_id, bucket, error_type, level, count(*), "  # noqa: S608 - constants only
        f"coalesce(sum(duration_s) FILTER (WHERE level IN {STOP_LEVELS}), 0), "
        f"bucket = {facts.CURRENT} AND {where} FROM ({rows_sql}) GROUP BY ALL",
        [*filter_parameters, *parameters],
    ).fetchall()
    levels: defaultdict[tuple[int | None, int], Counter[str]] = defaultdict(Counter)
    by_type: defaultdict[str, Counter[str]] = defaultdict(Counter)  # the Pareto's
    stop_time: defaultdict[str, float] = defaultdict(float)
    for vehicle_id, bucket, error_type, level, count, stop_s, pareto in counted:
        levels[vehicle_id, bucket][level] += count
        levels[None, bucket][level] += count
        if pareto:
            by_type[error_type][level] += count
            stop_time[error_type] += stop_s
    # The rollups' measures per vehicle, then together (combined: only together), per bucket
    # through one pass of the glossary's KPI code; ``ids`` in their order (None: together).
    collected = read_buckets(
        cursor,
        scope,
        period_spans(scope, current=facts.CURRENT, previous=facts.PREVIOUS),
        by_vehicle=not scope.combined,
        now=now,
        offline_after=offline_after,
        only=_ROLLUP_MEASURES,
    )
    ids: list[int | None] = [None] if scope.combined else [*scope.vehicle_ids, None]
    kpis = {
        (vehicle_id, bucket): kpi
        for bucket in _BUCKETS
        for vehicle_id, kpi in zip(
            ids, collected.figures(bucket, scope.vehicle_ids)[1], strict=True
        )
    }

    def figures(key: tuple[int | None, int]) -> ReliabilityFigures:
        counts, kpi = levels[key], kpis[key]
        ended = kpi.orders_finished + kpi.orders_failed + kpi.orders_cancelled
        episodes, warnings = sum(counts.values()), counts["WARNING"]
        stops = sum(counts[level] for level in STOP_LEVELS)
        return ReliabilityFigures(
            period_seconds=kpi.period_seconds, no_data_seconds=kpi.no_data_seconds,
            planned_seconds=kpi.planned_seconds, downtime_seconds=kpi.downtime_seconds,
            episodes=episodes, stop_episodes=kpi.stop_errors, warnings=warnings,
            mtbf_seconds=kpi.mtbf_seconds, mttr_seconds=kpi.mttr_seconds, orders=ended,
            errors_per_1000_orders=_per_1000(episodes, ended),
            stop_errors_per_1000_orders=_per_1000(stops, ended),
            warnings_per_1000_orders=_per_1000(warnings, ended),
        )  # fmt: skip

    def entry(vehicle_id: int | None, name: str | None) -> ReliabilityEntry:
        current, previous = (figures((vehicle_id, bucket)) for bucket in _BUCKETS)
        return ReliabilityEntry(
            vehicle_id=vehicle_id, name=name, current=current, previous=previous
        )

    fleet = entry(None, None)
    return FailuresOut(
        period=period_out(scope, now=now),
        pareto_by_count=_pareto(by_type, stop_time, by_count=True),
        pareto_by_downtime=_pareto(by_type, stop_time, by_count=False),
        levels=LevelCounts.of(sum(by_type.values(), Counter())),
        entries=[fleet] if scope.combined else [entry(v.id, v.name) for v in scope.vehicles],
        fleet=fleet,
    )  # fmt: skip


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
    sql, parameters = episodes(facts.select_periods(scope, now=now, previous=False), errors)
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
                error_type=name, vehicle_id=vehicle_id, count=count, worst_level=LEVELS[worst - 1],
                first_seen=from_micros(first), last_seen=from_micros(last),
            )
            for name, vehicle_id, count, *_, worst, first, last in cells
        ],
        max_count=max((row[2] for row in cells), default=0),
    )  # fmt: skip
