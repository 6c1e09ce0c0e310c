"""``GET /v2/Analytics/Dashboard``: the fleet's KPI tiles, their previous-period values and
sparklines over the history's buckets; the cycle-time median is Processes' (docs/analytics.md)."""

from datetime import date, datetime, timedelta
from typing import Literal

import duckdb
import numpy as np
from pydantic import Field

from fleetscope.analytics.core.collect import FLEET
from fleetscope.analytics.core.kpis import kpis_of_rows, recorded
from fleetscope.analytics.core.models import Coverage, Kpis, PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.percentiles import exact_for
from fleetscope.analytics.core.periods import granularity_for
from fleetscope.analytics.core.plan import BucketSpan, Collected, period_out, read_buckets
from fleetscope.analytics.processes.orders import cycle_medians
from fleetscope.analytics.productivity.history import history_spans, kpi_lists
from fleetscope.appstore.schemas import CamelModel

TileKey = Literal[
    "availability", "utilization", "throughput", "orders", "cycleTimeP50", "mtbf", "mttr",
    "errors", "meanCharge",
]  # fmt: skip


class SparkPoint(CamelModel):
    from_: date = Field(alias="from")
    value: float | None
    partial: bool = Field(default=False, description="the bucket is still running")


class DashboardTile(CamelModel):
    key: TileKey
    unit: Literal["share", "perHour", "count", "seconds", "percent"]
    value: float | None
    previous: float | None
    higher_is_better: bool
    exact: bool = Field(
        default=True,
        description="false: the value (cycle time over more than 31 days) comes from a "
        "histogram, within 0.5 %, the same number as on Processes",
    )
    series: list[SparkPoint]


class DashboardOut(CamelModel):
    period: PeriodOut
    granularity: Literal["day", "week", "month"]
    tiles: list[DashboardTile]
    coverage: Coverage
    previous_coverage: Coverage


# (tile, unit, field of ``Kpis``, higher is better)
TILES: tuple[tuple[TileKey, str, str, bool], ...] = (
    ("availability", "share", "availability", True),
    ("utilization", "share", "utilization", True),
    ("throughput", "perHour", "throughput_per_hour", True),
    ("orders", "count", "orders_finished", True),
    ("cycleTimeP50", "seconds", "cycle_time_p50_seconds", False),
    ("mtbf", "seconds", "mtbf_seconds", True),
    ("mttr", "seconds", "mttr_seconds", False),
    ("errors", "count", "errors", False),
    ("meanCharge", "percent", "mean_charge", True),
)


def _total_kpis(collected: Collected, spans: list[BucketSpan]) -> Kpis:
    """The fleet's KPIs over all of ``spans`` (they partition the period) together."""
    return kpis_of_rows(
        collected.measures.total([(FLEET, item.bucket) for item in spans]),
        period_s=np.array([sum(collected.fleet_seconds(item.bucket) for item in spans)]),
        calendar_s=np.array([collected.calendar_seconds(*(item.bucket for item in spans))]),
    )[0]


def dashboard(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    use_rollups: bool = True,
) -> DashboardOut:
    spans = history_spans(scope, now=now)
    current, previous = spans.current, spans.previous
    collected = read_buckets(
        cursor,
        scope,
        [*current, *previous],
        by_vehicle=False,
        now=now,
        offline_after=offline_after,
        use_rollups=use_rollups,
    )
    totals, previous_totals = _total_kpis(collected, current), _total_kpis(collected, previous)
    exact = exact_for(scope.span)
    medians, (median, previous_median) = cycle_medians(
        cursor,
        collected,
        periods=[[item.bucket for item in side] for side in (current, previous)],
        exact=exact,
    )
    totals.cycle_time_p50_seconds, previous_totals.cycle_time_p50_seconds = median, previous_median
    series = {name: row for name, (row,) in kpi_lists(collected, [FLEET], current).items()}
    series["cycle_time_p50_seconds"] = medians[: len(current)]
    tiles = [
        DashboardTile(
            key=key,
            unit=unit,
            value=getattr(totals, field),
            previous=getattr(previous_totals, field) if recorded(previous_totals) else None,
            higher_is_better=higher_is_better,
            exact=exact or key != "cycleTimeP50",
            series=[
                SparkPoint(from_=item.span.first, value=value, partial=item.bucket in spans.partial)
                for item, value in zip(current, series[field], strict=True)
            ],
        )
        for key, unit, field, higher_is_better in TILES
    ]
    return DashboardOut(
        period=period_out(scope, now=now),
        granularity=granularity_for(scope.span.days),
        tiles=tiles,
        coverage=Coverage.of(totals),
        previous_coverage=Coverage.of(previous_totals),
    )
