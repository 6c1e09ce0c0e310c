"""``GET /v2/Analytics/Battery`` (product.md section 3): lines (``series``), sessions, depth
of discharge and energy (``sessions``); equivalent full cycles = percentage points
discharged inside T / 100, from report to report; SoH latest and least-squares slope per
30 days; time below 20 % to the report (``scan``); charging share, time-weighted mean and
minimum charge from the rollups, as productivity."""

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Annotated, Any

import duckdb
import numpy as np
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.battery.scan import scan
from fleetscope.analytics.battery.series import (
    ChargeSeries,
    HealthSeries,
    SampleFigures,
    SlotGrid,
    battery_series,
    series_buckets,
)
from fleetscope.analytics.battery.sessions import SessionFigures, session_figures, session_sums
from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, select_periods
from fleetscope.analytics.core.kpis import kpi_columns
from fleetscope.analytics.core.measure_table import STATE_MEASURES
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import Window
from fleetscope.analytics.core.plan import Collected, period_out, period_spans, read_buckets
from fleetscope.appstore.schemas import CamelModel, camel_case
from fleetscope.facts.battery_hours import LOW_CHARGE

SECONDS_PER_30_DAYS = 30 * 86400
# What the charge KPIs use of the rollups (``kpi_columns``).
CHARGE_MEASURES = frozenset(
    {*STATE_MEASURES, "battery_samples", "battery_charge_sum", "battery_charge_min"}
)


@camel_case
class BatteryFigures(TypedDict):
    period_seconds: Annotated[float, Field(description="T in vehicle seconds")]
    no_data_seconds: Annotated[
        float, Field(description="part of T before a vehicle's first message")
    ]
    sessions: SessionFigures
    mean_charge: float | None
    min_charge: float | None
    below_low_seconds: Annotated[float, Field(description="time with the charge under 20 %")]
    charging_share: Annotated[float | None, Field(description="charging time / planned time")]
    health_latest: float | None
    health_slope_per_30_days: Annotated[float | None, Field(description="least squares over T")]


@camel_case
class BatteryEntry(TypedDict):
    vehicle_id: Annotated[int | None, Field(description="null: the selected vehicles together")]
    name: str | None
    battery_capacity_wh: float | None
    current: BatteryFigures
    previous: BatteryFigures


class BatteryOut(CamelModel):
    period: PeriodOut
    low_charge_threshold: float
    series: list[ChargeSeries] = Field(description="per vehicle, downsampled, period only")
    health_series: list[HealthSeries] = Field(
        description="state of health per vehicle over the period, in the slots of series, "
        "with its fitted trend line"
    )
    entries: list[BatteryEntry] = Field(description="per vehicle, or the combined entry")
    fleet: BatteryEntry


_KPIS = ("period_seconds", "no_data_seconds", "mean_charge", "min_charge", "charging_share")


def _charge_kpis(collected: Collected, vehicle_ids: list[int]) -> dict[Any, dict[str, Any]]:
    """The rollup KPIs of ``_KPIS`` per (vehicle, bucket) and of all the vehicles together
    (vehicle None), by the KPI glossary in one vectorised pass."""
    keys: list[Any] = [(v, bucket) for bucket in (CURRENT, PREVIOUS) for v in vehicle_ids]
    rows = [collected.measures.rows(keys)]
    rows += [
        collected.measures.total(keys[i : i + len(vehicle_ids)]) for i in (0, len(vehicle_ids))
    ]
    seconds = [collected.vehicle_seconds(bucket) for bucket in (CURRENT, PREVIOUS)]
    period_s = [seconds[bucket].get(v, 0.0) for v, bucket in keys]
    period_s += [collected.fleet_seconds(bucket) for bucket in (CURRENT, PREVIOUS)]
    columns = kpi_columns(np.vstack(rows), period_s=np.array(period_s, dtype=np.float64))
    values = [[None if x != x else x for x in columns[name].tolist()] for name in _KPIS]  # NaN
    keys += [(None, CURRENT), (None, PREVIOUS)]
    return {
        key: dict(zip(_KPIS, row, strict=True)) for key, *row in zip(keys, *values, strict=True)
    }


def _figures(
    items: list[SampleFigures], kpis: dict[str, Any], sessions: SessionFigures
) -> BatteryFigures:
    """One bucket's figures of its vehicles (one, or all selected; several: the mean of
    their latest SoH and of their slopes); not validated (built from typed columns)."""
    health = [item.health_latest for item in items if item.health_latest is not None]
    slopes = [i.health_line.slope_per_second for i in items if i.health_line is not None]
    return BatteryFigures(
        period_seconds=kpis["period_seconds"] or 0.0,
        no_data_seconds=kpis["no_data_seconds"] or 0.0,
        sessions=sessions,
        mean_charge=kpis["mean_charge"],
        min_charge=kpis["min_charge"],
        below_low_seconds=sum((item.below_low_seconds for item in items), 0.0),
        charging_share=kpis["charging_share"],
        health_latest=sum(health) / len(health) if health else None,
        health_slope_per_30_days=(
            sum(s * SECONDS_PER_30_DAYS for s in slopes) / len(slopes) if slopes else None
        ),
    )


def battery(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    capacities: Mapping[int, float | None],
) -> BatteryOut:
    selection = select_periods(scope, now=now)
    current = [w for part in selection.slices for w, bucket in part.windows if bucket == CURRENT]
    period = (
        Window(min(w.start for w in current), max(w.end for w in current))
        if current
        else Window(now, now)
    )
    grid = SlotGrid.over(period, slots=series_buckets(len(scope.vehicles)))
    samples, lines = scan(cursor, selection, grid=grid, offline_after=offline_after)
    series = battery_series(scope, samples, lines, grid=grid)
    sessions = session_sums(cursor, selection)
    collected = read_buckets(
        cursor,
        scope,
        period_spans(scope, current=CURRENT, previous=PREVIOUS),
        by_vehicle=True,
        with_cycles=False,
        now=now,
        offline_after=offline_after,
        only=CHARGE_MEASURES,
    )
    kpis = _charge_kpis(collected, scope.vehicle_ids)

    def entry(vehicle_ids: list[int], vehicle_id: int | None, name: str | None) -> BatteryEntry:
        own = {v: capacities.get(v) for v in vehicle_ids}
        known = [capacity for capacity in own.values() if capacity is not None]
        figures = []
        for bucket in (CURRENT, PREVIOUS):
            items = [samples[(v, bucket)] for v in vehicle_ids if (v, bucket) in samples]
            cycles = sum(item.discharged for item in items) / 100
            sessions_of = session_figures(sessions, bucket, capacities=own, cycles=cycles)
            figures.append(_figures(items, kpis[(vehicle_id, bucket)], sessions_of))
        return BatteryEntry(
            vehicle_id=vehicle_id,
            name=name,
            battery_capacity_wh=sum(known) if known else None,  # the fleet's: the known ones
            current=figures[CURRENT],
            previous=figures[PREVIOUS],
        )

    fleet = entry(scope.vehicle_ids, None, None)
    # Constructed: its parts were built from typed columns (validating them would cost ms).
    return BatteryOut.model_construct(
        period=period_out(scope, now=now),
        low_charge_threshold=LOW_CHARGE,
        series=series.charge,
        health_series=series.health,
        entries=[fleet]
        if scope.combined
        else [entry([v.id], v.id, v.name) for v in scope.vehicles],
        fleet=fleet,
    )
