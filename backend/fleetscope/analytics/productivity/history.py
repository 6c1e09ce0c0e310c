"""``GET /v2/Analytics/ProductivityHistory``: the KPIs as series over days, weeks or months.

The granularity follows the period length (daily up to 31 days, weekly up to 180, monthly
beyond); weeks are ISO weeks (Monday first) and months calendar months, cut to the period.
The previous period of equal length comes in its own buckets for a dashed comparison line,
clipped like for like. Buckets lying wholly in the future are left out, running ones are
marked partial (``comparison``).
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from math import isnan
from typing import Any

import duckdb
import numpy as np

from fleetscope.analytics.core.collect import FLEET
from fleetscope.analytics.core.comparison import site_clips, span_timing
from fleetscope.analytics.core.kpis import COUNT_KPIS, kpi_columns
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import DaySpan, calendar_buckets, granularity_for
from fleetscope.analytics.core.plan import BucketSpan, Collected, period_out, read_buckets
from fleetscope.analytics.productivity.models import (
    HistoryBucket,
    HistorySeries,
    KpiGrid,
    ProductivityHistoryOut,
)

PREVIOUS_OFFSET = 100_000  # bucket ids of the previous period start here


@dataclass(frozen=True, slots=True)
class HistorySpans:
    """The drawn buckets of the period and of the previous period, and which are partial."""

    current: list[BucketSpan]
    previous: list[BucketSpan]
    partial: frozenset[int]  # bucket ids


def history_spans(scope: AnalyticsScope, *, now: datetime) -> HistorySpans:
    """The buckets of the period and of the previous period without those lying wholly
    after now (the previous period's: after its like-for-like clip; ``comparison``)."""
    granularity = granularity_for(scope.span.days)
    partial: set[int] = set()

    def drawn(spans: list[DaySpan], *, offset: int, previous: bool) -> list[BucketSpan]:
        clips = site_clips(scope, now=now, previous=previous)
        result = []
        for index, span in enumerate(spans):
            timing = span_timing(span, sites=clips)
            if timing.future:
                break  # the buckets are in order: the rest lie later still
            if timing.partial:
                partial.add(offset + index)
            result.append(
                BucketSpan(offset + index, span, previous_of=scope.span if previous else None)
            )
        return result

    return HistorySpans(
        current=drawn(calendar_buckets(scope.span, granularity), offset=0, previous=False),
        previous=drawn(
            calendar_buckets(scope.span.previous(), granularity),
            offset=PREVIOUS_OFFSET,
            previous=True,
        ),
        partial=frozenset(partial),
    )


def _kpi_grid(collected: Collected, ids: list[int], spans: list[BucketSpan]) -> KpiGrid:
    """Every KPI of every (vehicle or ``FLEET``, bucket) as ``len(ids) x len(spans)`` lists
    (NaN as null, counts as integers)."""
    by_bucket = [collected.vehicle_seconds(item.bucket) for item in spans]
    period_s = [
        collected.fleet_seconds(item.bucket)
        if vehicle_id == FLEET
        else seconds.get(vehicle_id, 0.0)
        for vehicle_id in ids
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
    lists: dict[str, Any] = {}
    for name in KpiGrid.model_fields:
        column = columns[name].reshape(len(ids), len(spans))
        if name in COUNT_KPIS:
            lists[name] = column.astype(np.int64).tolist()
        else:
            lists[name] = [[None if isnan(x) else x for x in row] for row in column.tolist()]
    # Built from the glossary's own columns: validating thousands of values again costs time.
    return KpiGrid.model_construct(**lists)


def _buckets(spans: list[BucketSpan], partial: frozenset[int]) -> list[HistoryBucket]:
    return [
        HistoryBucket.model_validate(
            {"from": s.span.first, "to": s.span.last, "partial": s.bucket in partial}
        )
        for s in spans
    ]


def productivity_history(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    use_rollups: bool = True,
) -> ProductivityHistoryOut:
    spans = history_spans(scope, now=now)
    current, previous = spans.current, spans.previous
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
    ids = [FLEET] if scope.combined else scope.vehicle_ids
    targets = [(None, None)] if scope.combined else [(v.id, v.name) for v in scope.vehicles]
    return ProductivityHistoryOut(
        period=period_out(scope, now=now),
        granularity=granularity_for(scope.span.days),
        buckets=_buckets(current, spans.partial),
        previous_buckets=_buckets(previous, spans.partial),
        series=[HistorySeries(vehicle_id=v, name=name) for v, name in targets],
        kpis=_kpi_grid(collected, ids, current),
        previous=_kpi_grid(collected, ids, previous),
    )
