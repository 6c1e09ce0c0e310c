"""``GET /v2/Analytics/Productivity``: time per state and KPIs for the period and the
previous period of equal length, per vehicle or combined, plus the order heatmap."""

from datetime import datetime, timedelta

import duckdb
import numpy as np

from fleetscope.analytics.core.facts import CURRENT, PREVIOUS
from fleetscope.analytics.core.kpis import kpis_of_rows, state_times_of_rows
from fleetscope.analytics.core.models import Kpis, StateTimes
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import Collected, period_out, period_spans, read_buckets
from fleetscope.analytics.productivity.heatmap import add_order_heatmap, empty_heatmap
from fleetscope.analytics.productivity.models import ProductivityEntry, ProductivityOut


def _figures(collected: Collected, bucket: int, ids: list[int]) -> list[tuple[StateTimes, Kpis]]:
    """States and KPIs of every vehicle (not when the measures were read for the fleet
    only) and, last, of all of them together."""
    per_vehicle_s = collected.vehicle_seconds(bucket)
    seconds = [per_vehicle_s.get(v, 0.0) for v in ids]
    vehicles: list[Kpis] = []
    rows = collected.together(bucket, ids)
    if collected.by_vehicle:
        rows = np.vstack([collected.measures.rows([(v, bucket) for v in ids]), rows])
        vehicles = kpis_of_rows(rows[:-1], period_s=np.array(seconds))
    fleet = kpis_of_rows(
        rows[-1:],
        period_s=np.array([sum(seconds)]),
        calendar_s=np.array([collected.calendar_seconds(bucket)]),
    )
    return list(zip(state_times_of_rows(rows), [*vehicles, *fleet], strict=True))


def productivity(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    use_rollups: bool = True,
) -> ProductivityOut:
    collected = read_buckets(
        cursor,
        scope,
        period_spans(scope, current=CURRENT, previous=PREVIOUS),
        by_vehicle=not scope.combined,  # combined: the fleet's sums (a site's rollups)
        with_cycles=False,  # cycle-time percentiles: Dashboard and the processes pages
        now=now,
        offline_after=offline_after,
        use_rollups=use_rollups,
    )
    ids = scope.vehicle_ids
    targets = [] if scope.combined else [(v.id, v.name) for v in scope.vehicles]
    entries = [
        ProductivityEntry(
            vehicle_id=vehicle_id,
            name=name,
            states=states,
            previous_states=previous_states,
            kpis=kpis,
            previous=previous,
        )
        for (vehicle_id, name), (states, kpis), (previous_states, previous) in zip(
            [*targets, (None, None)],  # the fleet last
            _figures(collected, CURRENT, ids),
            _figures(collected, PREVIOUS, ids),
            strict=True,
        )
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
            site_id=site.group.site_id,
            use_rollups=use_rollups,
        )
    return ProductivityOut(
        period=period_out(scope, now=now),
        entries=entries[-1:] if scope.combined else entries[:-1],
        fleet=entries[-1],
        heatmap=heatmap,
    )
