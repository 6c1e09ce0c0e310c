"""``GET /v2/Analytics/Battery``: charge over time, charge sessions, depth of discharge,
equivalent full cycles, health trend, time below 20 %, charging share, energy.

Definitions (product.md section 3; samples and sessions as the derivation records them):
- charge and health (SoH) over time per vehicle, downsampled: ``battery_series``;
- charge sessions starting in T: count, mean duration, mean added charge (end - start);
- depth of discharge per cycle = the highest charge since the previous session ended
  (``peak_before``) - the charge at this session's start; histogram in 10-point bins;
- equivalent full cycles = all discharged percent / 100 (the sum of the depths);
- health (SoH): the latest sample in T and the least-squares slope over T, per 30 days
  (the fitted line is also the health series' trend);
- time below 20 %: time from a sample under 20 % to the next sample, each step capped at
  ``offline_after`` (longer silence is no data, not time at low charge);
- charging share, mean and minimum charge: as productivity (time in state, samples);
- energy in Wh (added and discharged) = percent / 100 x the vehicle's battery capacity, for
  vehicles whose capacity is known.
"""

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

import duckdb
import numpy as np
from pydantic import Field

from fleetscope.analytics.battery_scan import add_below_low, scan_period, scan_previous
from fleetscope.analytics.battery_series import (
    BatterySeries,
    ChargeSeries,
    HealthSeries,
    battery_series,
    series_buckets,
)
from fleetscope.analytics.battery_slots import LOW_CHARGE, SampleFigures, SlotGrid
from fleetscope.analytics.fact_rows import (
    CURRENT,
    PREVIOUS,
    Selection,
    rows_in_periods,
    select_periods,
)
from fleetscope.analytics.kpis import kpi_columns
from fleetscope.analytics.models import PeriodOut
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.periods import Window
from fleetscope.analytics.plan import BucketSpan, Collected, period_out, read_buckets
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.store import reader_beside

DOD_BIN = 10
DOD_BINS = 10
SECONDS_PER_30_DAYS = 30 * 86400


class SessionFigures(CamelModel):
    count: int
    mean_duration_seconds: float | None
    mean_added_charge: float | None = Field(description="percentage points per session")
    added_charge: float = Field(description="sum of end - start charge")
    discharged: float = Field(description="sum of the depths of discharge")
    equivalent_full_cycles: float = Field(description="discharged / 100")
    mean_depth_of_discharge: float | None
    depth_histogram: list[int] = Field(description="cycles per 10-point bin: 0-10, ..., 90-100")
    added_energy_wh: float | None = Field(description="null unless the capacity is known")
    discharged_energy_wh: float | None


class BatteryFigures(CamelModel):
    sessions: SessionFigures
    mean_charge: float | None
    min_charge: float | None
    below_low_seconds: float = Field(description="time with the charge under 20 %")
    charging_share: float | None = Field(description="charging time / planned time")
    health_latest: float | None
    health_slope_per_30_days: float | None = Field(description="least squares over T")


class BatteryEntry(CamelModel):
    vehicle_id: int | None = Field(description="null: the selected vehicles together")
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


_SESSION_COLUMNS = (
    "f.vehicle_id, (epoch_us(f.end_at) - epoch_us(f.start_at)) / 1e6 AS duration_s, "
    "f.end_charge - f.start_charge AS added, greatest(0, f.peak_before - f.start_charge) AS dod"
)


def _sessions(cursor: duckdb.DuckDBPyConnection, selection: Selection) -> dict[Any, list[Any]]:
    """Per (vehicle, bucket): [count, duration, added, discharged, cycles per depth bin]."""
    sql, parameters = rows_in_periods(
        selection, table="charge_sessions", at="start_at", columns=_SESSION_COLUMNS
    )
    # Grouped by depth bin too and added up here: half the time of DuckDB's histogram().
    rows = cursor.execute(
        f"SELECT vehicle_id, bucket, least({DOD_BINS - 1}, floor(dod / {DOD_BIN}))::INTEGER, "  # noqa: S608 - constants only
        f"count(*), sum(duration_s), sum(added), sum(dod) FROM ({sql}) GROUP BY ALL",
        parameters,
    ).fetchall()
    result: dict[Any, list[Any]] = {}
    for vehicle_id, bucket, depth_bin, count, duration, added, discharged in rows:
        part = result.get((vehicle_id, bucket))
        if part is None:
            part = result[(vehicle_id, bucket)] = [0, 0.0, 0.0, 0.0, [0] * DOD_BINS]
        part[0] += count
        part[1] += duration
        part[2] += added
        part[3] += discharged
        part[4][depth_bin] += count
    return result


def _session_figures(parts: list[list[Any]], capacities: list[float | None]) -> SessionFigures:
    count = sum(int(p[0]) for p in parts)
    duration = sum(float(p[1] or 0) for p in parts)
    added = sum(float(p[2] or 0) for p in parts)
    discharged = sum(float(p[3] or 0) for p in parts)
    histogram = [0] * DOD_BINS
    for part in parts:
        for index, cycles in enumerate(part[4]):
            histogram[index] += cycles
    known = [(p, c) for p, c in zip(parts, capacities, strict=True) if c is not None]
    added_wh = sum(float(p[2] or 0) / 100 * c for p, c in known) if known else None
    discharged_wh = sum(float(p[3] or 0) / 100 * c for p, c in known) if known else None
    return SessionFigures(
        count=count,
        mean_duration_seconds=duration / count if count else None,
        mean_added_charge=added / count if count else None,
        added_charge=added,
        discharged=discharged,
        equivalent_full_cycles=discharged / 100,
        mean_depth_of_discharge=discharged / count if count else None,
        depth_histogram=histogram,
        added_energy_wh=added_wh,
        discharged_energy_wh=discharged_wh,
    )


ChargeKpis = tuple[float | None, float | None, float | None]  # mean, minimum, charging share


def _charge_kpis(collected: Collected, vehicle_ids: list[int]) -> dict[Any, ChargeKpis]:
    """Mean charge, minimum charge and charging share per (vehicle, bucket) and of all the
    vehicles together (vehicle None), by the KPI glossary in one vectorised pass."""
    table = collected.measures
    keys: list[Any] = [(v, bucket) for bucket in (CURRENT, PREVIOUS) for v in vehicle_ids]
    rows = np.vstack(
        [
            table.rows(keys),
            *(table.total([(v, bucket) for v in vehicle_ids]) for bucket in (CURRENT, PREVIOUS)),
        ]
    )
    columns = kpi_columns(rows, period_s=np.zeros(len(rows)))

    def values(name: str) -> list[float | None]:
        return [None if value != value else value for value in columns[name].tolist()]  # NaN

    keys += [(None, CURRENT), (None, PREVIOUS)]
    return dict(
        zip(
            keys,
            zip(values("mean_charge"), values("min_charge"), values("charging_share"), strict=True),
            strict=True,
        )
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
    # The period's sample scan and its lines are about half of the work; DuckDB releases
    # the interpreter while it runs, so on a second cursor they overlap the other reads.
    scan_cursor = reader_beside(cursor)

    def period_and_lines() -> tuple[dict[tuple[int, int], SampleFigures], BatterySeries]:
        period = scan_period(scan_cursor, selection, grid=grid)
        return period, battery_series(scope, period, grid=grid)

    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            scanned = pool.submit(period_and_lines)
            sessions = _sessions(cursor, selection)
            collected = read_buckets(
                cursor,
                scope,
                [BucketSpan(CURRENT, scope.span), BucketSpan(PREVIOUS, scope.span.previous())],
                by_vehicle=True,
                with_cycles=False,
                now=now,
                offline_after=offline_after,
            )
            samples = scan_previous(cursor, selection)
            period, series = scanned.result()
            samples.update(period)
    finally:
        scan_cursor.close()
    add_below_low(cursor, selection, samples, grid=grid, offline_after=offline_after)
    empty_session = [0, 0.0, 0.0, 0.0, [0] * DOD_BINS]
    charge_kpis = _charge_kpis(collected, scope.vehicle_ids)

    def figures(vehicle_ids: list[int], vehicle_id: int | None, bucket: int) -> BatteryFigures:
        mean_charge, min_charge, charging_share = charge_kpis[(vehicle_id, bucket)]
        known: list[SampleFigures] = [
            samples[(v, bucket)] for v in vehicle_ids if (v, bucket) in samples
        ]
        health = [item.health_latest for item in known if item.health_latest is not None]
        slopes = [
            item.health_line.slope_per_second * SECONDS_PER_30_DAYS
            for item in known
            if item.health_line is not None
        ]
        return BatteryFigures(
            sessions=_session_figures(
                [sessions.get((v, bucket), empty_session) for v in vehicle_ids],
                [capacities.get(v) for v in vehicle_ids],
            ),
            mean_charge=mean_charge,
            min_charge=min_charge,
            below_low_seconds=sum(item.below_low_seconds for item in known),
            charging_share=charging_share,
            # Several vehicles: the mean of their latest values and of their slopes.
            health_latest=sum(health) / len(health) if health else None,
            health_slope_per_30_days=sum(slopes) / len(slopes) if slopes else None,
        )

    def entry(vehicle_ids: list[int], vehicle_id: int | None, name: str | None) -> BatteryEntry:
        known = [capacities.get(v) for v in vehicle_ids if capacities.get(v) is not None]
        return BatteryEntry(
            vehicle_id=vehicle_id,
            name=name,
            # The fleet's capacity: the sum of the known ones.
            battery_capacity_wh=sum(c for c in known if c is not None) if known else None,
            current=figures(vehicle_ids, vehicle_id, CURRENT),
            previous=figures(vehicle_ids, vehicle_id, PREVIOUS),
        )

    fleet = entry(scope.vehicle_ids, None, None)
    entries = (
        [fleet]
        if scope.combined
        else [entry([vehicle.id], vehicle.id, vehicle.name) for vehicle in scope.vehicles]
    )
    return BatteryOut(
        period=period_out(scope),
        low_charge_threshold=LOW_CHARGE,
        series=series.charge,
        health_series=series.health,
        entries=entries,
        fleet=fleet,
    )
