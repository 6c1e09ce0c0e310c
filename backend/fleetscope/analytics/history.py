"""``GET /v2/Analytics/ProductivityHistory``: the KPIs as series over days, weeks or months.

The granularity follows the period length (daily up to 31 days, weekly up to 180, monthly
beyond); weeks are ISO weeks (Monday first) and months calendar months, cut to the period.
The previous period of equal length comes in its own buckets for a dashed comparison line.
"""

from datetime import datetime, timedelta
from typing import Any

import duckdb
import numpy as np

from fleetscope.analytics.collect import FLEET
from fleetscope.analytics.kpis import COUNT_KPIS, Column, kpi_columns
from fleetscope.analytics.models import (
    HistoryBucket,
    HistorySeries,
    KpiGrid,
    ProductivityHistoryOut,
)
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.periods import calendar_buckets, granularity_for
from fleetscope.analytics.plan import BucketSpan, Collected, period_out, read_buckets

PREVIOUS_OFFSET = 100_000  # bucket ids of the previous period start here
Target = tuple[int | None, str | None]  # (vehicle, or None: the selected ones combined; name)


def history_spans(scope: AnalyticsScope) -> tuple[list[BucketSpan], list[BucketSpan]]:
    """The buckets of the period and of the previous period."""
    granularity = granularity_for(scope.span.days)
    current = calendar_buckets(scope.span, granularity)
    previous = calendar_buckets(scope.span.previous(), granularity)
    return (
        [BucketSpan(index, span) for index, span in enumerate(current)],
        [BucketSpan(PREVIOUS_OFFSET + index, span) for index, span in enumerate(previous)],
    )


def _kpi_grid(
    collected: Collected, targets: list[Target], spans: list[BucketSpan]
) -> dict[str, Column]:
    """Every KPI of every (target, bucket), as columns of ``len(targets) x len(spans)``."""
    keys = [
        (FLEET if vehicle_id is None else vehicle_id, item.bucket)
        for vehicle_id, _ in targets
        for item in spans
    ]
    by_bucket = [collected.vehicle_seconds(item.bucket) for item in spans]
    period_s = np.array(
        [
            [collected.fleet_seconds(item.bucket) for item in spans]
            if vehicle_id is None
            else [seconds.get(vehicle_id, 0.0) for seconds in by_bucket]
            for vehicle_id, _ in targets
        ]
    ).ravel()
    combined = bool(targets) and targets[0][0] is None
    calendar_s = (
        np.array([collected.calendar_seconds(item.bucket) for item in spans] * len(targets))
        if combined
        else None
    )
    columns = kpi_columns(collected.measures.rows(keys), period_s=period_s, calendar_s=calendar_s)
    return {name: column.reshape(len(targets), len(spans)) for name, column in columns.items()}


def _grid_out(grid: dict[str, Column]) -> KpiGrid:
    """The fields of ``KpiGrid`` of ``grid`` as nested lists (NaN as null, counts as
    integers)."""
    lists: dict[str, Any] = {}
    for name in KpiGrid.model_fields:
        column = grid[name]
        if name in COUNT_KPIS:
            lists[name] = column.astype(np.int64).tolist()
        else:
            with_nulls = column.astype(object)
            with_nulls[np.isnan(column)] = None
            lists[name] = with_nulls.tolist()
    # Built from the glossary's own columns: validating thousands of values again costs time.
    return KpiGrid.model_construct(**lists)


def _buckets(spans: list[BucketSpan]) -> list[HistoryBucket]:
    return [HistoryBucket.model_validate({"from": s.span.first, "to": s.span.last}) for s in spans]


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
    targets: list[Target] = (
        [(None, None)] if scope.combined else [(v.id, v.name) for v in scope.vehicles]
    )
    series = [HistorySeries(vehicle_id=vehicle_id, name=name) for vehicle_id, name in targets]
    return ProductivityHistoryOut(
        period=period_out(scope),
        granularity=granularity_for(scope.span.days),
        buckets=_buckets(current),
        previous_buckets=_buckets(previous),
        series=series,
        kpis=_grid_out(_kpi_grid(collected, targets, current)),
        previous=_grid_out(_kpi_grid(collected, targets, previous)),
    )
