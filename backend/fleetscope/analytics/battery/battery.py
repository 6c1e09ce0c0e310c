"""``GET /v2/Analytics/Battery``: charge over time, charge sessions, depth of discharge,
equivalent full cycles, health trend, time below 20 %, charging share, energy.

Definitions (product.md section 3; samples and sessions as the derivation records them):
- charge and health (SoH) over time per vehicle, downsampled: ``battery_series``;
- charge sessions starting in T, depth of discharge and energy: ``battery_sessions``;
- equivalent full cycles: the percentage points discharged inside T / 100, summed from
  report to report (the samples' ``discharged``: charging alone makes 0);
- health (SoH): the latest sample in T and the least-squares slope over T, per 30 days
  (the fitted line is also the health series' trend);
- time below 20 %: from each sample under 20 % in T to the vehicle's next sample (in T or
  not), each step capped at ``offline_after`` (longer silence is no data, not time at low
  charge); every report crossing 20 % is a sample, so the steps end to the report;
- charging share, mean (time-weighted) and minimum charge: as productivity.
"""

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Annotated, Any, NamedTuple

import duckdb
import numpy as np
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.battery.scan import scan
from fleetscope.analytics.battery.series import (
    ChargeSeries,
    HealthSeries,
    battery_series,
    series_buckets,
)
from fleetscope.analytics.battery.sessions import (
    SessionFigures,
    fleet_session_figures,
    session_totals,
    vehicle_session_figures,
)
from fleetscope.analytics.battery.slots import SampleFigures, SlotGrid
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
# What the charge KPIs use of the rollups (``kpi_columns``): the time in each state (the
# charging share of the planned time), and the samples' count, sum and minimum.
CHARGE_MEASURES = frozenset(
    {
        *STATE_MEASURES,
        "battery_samples",
        "battery_charge_sum",
        "battery_charge_min",
    }
)


@camel_case
class BatteryFigures(TypedDict):
    # As productivity's KPIs say it: T, and the part of it without data from the vehicles
    # (all of T: nothing was received in the period, so every figure below is empty).
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


class ChargeKpis(NamedTuple):
    period_seconds: float
    no_data_seconds: float
    mean_charge: float | None
    min_charge: float | None
    charging_share: float | None


def _charge_kpis(collected: Collected, vehicle_ids: list[int]) -> dict[Any, ChargeKpis]:
    """T, its part without data, mean charge, minimum charge and charging share per
    (vehicle, bucket) and of all the vehicles together (vehicle None), by the KPI glossary
    in one vectorised pass."""
    table = collected.measures
    buckets = (CURRENT, PREVIOUS)
    keys: list[Any] = [(v, bucket) for bucket in buckets for v in vehicle_ids]
    rows = np.vstack(
        [
            table.rows(keys),
            *(table.total([(v, bucket) for v in vehicle_ids]) for bucket in buckets),
        ]
    )
    seconds = [collected.vehicle_seconds(bucket) for bucket in buckets]
    period_s = [seconds[bucket].get(v, 0.0) for bucket in buckets for v in vehicle_ids]
    period_s += [collected.fleet_seconds(bucket) for bucket in buckets]
    columns = kpi_columns(rows, period_s=np.array(period_s, dtype=np.float64))

    def values(name: str) -> list[float | None]:
        return [None if value != value else value for value in columns[name].tolist()]  # NaN

    keys += [(None, CURRENT), (None, PREVIOUS)]
    names = ("period_seconds", "no_data_seconds", "mean_charge", "min_charge", "charging_share")
    return dict(
        zip(
            keys,
            (ChargeKpis(*row) for row in zip(*(values(name) for name in names), strict=True)),
            strict=True,
        )
    )


def _figures(
    items: list[SampleFigures], kpis: ChargeKpis, sessions: SessionFigures
) -> BatteryFigures:
    """The figures of one bucket from the samples of its vehicles (one, or all selected):
    Python numbers from typed columns, not validated (500 validated models were 2-3 ms of
    an answer)."""
    health = [item.health_latest for item in items if item.health_latest is not None]
    sessions = sessions.copy()
    sessions["equivalent_full_cycles"] = sum((item.discharged for item in items), 0.0) / 100
    slopes = [
        item.health_line.slope_per_second * SECONDS_PER_30_DAYS
        for item in items
        if item.health_line is not None
    ]
    return BatteryFigures(
        period_seconds=kpis.period_seconds or 0.0,
        no_data_seconds=kpis.no_data_seconds or 0.0,
        sessions=sessions,
        mean_charge=kpis.mean_charge,
        min_charge=kpis.min_charge,
        below_low_seconds=sum((item.below_low_seconds for item in items), 0.0),
        charging_share=kpis.charging_share,
        # Several vehicles: the mean of their latest values and of their slopes.
        health_latest=sum(health) / len(health) if health else None,
        health_slope_per_30_days=sum(slopes) / len(slopes) if slopes else None,
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
    grid = SlotGrid.over(
        Window(min(w.start for w in current), max(w.end for w in current))
        if current
        else Window(now, now),
        slots=series_buckets(len(scope.vehicles)),
    )
    samples, lines = scan(cursor, selection, grid=grid, offline_after=offline_after)
    series = battery_series(scope, samples, lines, grid=grid)
    sessions = session_totals(cursor, selection, vehicle_ids=scope.vehicle_ids)
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
    charge_kpis = _charge_kpis(collected, scope.vehicle_ids)
    capacity_list = [capacities.get(v) for v in scope.vehicle_ids]

    def entry(
        vehicle_ids: list[int],
        vehicle_id: int | None,
        name: str | None,
        *,
        current: SessionFigures,
        previous: SessionFigures,
    ) -> BatteryEntry:
        known = [c for c in (capacities.get(v) for v in vehicle_ids) if c is not None]
        return BatteryEntry(
            vehicle_id=vehicle_id,
            name=name,
            # The fleet's capacity: the sum of the known ones.
            battery_capacity_wh=sum(known) if known else None,
            current=_figures(
                [samples[(v, CURRENT)] for v in vehicle_ids if (v, CURRENT) in samples],
                charge_kpis[(vehicle_id, CURRENT)],
                current,
            ),
            previous=_figures(
                [samples[(v, PREVIOUS)] for v in vehicle_ids if (v, PREVIOUS) in samples],
                charge_kpis[(vehicle_id, PREVIOUS)],
                previous,
            ),
        )

    fleet = entry(
        scope.vehicle_ids,
        None,
        None,
        current=fleet_session_figures(sessions, CURRENT, capacities=capacity_list),
        previous=fleet_session_figures(sessions, PREVIOUS, capacities=capacity_list),
    )
    entries = [fleet]
    if not scope.combined:
        entries = [
            entry([vehicle.id], vehicle.id, vehicle.name, current=current, previous=previous)
            for vehicle, current, previous in zip(
                scope.vehicles,
                vehicle_session_figures(sessions, CURRENT, capacities=capacity_list),
                vehicle_session_figures(sessions, PREVIOUS, capacities=capacity_list),
                strict=True,
            )
        ]
    # Constructed: its parts were built from typed columns (validating them would cost ms).
    return BatteryOut.model_construct(
        period=period_out(scope, now=now),
        low_charge_threshold=LOW_CHARGE,
        series=series.charge,
        health_series=series.health,
        entries=entries,
        fleet=fleet,
    )
