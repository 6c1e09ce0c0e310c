"""``GET /v2/Analytics/Battery`` (product.md section 3; each figure: docs/analytics-v2.md,
Battery): the charge and health lines and the sample figures from the slots of ``scan``, the
charge session figures (``sessions``), the charge KPIs from the rollups as productivity."""

from collections.abc import Mapping
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Annotated, NamedTuple, TypeVar

import duckdb
import numpy as np
import numpy.typing as npt
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.battery import combined, scan
from fleetscope.analytics.battery.sessions import SessionFigures, session_figures, session_sums
from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, select_periods
from fleetscope.analytics.core.measure_table import STATE_MEASURES
from fleetscope.analytics.core.models import EpochMillis, Kpis, PeriodOut, epoch_millis
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import Window
from fleetscope.analytics.core.plan import period_out, period_spans, read_buckets
from fleetscope.appstore.schemas import CamelModel, camel_case
from fleetscope.facts.battery_hours import LOW_CHARGE

T = TypeVar("T")
SECONDS_PER_30_DAYS = 30 * 86400
# What the charge KPIs use of the rollups (``kpi_columns``).
CHARGE_MEASURES = STATE_MEASURES | {"battery_samples", "battery_charge_sum", "battery_charge_min"}
SERIES_BUCKETS = 250
SERIES_POINT_BUDGET = 10_000
MIN_SERIES_BUCKETS = 50
COMBINED_LINE = (
    "null: the selected vehicles combined (charge: their time-weighted mean charge per slot; "
    "health: the mean of their mean SoH per slot, the trend the mean of their fitted lines)"
)

# Points as [epoch milliseconds, value] pairs, what the chart draws: pairs of numbers
# serialise five times as fast as objects with ISO text, and need no parsing in the browser.
ChargePoint = tuple[EpochMillis, Annotated[float, Field(description="state of charge in percent")]]
HealthPoint = tuple[
    EpochMillis, Annotated[float, Field(description="state of health (SoH) in percent")]
]


@camel_case
class ChargeSeries(TypedDict):
    vehicle_id: Annotated[int | None, Field(description=COMBINED_LINE)]
    name: str | None
    points: Annotated[list[ChargePoint], Field(description="[at, charge] pairs, ascending in time")]


@camel_case
class HealthSeries(TypedDict):
    vehicle_id: Annotated[int | None, Field(description=COMBINED_LINE)]
    name: str | None
    points: Annotated[
        list[HealthPoint],
        Field(
            description="[at, health] pairs: the mean SoH per time slot of the charge series, "
            "at the slot's middle, ascending; slots without a SoH sample left out; empty if "
            "the vehicle reports none"
        ),
    ]
    trend: Annotated[
        list[HealthPoint],
        Field(
            description="the least-squares line of the period's SoH samples (slope = "
            "healthSlopePer30Days) at the first and the last point; empty below two points"
        ),
    ]


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
    series: list[ChargeSeries] = Field(
        description="per vehicle, or the combined line; downsampled, period only"
    )
    health_series: list[HealthSeries] = Field(
        description="state of health per vehicle (or combined) over the period, in the slots "
        "of series, with its fitted trend line"
    )
    entries: list[BatteryEntry] = Field(description="per vehicle, or the combined entry")
    fleet: BatteryEntry


class BatterySeries(NamedTuple):
    charge: list[ChargeSeries]
    health: list[HealthSeries]


def series_buckets(vehicle_count: int) -> int:
    """Time slots per line (two points each) for ``vehicle_count`` lines."""
    fitting = SERIES_POINT_BUDGET // (2 * max(1, vehicle_count))
    return max(MIN_SERIES_BUCKETS, min(SERIES_BUCKETS, fitting))


def _by_vehicle(vehicles: npt.NDArray[np.int64], values: list[T]) -> dict[int, list[T]]:
    """``values`` (one per entry of ``vehicles``, grouped by vehicle) per vehicle."""
    bounds = [*scan.vehicle_starts(vehicles).tolist(), len(vehicles)]
    return {int(vehicles[start]): values[start:end] for start, end in pairwise(bounds)}


def battery_series(
    scope: AnalyticsScope,
    samples: Mapping[tuple[int, int], scan.SampleFigures],
    lines: scan.Units | None,
    *,
    grid: scan.SlotGrid,
) -> BatterySeries:
    """Every selected vehicle's lines in the period from its slots (``scan.slot_columns``), not
    validated: 100 x 150 points cost as much to validate as to build."""
    charge: dict[int, list[ChargePoint]] = {}
    health: dict[int, list[HealthPoint]] = {}
    if lines is not None:
        # Each slot's lowest and highest sample in time order, one point at one instant.
        low_at, low, high_at, high = (lines[name] for name in ("low_at", "low", "high_at", "high"))
        low_first = low_at <= high_at
        at = np.where(low_first, [low_at, high_at], [high_at, low_at])
        values = np.where(low_first, [low, high], [high, low])
        two = low_at != high_at
        kept = np.array([np.ones(len(two), dtype=bool), two]).T.ravel()
        points = zip(epoch_millis(at.T.ravel()[kept]), values.T.ravel()[kept].tolist(), strict=True)
        charge = _by_vehicle(np.repeat(lines["vehicle_id"], 1 + two), list(points))
        # The mean SoH of the slots with a sample reporting one.
        rows = lines["health_n"] > 0
        vehicles, middles_us = lines["vehicle_id"][rows], grid.middles_us()[lines["slot"][rows]]
        health_means = lines["health_y"][rows] / lines["health_n"][rows]
        means = zip(epoch_millis(middles_us), health_means.tolist(), strict=True)
        health = _by_vehicle(vehicles, list(means))

    selected = scope.vehicles
    return BatterySeries(
        [ChargeSeries(vehicle_id=v.id, name=v.name, points=charge.get(v.id, [])) for v in selected],
        [
            HealthSeries(
                vehicle_id=v.id,
                name=v.name,
                points=health.get(v.id, []),
                trend=combined.health_trend(samples, [v.id], health.get(v.id, [])),
            )
            for v in selected
        ],
    )


def _figures(
    items: list[scan.SampleFigures], kpis: Kpis, sessions: SessionFigures
) -> BatteryFigures:
    """One bucket's figures of its vehicles (one, or all selected; several: the mean of
    their latest SoH and of their slopes); not validated (built from typed columns)."""
    health = [item.health_latest for item in items if item.health_latest is not None]
    lines = [item.health_line for item in items if item.health_line is not None]
    slopes = [line.slope_per_second * SECONDS_PER_30_DAYS for line in lines]
    return BatteryFigures(
        period_seconds=kpis.period_seconds,
        no_data_seconds=kpis.no_data_seconds,
        sessions=sessions,
        mean_charge=kpis.mean_charge,
        min_charge=kpis.min_charge,
        below_low_seconds=sum((item.below_low_seconds for item in items), 0.0),
        charging_share=kpis.charging_share,
        health_latest=sum(health) / len(health) if health else None,
        # DuckDB adds the health moments in no fixed order (a constant SoH: ±1e-15 from call to
        # call): nine decimals, far below any SoH sensor, give one answer; + 0.0 makes -0.0 0.
        health_slope_per_30_days=round(sum(slopes) / len(slopes), 9) + 0.0 if slopes else None,
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
    period = scan.in_bucket(selection, CURRENT).bounds or Window(now, now)
    grid = scan.SlotGrid.over(period, slots=series_buckets(len(scope.vehicles)))
    samples, lines = scan.scan(cursor, selection, grid=grid, offline_after=offline_after, now=now)
    if scope.combined:
        charge_grid = combined.fleet_charge_grid(period, slots=SERIES_BUCKETS)
        charge = combined.fleet_charge_points(
            cursor, scope, grid=charge_grid, now=now, offline_after=offline_after
        )
        health = combined.fleet_health_points(lines, grid=grid)
        trend = combined.health_trend(samples, scope.vehicle_ids, health)
        series = BatterySeries(
            [ChargeSeries(vehicle_id=None, name=None, points=charge)],
            [HealthSeries(vehicle_id=None, name=None, points=health, trend=trend)],
        )
    else:
        series = battery_series(scope, samples, lines, grid=grid)
    sessions = session_sums(cursor, selection)
    collected = read_buckets(
        cursor,
        scope,
        period_spans(scope, current=CURRENT, previous=PREVIOUS),
        by_vehicle=True,
        now=now,
        offline_after=offline_after,
        only=CHARGE_MEASURES,
    )
    # The rollup KPIs per bucket of each vehicle and (None) of all of them together.
    kpis = []
    for bucket in (CURRENT, PREVIOUS):
        _, of_bucket = collected.figures(bucket, scope.vehicle_ids)
        kpis.append(dict(zip([*scope.vehicle_ids, None], of_bucket, strict=True)))

    def entry(vehicle_ids: list[int], vehicle_id: int | None, name: str | None) -> BatteryEntry:
        own = {v: capacities.get(v) for v in vehicle_ids}
        known = [capacity for capacity in own.values() if capacity is not None]
        figures = []
        for bucket in (CURRENT, PREVIOUS):
            items = [samples[(v, bucket)] for v in vehicle_ids if (v, bucket) in samples]
            cycles = sum(item.discharged for item in items) / 100
            sessions_of = session_figures(sessions, bucket, capacities=own, cycles=cycles)
            figures.append(_figures(items, kpis[bucket][vehicle_id], sessions_of))
        return BatteryEntry(
            vehicle_id=vehicle_id,
            name=name,
            battery_capacity_wh=sum(known) if known else None,  # the fleet's: the known ones
            current=figures[CURRENT],
            previous=figures[PREVIOUS],
        )

    fleet = entry(scope.vehicle_ids, None, None)
    entries = [fleet] if scope.combined else [entry([v.id], v.id, v.name) for v in scope.vehicles]
    # Constructed: its parts were built from typed columns (validating them would cost ms).
    return BatteryOut.model_construct(
        period=period_out(scope, now=now),
        low_charge_threshold=LOW_CHARGE,
        series=series.charge,
        health_series=series.health,
        entries=entries,
        fleet=fleet,
    )
