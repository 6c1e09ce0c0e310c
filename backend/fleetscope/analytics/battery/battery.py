"""``GET /v2/Analytics/Battery`` (product.md section 3; how each figure is computed:
docs/analytics-v2.md, Battery): the lines (``series``) and the sample figures (``scan``), the
charge sessions starting in T (here), the charge KPIs from the rollups, as productivity."""

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Annotated, NamedTuple

import duckdb
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.battery.scan import SampleFigures, SlotGrid, in_bucket, scan
from fleetscope.analytics.battery.series import (
    ChargeSeries,
    HealthSeries,
    battery_series,
    series_buckets,
)
from fleetscope.analytics.core.facts import (
    CURRENT,
    PREVIOUS,
    Selection,
    rows_in_periods,
    select_periods,
)
from fleetscope.analytics.core.measure_table import STATE_MEASURES
from fleetscope.analytics.core.models import Kpis, PeriodOut
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
DOD_BIN = 10
DOD_BINS = 10
# Sums of reported charges (percentage points, at most a few decimals) to this many decimals:
# without, 59.831 cycles came out as 59.83099999999999.
POINT_DECIMALS = 6
SESSION_COLUMNS = (
    "f.vehicle_id, (epoch_us(f.end_at) - epoch_us(f.start_at)) / 1e6 AS duration_s, "
    "f.end_charge - f.start_charge AS added, greatest(0, f.peak_before - f.start_charge) AS dod"
)
# A session's bin of the depth-of-discharge histogram (a depth of 100 is in the last).
DEPTH_BIN_SQL = f"least({DOD_BINS - 1}, floor(dod / {DOD_BIN}))::INTEGER"


@camel_case
class SessionFigures(TypedDict):
    count: int
    mean_duration_seconds: float | None
    mean_added_charge: Annotated[float | None, Field(description="percentage points per session")]
    added_charge: Annotated[float, Field(description="sum of end - start charge")]
    discharged: Annotated[float, Field(description="sum of the depths of discharge")]
    equivalent_full_cycles: Annotated[
        float,
        Field(
            description="percentage points discharged inside T / 100, from report to "
            "report (not the sessions' depths: a shift with only charging has 0)"
        ),
    ]
    mean_depth_of_discharge: float | None
    depth_histogram: Annotated[
        list[int], Field(description="cycles per 10-point bin: 0-10, ..., 90-100")
    ]
    added_energy_wh: Annotated[float | None, Field(description="null unless the capacity is known")]
    discharged_energy_wh: float | None


class Sums(NamedTuple):
    sessions: int = 0
    duration: float = 0.0
    added: float = 0.0
    discharged: float = 0.0
    histogram: tuple[int, ...] = (0,) * DOD_BINS


SessionSums = dict[tuple[int, int], Sums]  # by (bucket, vehicle) with sessions


def session_sums(cursor: duckdb.DuckDBPyConnection, selection: Selection) -> SessionSums:
    """The sessions starting in T of ``selection`` (both buckets) per bucket and vehicle."""
    rows_sql, parameters = rows_in_periods(
        selection, table="charge_sessions", at="start_at", columns=SESSION_COLUMNS
    )
    found = cursor.execute(
        "SELECT bucket, vehicle_id, count(*), sum(duration_s), sum(added), sum(dod), "  # noqa: S608 - constants only
        f"list_transform(range({DOD_BINS}), lambda b: coalesce(histogram({DEPTH_BIN_SQL})[b], 0)) "
        f"FROM ({rows_sql}) GROUP BY bucket, vehicle_id",
        parameters,
    ).fetchall()
    return {(b, v): Sums(c, d, a, x, tuple(h)) for b, v, c, d, a, x, h in found}


def session_figures(
    sums: SessionSums, bucket: int, *, capacities: Mapping[int, float | None], cycles: float
) -> SessionFigures:
    """The vehicles of ``capacities`` together in ``bucket``, energy over those whose capacity
    is known (null if none is); ``cycles``: the equivalent full cycles (from the samples)."""
    rows = [sums.get((bucket, v), Sums()) for v in capacities]
    # Vehicle after vehicle from a row of zeros: the histogram's bins even without a vehicle.
    sessions, durations, added_charges, depths, histograms = zip(Sums(), *rows, strict=True)
    count, duration = sum(sessions), sum(durations)
    added, discharged = (round(sum(points), POINT_DECIMALS) for points in (added_charges, depths))
    known = [(row, c) for row, c in zip(rows, capacities.values(), strict=True) if c is not None]
    return SessionFigures(
        count=count,
        mean_duration_seconds=duration / count if count else None,
        mean_added_charge=added / count if count else None,
        added_charge=added,
        discharged=discharged,
        equivalent_full_cycles=round(cycles, POINT_DECIMALS + 2),
        mean_depth_of_discharge=discharged / count if count else None,
        depth_histogram=[sum(n) for n in zip(*histograms, strict=True)],
        added_energy_wh=energy_wh([(r.added, c) for r, c in known]),
        discharged_energy_wh=energy_wh([(r.discharged, c) for r, c in known]),
    )


def energy_wh(points_and_capacities: list[tuple[float, float]]) -> float | None:
    """Percentage points of each capacity in Wh, summed; None when no capacity is known."""
    if not points_and_capacities:
        return None
    return round(sum(p / 100 * c for p, c in points_and_capacities), POINT_DECIMALS)


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


def _charge_kpis(
    collected: Collected, bucket: int, vehicle_ids: list[int]
) -> dict[int | None, Kpis]:
    """The rollup KPIs of each vehicle in ``bucket`` and of all of them together (None)."""
    _, kpis = collected.figures(bucket, vehicle_ids)
    return dict(zip([*vehicle_ids, None], kpis, strict=True))


def _figures(items: list[SampleFigures], kpis: Kpis, sessions: SessionFigures) -> BatteryFigures:
    """One bucket's figures of its vehicles (one, or all selected; several: the mean of
    their latest SoH and of their slopes); not validated (built from typed columns)."""
    health = [item.health_latest for item in items if item.health_latest is not None]
    slopes = [i.health_line.slope_per_second for i in items if i.health_line is not None]
    return BatteryFigures(
        period_seconds=kpis.period_seconds,
        no_data_seconds=kpis.no_data_seconds,
        sessions=sessions,
        mean_charge=kpis.mean_charge,
        min_charge=kpis.min_charge,
        below_low_seconds=sum((item.below_low_seconds for item in items), 0.0),
        charging_share=kpis.charging_share,
        health_latest=sum(health) / len(health) if health else None,
        # DuckDB adds the health moments in no fixed order: a constant SoH comes out as
        # ±1e-15 from call to call. Nine decimals (far below any SoH sensor) give one answer;
        # + 0.0 makes -0.0 a plain 0.
        health_slope_per_30_days=(
            round(sum(s * SECONDS_PER_30_DAYS for s in slopes) / len(slopes), 9) + 0.0
            if slopes
            else None
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
    period = in_bucket(selection, CURRENT).bounds or Window(now, now)
    grid = SlotGrid.over(period, slots=series_buckets(len(scope.vehicles)))
    samples, lines = scan(cursor, selection, grid=grid, offline_after=offline_after)
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
    kpis = [_charge_kpis(collected, bucket, scope.vehicle_ids) for bucket in (CURRENT, PREVIOUS)]

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
