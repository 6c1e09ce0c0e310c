"""``GET /v2/Analytics/ProductivityHistory``: the KPIs as series over days, weeks or months.

The granularity follows the period length (daily up to 31 days, weekly up to 180, monthly
beyond); weeks are ISO weeks (Monday first) and months calendar months, cut to the period.
The previous period of equal length comes in its own buckets for a dashed comparison line.
"""

from datetime import datetime, timedelta

import duckdb

from fleetscope.analytics.collect import FLEET
from fleetscope.analytics.kpis import compute_kpis, state_times
from fleetscope.analytics.models import HistoryPoint, HistorySeries, ProductivityHistoryOut
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.periods import calendar_buckets, granularity_for
from fleetscope.analytics.plan import BucketSpan, Collected, period_out, read_buckets

PREVIOUS_OFFSET = 100_000  # bucket ids of the previous period start here


def history_spans(scope: AnalyticsScope) -> tuple[list[BucketSpan], list[BucketSpan]]:
    """The buckets of the period and of the previous period."""
    granularity = granularity_for(scope.span.days)
    current = calendar_buckets(scope.span, granularity)
    previous = calendar_buckets(scope.span.previous(), granularity)
    return (
        [BucketSpan(index, span) for index, span in enumerate(current)],
        [BucketSpan(PREVIOUS_OFFSET + index, span) for index, span in enumerate(previous)],
    )


def history_points(
    collected: Collected, spans: list[BucketSpan], *, vehicle_id: int | None, vehicle_ids: list[int]
) -> list[HistoryPoint]:
    key_vehicle = FLEET if vehicle_id is None else vehicle_id
    points = []
    for item in spans:
        measures = collected.get((key_vehicle, item.bucket))
        seconds = collected.vehicle_seconds(item.bucket)
        kpis = compute_kpis(
            measures,
            period_s=sum(seconds.get(v, 0.0) for v in vehicle_ids),
            calendar_s=collected.calendar_seconds(item.bucket) if vehicle_id is None else None,
        )
        points.append(
            HistoryPoint.model_validate(
                {
                    "from": item.span.first,
                    "to": item.span.last,
                    "states": state_times(measures),
                    "kpis": kpis,
                }
            )
        )
    return points


def productivity_history(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    use_rollups: bool = True,
) -> ProductivityHistoryOut:
    current, previous = history_spans(scope)
    collected = read_buckets(
        cursor,
        scope,
        [*current, *previous],
        by_vehicle=not scope.combined,
        with_cycles=False,  # cycle-time percentiles: Dashboard and the processes pages
        now=now,
        offline_after=offline_after,
        use_rollups=use_rollups,
    )
    targets: list[tuple[int | None, str | None, list[int]]]
    if scope.combined:
        targets = [(None, None, scope.vehicle_ids)]
    else:
        targets = [(v.id, v.name, [v.id]) for v in scope.vehicles]
    series = [
        HistorySeries(
            vehicle_id=vehicle_id,
            name=name,
            points=history_points(collected, current, vehicle_id=vehicle_id, vehicle_ids=ids),
            previous_points=history_points(
                collected, previous, vehicle_id=vehicle_id, vehicle_ids=ids
            ),
        )
        for vehicle_id, name, ids in targets
    ]
    return ProductivityHistoryOut(
        period=period_out(scope),
        granularity=granularity_for(scope.span.days),
        series=series,
    )
