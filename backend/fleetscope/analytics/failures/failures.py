"""``GET /v2/Analytics/Failures`` (Pareto, MTBF/MTTR, errors per 1,000 orders) and
``GET /v2/Analytics/FailureMatrix`` (error types x vehicles).

Error episodes count in T where they **start** (as in the rollups). Stop-level episodes are
the ones that put a vehicle into the ``error`` state: FATAL, and in VDA 5050 3.0 also
CRITICAL (earlier versions have no CRITICAL level). Glossary (product.md section 3):
- MTBF = (planned - downtime) / stop-level episodes; MTTR = their mean duration; both per
  vehicle and for the selected vehicles together, from the same measures as productivity;
- downtime of an error type in the Pareto = the summed duration of its stop-level episodes
  (a WARNING does not stop the vehicle);
- errors per 1,000 orders = episodes / orders ended in T (finished, failed, cancelled) x 1000,
  for every level and for the stop levels and WARNING separately.
The filters ``errorType`` and ``level`` narrow the Pareto and the matrix.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

import duckdb
import numpy as np
from pydantic import Field

from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, rows_in_periods, select_periods
from fleetscope.analytics.core.kpis import kpi_columns
from fleetscope.analytics.core.measure_table import COLUMN, HIST_COLUMNS, STATE_MEASURES, Matrix
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out, period_spans, read_buckets
from fleetscope.analytics.core.sql_time import seconds_between
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.appstore.schemas import CamelModel
from fleetscope.i18n.messages import TOO_LONG

ErrorLevel = Literal["WARNING", "URGENT", "CRITICAL", "FATAL"]
LEVELS: tuple[ErrorLevel, ...] = ("WARNING", "URGENT", "CRITICAL", "FATAL")
STOP_LEVELS = ("CRITICAL", "FATAL")
MAX_ERROR_TYPE_LENGTH = 200
_DURATION = seconds_between("f.end_at", "f.start_at")
_ENDED_ORDERS = [COLUMN[name] for name in ("orders_finished", "orders_failed", "orders_cancelled")]
# What the page uses of the rollups: time in each state (planned time, downtime, uptime),
# the stopping errors and their time (MTBF, MTTR), the ended orders (errors per 1,000).
_ROLLUP_MEASURES = frozenset(
    {
        *STATE_MEASURES,
        "stop_errors",
        "stop_error_s",
        "orders_finished",
        "orders_failed",
        "orders_cancelled",
    }
)
EPISODE_COLUMNS = (
    f"f.vehicle_id, f.error_type, upper(f.level) AS level, f.start_at, {_DURATION} AS duration_s"
)


@dataclass(frozen=True, slots=True)
class ErrorFilter:
    error_type: str | None = None
    level: ErrorLevel | None = None

    def sql(self) -> tuple[str, list[Any]]:
        """An extra ``WHERE`` on the episode subquery (always valid: starts with TRUE)."""
        clauses, parameters = ["TRUE"], []
        if self.error_type is not None:
            if len(self.error_type) > MAX_ERROR_TYPE_LENGTH:
                raise InvalidInputError(
                    TOO_LONG(field="errorType", max_length=MAX_ERROR_TYPE_LENGTH)
                )
            clauses.append("error_type = ?")
            parameters.append(self.error_type)
        if self.level is not None:
            clauses.append("level = ?")
            parameters.append(self.level)
        return " AND ".join(clauses), parameters

    def matches(self, *, error_type: str, level: str) -> bool:
        return (self.error_type is None or error_type == self.error_type) and (
            self.level is None or level == self.level
        )


class LevelCounts(CamelModel):
    warning: int = 0
    urgent: int = 0
    critical: int = 0
    fatal: int = 0


class ParetoItem(CamelModel):
    error_type: str
    count: int
    downtime_seconds: float = Field(description="summed duration of its stop-level episodes")
    levels: LevelCounts
    share: float = Field(description="of all episodes (by count) or all downtime")
    cumulative_share: float


class ReliabilityFigures(CamelModel):
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


def level_counts(counts: dict[str, int]) -> LevelCounts:
    return LevelCounts(**{level.lower(): counts.get(level, 0) for level in LEVELS})


class _MeasureRows:
    """The measures and KPIs of MTBF and MTTR for the rows of a measure matrix, as lists."""

    def __init__(self, rows: Matrix) -> None:
        # Cycle times are not shown here: no medians from their histogram, row by row.
        rows[:, HIST_COLUMNS] = 0
        kpis = kpi_columns(rows, period_s=np.zeros(len(rows)))
        self.planned = kpis["planned_seconds"].tolist()
        self.downtime = kpis["downtime_seconds"].tolist()
        self.mtbf = kpis["mtbf_seconds"].tolist()
        self.mttr = kpis["mttr_seconds"].tolist()
        self.stop_errors = rows[:, COLUMN["stop_errors"]].tolist()
        self.orders = rows[:, _ENDED_ORDERS].sum(axis=1).tolist()

    def reliability(self, index: int, levels: dict[str, int]) -> ReliabilityFigures:
        """Row ``index`` with the episodes of those vehicles by level."""
        orders = int(self.orders[index])
        episodes = sum(levels.values())
        stops = sum(levels.get(level, 0) for level in STOP_LEVELS)
        warnings = levels.get("WARNING", 0)
        mtbf, mttr = self.mtbf[index], self.mttr[index]
        return ReliabilityFigures(
            planned_seconds=self.planned[index],
            downtime_seconds=self.downtime[index],
            episodes=episodes,
            stop_episodes=int(self.stop_errors[index]),
            warnings=warnings,
            mtbf_seconds=None if mtbf != mtbf else mtbf,  # NaN: no denominator
            mttr_seconds=None if mttr != mttr else mttr,
            orders=orders,
            errors_per_1000_orders=_per_1000(episodes, orders),
            stop_errors_per_1000_orders=_per_1000(stops, orders),
            warnings_per_1000_orders=_per_1000(warnings, orders),
        )


def _pareto(items: dict[str, dict[str, Any]], *, key: str) -> list[ParetoItem]:
    ranked = sorted(
        (item for item in items.values() if item[key] > 0),
        key=lambda item: (-item[key], item["error_type"]),
    )
    whole = sum(item[key] for item in ranked)
    result, running = [], 0.0
    for item in ranked:
        running += item[key]
        result.append(
            ParetoItem(
                error_type=item["error_type"],
                count=item["count"],
                downtime_seconds=item["downtime"],
                levels=level_counts(item["levels"]),
                share=item[key] / whole,
                cumulative_share=min(1.0, running / whole),
            )
        )
    return result


def failures(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    errors: ErrorFilter,
) -> FailuresOut:
    rows_sql, parameters = rows_in_periods(
        select_periods(scope, now=now),
        table="error_episodes",
        at="start_at",
        columns=EPISODE_COLUMNS,
    )
    # Grouped small (vehicle x type x level); the filters apply to the Pareto only, so
    # MTBF, MTTR and the per-1,000 rates always describe every episode.
    rows = cursor.execute(
        "SELECT vehicle_id, bucket, error_type, level, count(*), "  # noqa: S608 - constants only
        f"coalesce(sum(duration_s) FILTER (WHERE level IN {STOP_LEVELS}), 0) "
        f"FROM ({rows_sql}) GROUP BY ALL",
        parameters,
    ).fetchall()
    # Combined, only the fleet's sums are needed: read as one (a site's rollups, if they
    # hold exactly the vehicles).
    collected = read_buckets(
        cursor,
        scope,
        period_spans(scope, current=CURRENT, previous=PREVIOUS),
        by_vehicle=not scope.combined,
        with_cycles=False,
        now=now,
        offline_after=offline_after,
        only=_ROLLUP_MEASURES,
    )
    types: dict[str, dict[str, Any]] = {}
    levels: dict[tuple[int, int], dict[str, int]] = {}
    for vehicle_id, bucket, error_type, level, count, downtime in rows:
        per_vehicle = levels.setdefault((int(vehicle_id), int(bucket)), {})
        per_vehicle[level] = per_vehicle.get(level, 0) + int(count)
        if bucket != CURRENT or not errors.matches(error_type=error_type, level=level):
            continue
        item = types.setdefault(
            error_type,
            {"error_type": error_type, "count": 0, "downtime": 0.0, "levels": {}},
        )
        item["count"] += int(count)
        item["downtime"] += float(downtime)
        item["levels"][level] = item["levels"].get(level, 0) + int(count)

    # Per vehicle and bucket, then the selected vehicles together per bucket: one matrix
    # and one pass of the glossary's KPI code over it.
    buckets = (CURRENT, PREVIOUS)
    ids = scope.vehicle_ids
    keys = [(v, bucket) for v in ([] if scope.combined else ids) for bucket in buckets]
    totals = [collected.together(bucket, ids) for bucket in buckets]
    measured = _MeasureRows(np.vstack([collected.measures.rows(keys), *totals]))

    def counted(vehicle_ids: list[int], bucket: int) -> dict[str, int]:
        result: dict[str, int] = {}
        for v in vehicle_ids:
            for level, count in levels.get((v, bucket), {}).items():
                result[level] = result.get(level, 0) + count
        return result

    def entry(
        first_row: int, vehicle_ids: list[int], vehicle_id: int | None, name: str | None
    ) -> ReliabilityEntry:
        current, previous = (
            measured.reliability(first_row + offset, counted(vehicle_ids, bucket))
            for offset, bucket in enumerate(buckets)
        )
        return ReliabilityEntry(
            vehicle_id=vehicle_id, name=name, current=current, previous=previous
        )

    fleet = entry(len(keys), ids, None, None)
    entries = (
        [fleet]
        if scope.combined
        else [
            entry(2 * index, [vehicle.id], vehicle.id, vehicle.name)
            for index, vehicle in enumerate(scope.vehicles)
        ]
    )
    all_levels: dict[str, int] = {}
    for item in types.values():
        for level, count in item["levels"].items():
            all_levels[level] = all_levels.get(level, 0) + count
    return FailuresOut(
        period=period_out(scope, now=now),
        pareto_by_count=_pareto(types, key="count"),
        pareto_by_downtime=_pareto(types, key="downtime"),
        levels=level_counts(all_levels),
        entries=entries,
        fleet=fleet,
    )
