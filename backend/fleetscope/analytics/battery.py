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
from datetime import datetime, timedelta
from typing import Any

import duckdb
from pydantic import Field

from fleetscope.analytics.battery_series import (
    ChargeSeries,
    HealthLine,
    HealthSeries,
    battery_series,
)
from fleetscope.analytics.fact_rows import (
    CURRENT,
    PREVIOUS,
    Selection,
    rows_in_periods,
    select_periods,
)
from fleetscope.analytics.kpis import compute_kpis
from fleetscope.analytics.measures import total
from fleetscope.analytics.models import PeriodOut
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.plan import BucketSpan, period_out, read_buckets
from fleetscope.appstore.schemas import CamelModel

LOW_CHARGE = 20.0
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
    "f.vehicle_id, epoch(f.end_at) - epoch(f.start_at) AS duration_s, "
    "f.end_charge - f.start_charge AS added, greatest(0, f.peak_before - f.start_charge) AS dod"
)
_SAMPLE_COLUMNS = "f.vehicle_id, f.sampled_at, f.charge, f.health"


def _sessions(cursor: duckdb.DuckDBPyConnection, selection: Selection) -> dict[Any, list[Any]]:
    sql, parameters = rows_in_periods(
        selection, table="charge_sessions", at="start_at", columns=_SESSION_COLUMNS
    )
    bins = f"least({DOD_BINS - 1}, floor(dod / {DOD_BIN}))::INTEGER"
    rows = cursor.execute(
        f"SELECT vehicle_id, bucket, count(*), sum(duration_s), sum(added), sum(dod), "  # noqa: S608 - constants only
        f"histogram({bins}) FROM ({sql}) GROUP BY ALL",
        parameters,
    ).fetchall()
    return {(int(row[0]), int(row[1])): list(row[2:]) for row in rows}


def _samples(
    cursor: duckdb.DuckDBPyConnection, selection: Selection, *, offline_after: timedelta
) -> dict[Any, list[Any]]:
    """Per (vehicle, bucket): [time below 20 %, latest health, health slope per second,
    the health line's intercept at epoch 0 s]."""
    sql, parameters = rows_in_periods(
        selection, table="battery_samples", at="sampled_at", columns=_SAMPLE_COLUMNS
    )
    rows = cursor.execute(
        "SELECT vehicle_id, bucket, "  # noqa: S608 - constants only
        f"count(*) FILTER (WHERE charge < {LOW_CHARGE}), "
        "arg_max(health, epoch_us(sampled_at)) FILTER (WHERE health IS NOT NULL), "
        "regr_slope(health, epoch(sampled_at)), regr_intercept(health, epoch(sampled_at)) "
        f"FROM ({sql}) GROUP BY ALL",
        parameters,
    ).fetchall()
    result = {(int(row[0]), int(row[1])): [0.0, row[3], row[4], row[5]] for row in rows}
    low = {int(row[0]) for row in rows if row[2]}
    if low:
        # The step to the next sample needs a window over the samples in order; only the
        # vehicles that were below 20 % at all pay for it.
        sql, parameters = rows_in_periods(
            selection.restricted_to(low),
            table="battery_samples",
            at="sampled_at",
            columns=_SAMPLE_COLUMNS,
        )
        step = (
            "least(epoch(lead(sampled_at) OVER (PARTITION BY vehicle_id, bucket "
            "ORDER BY sampled_at)) - epoch(sampled_at), ?)"
        )
        for vehicle_id, bucket, seconds in cursor.execute(
            "SELECT vehicle_id, bucket, "  # noqa: S608 - constants only
            f"coalesce(sum(step) FILTER (WHERE charge < {LOW_CHARGE}), 0) "
            f"FROM (SELECT *, {step} AS step FROM ({sql})) GROUP BY ALL",
            [offline_after.total_seconds(), *parameters],
        ).fetchall():
            result[(int(vehicle_id), int(bucket))][0] = float(seconds)
    return result


def _session_figures(parts: list[list[Any]], capacities: list[float | None]) -> SessionFigures:
    count = sum(int(p[0]) for p in parts)
    duration = sum(float(p[1] or 0) for p in parts)
    added = sum(float(p[2] or 0) for p in parts)
    discharged = sum(float(p[3] or 0) for p in parts)
    histogram = [0] * DOD_BINS
    for part in parts:
        for index, cycles in (part[4] or {}).items():
            histogram[int(index)] += int(cycles)
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


def battery(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    offline_after: timedelta,
    capacities: Mapping[int, float | None],
) -> BatteryOut:
    selection = select_periods(scope, now=now)
    sessions = _sessions(cursor, selection)
    samples = _samples(cursor, selection, offline_after=offline_after)
    spans = [BucketSpan(CURRENT, scope.span), BucketSpan(PREVIOUS, scope.span.previous())]
    collected = read_buckets(
        cursor,
        scope,
        spans,
        by_vehicle=True,
        with_cycles=False,
        now=now,
        offline_after=offline_after,
    )
    empty_session = [0, 0.0, 0.0, 0.0, None]

    def figures(vehicle_ids: list[int], bucket: int) -> BatteryFigures:
        kpis = compute_kpis(total([collected.get((v, bucket)) for v in vehicle_ids]), period_s=0)
        known = [samples[(v, bucket)] for v in vehicle_ids if (v, bucket) in samples]
        health = [row[1] for row in known if row[1] is not None]
        slopes = [row[2] * SECONDS_PER_30_DAYS for row in known if row[2] is not None]
        return BatteryFigures(
            sessions=_session_figures(
                [sessions.get((v, bucket), empty_session) for v in vehicle_ids],
                [capacities.get(v) for v in vehicle_ids],
            ),
            mean_charge=kpis.mean_charge,
            min_charge=kpis.min_charge,
            below_low_seconds=sum(float(row[0]) for row in known),
            charging_share=kpis.charging_share,
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
            current=figures(vehicle_ids, CURRENT),
            previous=figures(vehicle_ids, PREVIOUS),
        )

    fleet = entry(scope.vehicle_ids, None, None)
    health_lines = {
        vehicle_id: HealthLine(slope_per_second=row[2], intercept=row[3])
        for (vehicle_id, bucket), row in samples.items()
        if bucket == CURRENT and row[2] is not None and row[3] is not None
    }
    series = battery_series(cursor, scope, selection, health_lines=health_lines)
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
