"""``GET /v2/Analytics/Dashboard``: the KPI tiles with their previous-period values and a
small series each (the history's buckets: days, weeks or months) for the sparklines. The
previous values are like for like, and the series leaves out the buckets lying in the future
(``comparison``). The cycle-time median is the Processes page's
(``cycle_medians``), in the period, the previous period and each bucket."""

from datetime import datetime, timedelta

import duckdb
import numpy as np

from fleetscope.analytics.core.collect import FLEET
from fleetscope.analytics.core.kpis import kpis_of_rows
from fleetscope.analytics.core.models import Kpis
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.percentiles import exact_for
from fleetscope.analytics.core.periods import granularity_for
from fleetscope.analytics.core.plan import BucketSpan, Collected, period_out, read_buckets
from fleetscope.analytics.processes.orders import cycle_medians
from fleetscope.analytics.productivity.history import history_spans
from fleetscope.analytics.productivity.models import (
    DashboardOut,
    DashboardTile,
    SparkPoint,
    TileKey,
)

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


def _fleet_kpis(collected: Collected, spans: list[BucketSpan]) -> list[Kpis]:
    """The fleet's KPIs in each of ``spans``, and (last) over all of them together."""
    keys = [(FLEET, item.bucket) for item in spans]
    table = collected.measures
    rows = np.vstack([table.rows(keys), table.total(keys)])
    period_s = [collected.fleet_seconds(item.bucket) for item in spans]
    calendar_s = [collected.calendar_seconds(item.bucket) for item in spans]
    return kpis_of_rows(
        rows,
        period_s=np.array([*period_s, sum(period_s)]),
        calendar_s=np.array([*calendar_s, sum(calendar_s)]),
    )


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
    # The buckets partition T, so the period's totals are the sums of its buckets.
    collected = read_buckets(
        cursor,
        scope,
        [*current, *previous],
        by_vehicle=False,
        now=now,
        offline_after=offline_after,
        use_rollups=use_rollups,
    )
    *buckets, totals = _fleet_kpis(collected, current)
    previous_totals = _fleet_kpis(collected, previous)[-1]
    exact = exact_for(scope.span)
    medians, (median, previous_median) = cycle_medians(
        cursor,
        collected,
        periods=[[item.bucket for item in side] for side in (current, previous)],
        exact=exact,
    )
    for kpis, value in zip(
        (*buckets, totals, previous_totals),
        (*medians[: len(current)], median, previous_median),
        strict=True,
    ):
        kpis.cycle_time_p50_seconds = value
    per_bucket = list(zip(current, buckets, strict=True))
    tiles = [
        DashboardTile.model_validate(
            {
                "key": key,
                "unit": unit,
                "value": getattr(totals, field),
                "previous": getattr(previous_totals, field),
                "higherIsBetter": higher_is_better,
                "exact": exact or key != "cycleTimeP50",
                "series": [
                    SparkPoint.model_validate(
                        {
                            "from": item.span.first,
                            "value": getattr(kpis, field),
                            "partial": item.bucket in spans.partial,
                        }
                    )
                    for item, kpis in per_bucket
                ],
            }
        )
        for key, unit, field, higher_is_better in TILES
    ]
    return DashboardOut(
        period=period_out(scope, now=now), granularity=granularity_for(scope.span.days), tiles=tiles
    )
