"""``GET /v2/Analytics/Dashboard``: the KPI tiles with their previous-period values and a
small series each (the history's buckets: days, weeks or months) for the sparklines."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import duckdb

from fleetscope.analytics.collect import FLEET
from fleetscope.analytics.history import history_spans
from fleetscope.analytics.kpis import compute_kpis
from fleetscope.analytics.measures import Measures
from fleetscope.analytics.models import DashboardOut, DashboardTile, Kpis, SparkPoint, TileKey
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.periods import granularity_for
from fleetscope.analytics.plan import BucketSpan, Collected, period_out, read_buckets


@dataclass(frozen=True, slots=True)
class TileSpec:
    key: TileKey
    unit: str
    value: Callable[[Kpis], float | None]
    higher_is_better: bool = True


TILES: tuple[TileSpec, ...] = (
    TileSpec("availability", "share", lambda k: k.availability),
    TileSpec("utilization", "share", lambda k: k.utilization),
    TileSpec("throughput", "perHour", lambda k: k.throughput_per_hour),
    TileSpec("orders", "count", lambda k: k.orders_finished),
    TileSpec("cycleTimeP50", "seconds", lambda k: k.cycle_time_p50_seconds, False),
    TileSpec("mtbf", "seconds", lambda k: k.mtbf_seconds),
    TileSpec("mttr", "seconds", lambda k: k.mttr_seconds, False),
    TileSpec("errors", "count", lambda k: k.errors, False),
    TileSpec("meanCharge", "percent", lambda k: k.mean_charge),
)


def _fleet_kpis(collected: Collected, spans: list[BucketSpan], ids: list[int]) -> Kpis:
    measures = Measures()
    period_s = calendar_s = 0.0
    for item in spans:
        measures.add(collected.get((FLEET, item.bucket)))
        period_s += sum(collected.vehicle_seconds(item.bucket).get(v, 0.0) for v in ids)
        calendar_s += collected.calendar_seconds(item.bucket)
    return compute_kpis(measures, period_s=period_s, calendar_s=calendar_s)


def dashboard(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    use_rollups: bool = True,
) -> DashboardOut:
    current, previous = history_spans(scope)
    # The buckets partition T, so the period's totals are the sums of its buckets.
    collected = read_buckets(
        cursor,
        scope,
        [*current, *previous],
        by_vehicle=False,
        with_cycles=True,
        now=now,
        offline_after=offline_after,
        use_rollups=use_rollups,
    )
    ids = scope.vehicle_ids
    totals = _fleet_kpis(collected, current, ids)
    previous_totals = _fleet_kpis(collected, previous, ids)
    per_bucket = [(item, _fleet_kpis(collected, [item], ids)) for item in current]
    tiles = [
        DashboardTile.model_validate(
            {
                "key": spec.key,
                "unit": spec.unit,
                "value": spec.value(totals),
                "previous": spec.value(previous_totals),
                "higherIsBetter": spec.higher_is_better,
                "series": [
                    SparkPoint.model_validate({"from": item.span.first, "value": spec.value(k)})
                    for item, k in per_bucket
                ],
            }
        )
        for spec in TILES
    ]
    return DashboardOut(
        period=period_out(scope), granularity=granularity_for(scope.span.days), tiles=tiles
    )
