"""``GET /v2/Analytics/Productivity``: time per state and KPIs for the period and the
previous period of equal length, per vehicle or combined, plus the order heatmap."""

from datetime import datetime, timedelta

import duckdb

from fleetscope.analytics.heatmap import add_order_heatmap, empty_heatmap
from fleetscope.analytics.kpis import compute_kpis, state_times
from fleetscope.analytics.measures import Measures, total
from fleetscope.analytics.models import ProductivityEntry, ProductivityOut
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.plan import BucketSpan, Collected, period_out, read_buckets

CURRENT = 0
PREVIOUS = 1


def _entry(
    collected: Collected,
    *,
    current: Measures,
    previous: Measures,
    vehicle_ids: list[int],
    vehicle_id: int | None,
    name: str | None,
) -> ProductivityEntry:
    now_s = collected.vehicle_seconds(CURRENT)
    before_s = collected.vehicle_seconds(PREVIOUS)
    fleet = vehicle_id is None
    return ProductivityEntry(
        vehicle_id=vehicle_id,
        name=name,
        states=state_times(current),
        previous_states=state_times(previous),
        kpis=compute_kpis(
            current,
            period_s=sum(now_s.get(v, 0.0) for v in vehicle_ids),
            calendar_s=collected.calendar_seconds(CURRENT) if fleet else None,
        ),
        previous=compute_kpis(
            previous,
            period_s=sum(before_s.get(v, 0.0) for v in vehicle_ids),
            calendar_s=collected.calendar_seconds(PREVIOUS) if fleet else None,
        ),
    )


def productivity(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    use_rollups: bool = True,
) -> ProductivityOut:
    spans = [BucketSpan(CURRENT, scope.span), BucketSpan(PREVIOUS, scope.span.previous())]
    collected = read_buckets(
        cursor,
        scope,
        spans,
        by_vehicle=True,
        with_cycles=False,  # cycle-time percentiles: Dashboard and the processes pages
        now=now,
        offline_after=offline_after,
        use_rollups=use_rollups,
    )
    ids = scope.vehicle_ids
    current = {v: collected.get((v, CURRENT)) for v in ids}
    previous = {v: collected.get((v, PREVIOUS)) for v in ids}
    fleet = _entry(
        collected,
        current=total(list(current.values())),
        previous=total(list(previous.values())),
        vehicle_ids=ids,
        vehicle_id=None,
        name=None,
    )
    if scope.combined:
        entries = [fleet]
    else:
        entries = [
            _entry(
                collected,
                current=current[vehicle.id],
                previous=previous[vehicle.id],
                vehicle_ids=[vehicle.id],
                vehicle_id=vehicle.id,
                name=vehicle.name,
            )
            for vehicle in scope.vehicles
        ]
    heatmap = empty_heatmap()
    for site in collected.sites:
        add_order_heatmap(
            cursor,
            heatmap,
            vehicle_ids=site.group.vehicle_ids,
            windows=site.windows.get(CURRENT, []),
            zone=str(site.group.zone),
            tail_until=collected.tail_until,
            use_rollups=use_rollups,
        )
    return ProductivityOut(period=period_out(scope), entries=entries, fleet=fleet, heatmap=heatmap)
