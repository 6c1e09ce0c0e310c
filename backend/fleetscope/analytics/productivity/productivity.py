"""``GET /v2/Analytics/Productivity``: time per state and KPIs for the period and the
previous period of equal length, per vehicle or combined, plus the order heatmap."""

from datetime import datetime, timedelta

import duckdb
import numpy as np

from fleetscope.analytics.core.kpis import kpis_of_rows, state_times_of_rows
from fleetscope.analytics.core.measure_table import Matrix
from fleetscope.analytics.core.models import Kpis, StateTimes
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import Collected, period_out, period_spans, read_buckets
from fleetscope.analytics.productivity.heatmap import add_order_heatmap, empty_heatmap
from fleetscope.analytics.productivity.models import ProductivityEntry, ProductivityOut

CURRENT = 0
PREVIOUS = 1


def _figures(collected: Collected, *, bucket: int, ids: list[int]) -> tuple[Matrix, list[Kpis]]:
    """States (as rows) and KPIs of every vehicle (not when the measures were read for the
    fleet only) and, last, of all of them together."""
    per_vehicle_s = collected.vehicle_seconds(bucket)
    seconds = [per_vehicle_s.get(v, 0.0) for v in ids]
    vehicles: list[Kpis] = []
    rows = collected.together(bucket, ids)
    if collected.by_vehicle:
        rows = np.vstack([collected.measures.rows([(v, bucket) for v in ids]), rows])
        vehicles = kpis_of_rows(rows[:-1], period_s=np.array(seconds))
    (fleet,) = kpis_of_rows(
        rows[-1:],
        period_s=np.array([sum(seconds)]),
        calendar_s=np.array([collected.calendar_seconds(bucket)]),
    )
    return rows, [*vehicles, fleet]


def productivity(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    use_rollups: bool = True,
) -> ProductivityOut:
    spans = period_spans(scope, current=CURRENT, previous=PREVIOUS)
    collected = read_buckets(
        cursor,
        scope,
        spans,
        by_vehicle=not scope.combined,  # combined: the fleet's sums (a site's rollups)
        with_cycles=False,  # cycle-time percentiles: Dashboard and the processes pages
        now=now,
        offline_after=offline_after,
        use_rollups=use_rollups,
    )
    ids = scope.vehicle_ids
    now_rows, now_kpis = _figures(collected, bucket=CURRENT, ids=ids)
    before_rows, before_kpis = _figures(collected, bucket=PREVIOUS, ids=ids)
    now_states: list[StateTimes] = state_times_of_rows(now_rows)
    before_states: list[StateTimes] = state_times_of_rows(before_rows)

    def entry(index: int, vehicle_id: int | None, name: str | None) -> ProductivityEntry:
        return ProductivityEntry(
            vehicle_id=vehicle_id,
            name=name,
            states=now_states[index],
            previous_states=before_states[index],
            kpis=now_kpis[index],
            previous=before_kpis[index],
        )

    fleet = entry(len(now_kpis) - 1, None, None)
    if scope.combined:
        entries = [fleet]
    else:
        position = {vehicle_id: index for index, vehicle_id in enumerate(ids)}
        entries = [entry(position[v.id], v.id, v.name) for v in scope.vehicles]
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
        period=period_out(scope, now=now), entries=entries, fleet=fleet, heatmap=heatmap
    )
