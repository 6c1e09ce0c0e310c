"""``GET /v2/Analytics/ProductivityHistory``: the KPIs per day, week or month of the period and,
in the same buckets moved back by its length, of the previous period; future buckets left out
(docs/analytics.md)."""

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Literal

import duckdb
import numpy as np
from pydantic import Field

from fleetscope.analytics.core.collect import FLEET
from fleetscope.analytics.core.comparison import site_clips, span_timing
from fleetscope.analytics.core.kpis import COUNT_KPIS, kpi_columns
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import DaySpan, calendar_buckets, granularity_for
from fleetscope.analytics.core.plan import BucketSpan, Collected, period_out, read_buckets
from fleetscope.appstore.schemas import CamelModel


class HistoryBucket(CamelModel):
    """Buckets lying wholly in the future are not returned."""

    from_: date = Field(alias="from")
    to: date
    partial: bool = Field(
        default=False, description="still running (the previous period's: cut at its clip)"
    )


Values = list[list[float | None]]  # one list per series, aligned with the buckets
Counts = list[list[int | None]]
Seconds = list[list[float]]
# What a bucket without any data still says: how long it is, and that all of it is no data.
_ALWAYS_KNOWN = frozenset({"period_seconds", "no_data_seconds"})


class KpiGrid(CamelModel):
    """The productivity KPIs of ``Kpis`` per series and bucket: ``grid.availability[s][b]`` is
    series ``s`` in bucket ``b`` (null: no data). Reliability, cycle time and charge have
    their own pages and the dashboard's sparklines; a test keeps these fields a subset of
    ``Kpis`` with the same meaning."""

    period_seconds: Seconds
    no_data_seconds: Seconds
    planned_seconds: Values
    downtime_seconds: Values
    availability: Values
    utilization: Values
    idle_share: Values
    charging_share: Values
    throughput_per_hour: Values
    orders_finished: Counts
    orders_failed: Counts
    orders_cancelled: Counts
    loads_handled: Counts
    distance_km: Values


class HistorySeries(CamelModel):
    vehicle_id: int | None
    name: str | None


class ProductivityHistoryOut(CamelModel):
    period: PeriodOut
    granularity: Literal["day", "week", "month"]
    buckets: list[HistoryBucket]
    previous_buckets: list[HistoryBucket] = Field(
        description="the previous period in the buckets of T moved back by T's length: "
        "point i covers as many days as T's point i"
    )
    series: list[HistorySeries] = Field(
        description="one per vehicle, or one combined series (vehicleId null) when combined"
    )
    kpis: KpiGrid = Field(description="each KPI per series (in series order) and bucket")
    previous: KpiGrid = Field(description="the same for the previous period's buckets")


PREVIOUS_OFFSET = 100_000  # bucket ids of the previous period start here


@dataclass(frozen=True, slots=True)
class HistorySpans:
    current: list[BucketSpan]
    previous: list[BucketSpan]
    partial: frozenset[int]  # bucket ids


def history_spans(scope: AnalyticsScope, *, now: datetime) -> HistorySpans:
    """The drawn buckets of the period and of the previous period (module doc)."""
    current = calendar_buckets(scope.span, granularity_for(scope.span.days))
    drawn: tuple[list[BucketSpan], list[BucketSpan]] = ([], [])
    partial: set[int] = set()
    for side, buckets, previous_of in (
        (0, current, None),
        (1, _moved_back(scope, current), scope.span),
    ):
        clips = site_clips(scope, now=now, previous=previous_of is not None)
        for bucket, bucket_span in enumerate(buckets, start=side * PREVIOUS_OFFSET):
            timing = span_timing(bucket_span, sites=clips)
            if timing.future:
                break  # the buckets are in order: the rest lie later still
            if timing.partial:
                partial.add(bucket)
            drawn[side].append(BucketSpan(bucket, bucket_span, previous_of=previous_of))
    return HistorySpans(*drawn, partial=frozenset(partial))


def _moved_back(scope: AnalyticsScope, buckets: list[DaySpan]) -> list[DaySpan]:
    """The previous period's buckets, like for like: each of T's moved back by T's length, so
    that the dashed line's point ``i`` covers as many days as point ``i`` (calendar buckets of
    its own would set four days against one, or a leap year's January against one day). A
    rolling period's previous one is its own clipped days."""
    if scope.span.clip is not None:
        return calendar_buckets(scope.span.previous(), granularity_for(scope.span.days))
    back = timedelta(days=scope.span.days)
    return [DaySpan(bucket.first - back, bucket.last - back) for bucket in buckets]


def kpi_lists(collected: Collected, ids: list[int], spans: list[BucketSpan]) -> dict[str, Any]:
    """Each KPI by ``Kpis`` field name as ``len(ids) x len(spans)`` lists (None: no data). A bucket
    without state time (before the first message, an empty T) is no data, counts too: a gap."""
    by_bucket = [collected.vehicle_seconds(item.bucket) for item in spans]
    period_s = [
        collected.fleet_seconds(item.bucket) if v == FLEET else seconds.get(v, 0.0)
        for v in ids
        for item, seconds in zip(spans, by_bucket, strict=True)
    ]
    calendar_s = None
    if ids == [FLEET]:  # combined: throughput per calendar hour
        calendar_s = np.array([collected.calendar_seconds(item.bucket) for item in spans])
    columns = kpi_columns(
        collected.measures.rows([(v, item.bucket) for v in ids for item in spans]),
        period_s=np.array(period_s),
        calendar_s=calendar_s,
    )
    empty = (columns["no_data_seconds"] >= columns["period_seconds"]).reshape(len(ids), len(spans))
    lists: dict[str, Any] = {}
    for name, column in columns.items():
        grid = column.reshape(len(ids), len(spans))
        values = (grid.astype(np.int64) if name in COUNT_KPIS else grid).astype(object)
        values[np.isnan(grid)] = None  # no data
        if name not in _ALWAYS_KNOWN:
            values[empty] = None
        lists[name] = values.tolist()
    return lists


def productivity_history(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    use_rollups: bool = True,
) -> ProductivityHistoryOut:
    spans = history_spans(scope, now=now)
    collected = read_buckets(
        cursor,
        scope,
        [*spans.current, *spans.previous],
        by_vehicle=not scope.combined,
        now=now,
        offline_after=offline_after,
        use_rollups=use_rollups,
    )
    ids = [FLEET] if scope.combined else scope.vehicle_ids
    series = [(None, None)] if scope.combined else [(v.id, v.name) for v in scope.vehicles]

    def buckets(drawn: list[BucketSpan]) -> list[HistoryBucket]:
        return [
            HistoryBucket(from_=s.span.first, to=s.span.last, partial=s.bucket in spans.partial)
            for s in drawn
        ]

    def grid(drawn: list[BucketSpan]) -> KpiGrid:
        lists = kpi_lists(collected, ids, drawn)
        # Built from the glossary's own columns: validating thousands of values again costs time.
        return KpiGrid.model_construct(**{name: lists[name] for name in KpiGrid.model_fields})

    return ProductivityHistoryOut(
        period=period_out(scope, now=now),
        granularity=granularity_for(scope.span.days),
        buckets=buckets(spans.current),
        previous_buckets=buckets(spans.previous),
        series=[HistorySeries(vehicle_id=v, name=name) for v, name in series],
        kpis=grid(spans.current),
        previous=grid(spans.previous),
    )
