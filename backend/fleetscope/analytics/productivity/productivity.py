"""``GET /v2/Analytics/Productivity``: time per state and KPIs of the period and the previous
period, per vehicle or combined, and the finished orders by site-local weekday (of the shift's
start) and hour; the heatmap reads the hourly rollup where local hours are UTC hours, summed per
UTC hour first, and the orders for the rest (docs/analytics.md)."""

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
from pydantic import Field

from fleetscope.analytics.core.facts import CURRENT, PREVIOUS
from fleetscope.analytics.core.kpis import state_times_of_rows
from fleetscope.analytics.core.models import Kpis, PeriodOut, StateTimes
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import HOUR, HourRanges, Shift, Window, split_hour_ranges
from fleetscope.analytics.core.plan import Collected, period_out, period_spans, read_buckets
from fleetscope.analytics.core.rollups import HOURS_OF_RANGES, range_parameters
from fleetscope.appstore.schemas import CamelModel

# (ended, finished) rows of the whole hours ({join}: a shift's hours; T without a shift is a
# plain time filter) and of the partial pieces.
_HOURS = (
    "SELECT r.hour_utc AS ended, sum(r.orders_finished) AS finished FROM rollup_hourly r "
    "{join}WHERE r.hour_utc >= ? AND r.hour_utc < ? AND list_contains(?::INTEGER[], r.vehicle_id) "
    "GROUP BY r.hour_utc HAVING sum(r.orders_finished) > 0"
)
_PIECES = (
    "SELECT o.end_at AS ended, 1 AS finished FROM orders o "
    "JOIN (SELECT unnest(?::TIMESTAMPTZ[]) AS lo, unnest(?::TIMESTAMPTZ[]) AS hi) p "
    "ON o.end_at >= p.lo AND o.end_at < p.hi "
    "WHERE list_contains(?::INTEGER[], o.vehicle_id) AND o.outcome = 'finished' "
    "AND o.end_at >= ? AND o.end_at < ?"
)
# (ended, finished) rows -> (local weekday 0 = Monday, hour, finished), converting only hours with
# orders (``timezone()`` costs a few µs a row); before the start of a shift crossing midnight
# (NULL: none) a time is the previous day's shift.
_LOCAL = (
    "SELECT (isodow(local) + CASE WHEN local::TIME < ? THEN 5 ELSE 6 END) % 7, hour(local), "
    "sum(finished)::BIGINT "
    "FROM (SELECT timezone(?, ended) AS local, finished FROM ({})) GROUP BY ALL"
)


class ProductivityEntry(CamelModel):
    vehicle_id: int | None = Field(description="null: the selected vehicles combined")
    name: str | None
    states: StateTimes
    previous_states: StateTimes
    kpis: Kpis
    previous: Kpis


class ProductivityOut(CamelModel):
    period: PeriodOut
    entries: list[ProductivityEntry] = Field(
        description="one per vehicle, or one combined entry (vehicleId null) when combined"
    )
    fleet: ProductivityEntry = Field(description="the selected vehicles combined, always")
    heatmap: list[list[int]] = Field(
        description="finished orders in T by site-local weekday (0 = Monday; of the shift's "
        "start for a shift crossing midnight) and hour (0-23) they ended in"
    )


def empty_heatmap() -> list[list[int]]:
    return [[0] * 24 for _ in range(7)]


def _local_hours_are_utc_hours(zone: str, windows: list[Window]) -> bool:
    """Whether the zone's offset is whole hours throughout ``windows`` (checked once a day:
    offsets change at most twice a year), so that each hourly rollup row is one local hour."""
    local, instant, end = ZoneInfo(zone), windows[0].start, windows[-1].end
    while True:
        offset = instant.astimezone(local).utcoffset()
        if offset is None or offset % HOUR:
            return False
        if instant >= end:
            return True
        instant = min(instant + timedelta(days=1), end)


def add_order_heatmap(
    cursor: duckdb.DuckDBPyConnection,
    heatmap: list[list[int]],
    *,
    vehicle_ids: list[int],
    windows: list[Window],
    zone: str,
    shift: Shift | None,
    tail_until: datetime | None,
    use_rollups: bool = True,
) -> None:
    """Adds the finished orders of ``vehicle_ids`` in ``windows`` (one site, in ``zone``,
    of ``shift``) to ``heatmap``. ``tail_until``: see ``split_hour_ranges``."""
    if not vehicle_ids or not windows:
        return
    split = HourRanges(ranges=[], pieces=windows)
    if use_rollups and _local_hours_are_utc_hours(zone, windows):
        split = split_hour_ranges(windows, tail_until=tail_until)
    sources: list[str] = []
    crossing_start = shift.start if shift is not None and shift.end <= shift.start else None
    params: list[Any] = [crossing_start, zone]
    if ranges := split.ranges:
        join, hours = "", []
        if len(ranges) > 1:
            join = f"JOIN {HOURS_OF_RANGES} sel ON r.hour_utc = sel.hour_utc "
            hours = range_parameters([(window, 0) for window in ranges])
        sources.append(_HOURS.format(join=join))
        params += [*hours, ranges[0].start, ranges[-1].end, vehicle_ids]
    if pieces := split.pieces:
        sources.append(_PIECES)
        starts, ends = [piece.start for piece in pieces], [piece.end for piece in pieces]
        params += [starts, ends, vehicle_ids, min(starts), max(ends)]
    sql = _LOCAL.format(" UNION ALL ".join(sources))
    for weekday, hour, finished in cursor.execute(sql, params).fetchall():
        heatmap[weekday][hour] += finished


def _figures(collected: Collected, bucket: int, ids: list[int]) -> list[tuple[StateTimes, Kpis]]:
    rows, kpis = collected.figures(bucket, ids)  # each vehicle's (by_vehicle only), the fleet's
    return list(zip(state_times_of_rows(rows), kpis, strict=True))


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
        now=now,
        offline_after=offline_after,
        use_rollups=use_rollups,
    )
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
            _figures(collected, CURRENT, scope.vehicle_ids),
            _figures(collected, PREVIOUS, scope.vehicle_ids),
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
            shift=site.group.shift,
            tail_until=collected.tail_until,
            use_rollups=use_rollups,
        )
    return ProductivityOut(
        period=period_out(scope, now=now),
        entries=entries[-1:] if scope.combined else entries[:-1],
        fleet=entries[-1],
        heatmap=heatmap,
    )
