"""The battery page's lines over time: charge and state of health (SoH) per vehicle.

Both come from one pass over the period's samples (the previous period draws no line), cut
into the same equal time slots (``series_buckets`` per vehicle, so that all lines together
stay within what one chart can show):
- charge: per slot the lowest and the highest sample, at their times (dips and peaks
  survive downsampling);
- health: per slot the mean of the samples that report one, at the slot's middle; slots
  without a health sample have no point, a vehicle that never reports one an empty line;
- health trend: the least-squares line of the vehicle's health samples in T (the line whose
  slope is ``healthSlopePer30Days``), evaluated at the first and the last health point.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb
from pydantic import Field, TypeAdapter

from fleetscope.analytics.fact_rows import CURRENT, Selection, SiteSlice, rows_in_periods
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.rawlog import from_micros

SERIES_BUCKETS = 250
SERIES_POINT_BUDGET = 10_000
MIN_SERIES_BUCKETS = 50


class ChargePoint(CamelModel):
    at: datetime
    charge: float = Field(description="state of charge in percent")


class ChargeSeries(CamelModel):
    vehicle_id: int
    name: str
    points: list[ChargePoint] = Field(description="ascending in time")


class HealthPoint(CamelModel):
    at: datetime
    health: float = Field(description="state of health (SoH) in percent")


class HealthSeries(CamelModel):
    vehicle_id: int
    name: str
    points: list[HealthPoint] = Field(
        description="mean SoH per time slot of the charge series, at the slot's middle, "
        "ascending; slots without a SoH sample left out; empty if the vehicle reports none"
    )
    trend: list[HealthPoint] = Field(
        description="the least-squares line of the period's SoH samples (slope = "
        "healthSlopePer30Days) at the first and the last point; empty below two points"
    )


@dataclass(frozen=True, slots=True)
class HealthLine:
    """A fitted health line over epoch seconds: health = intercept + slope x seconds."""

    slope_per_second: float
    intercept: float

    def at(self, moment: datetime) -> float:
        return self.intercept + self.slope_per_second * moment.timestamp()


@dataclass(frozen=True, slots=True)
class BatterySeries:
    charge: list[ChargeSeries]
    health: list[HealthSeries]


_CHARGE = TypeAdapter(list[ChargeSeries])
_HEALTH = TypeAdapter(list[HealthSeries])
_SAMPLE_COLUMNS = "f.vehicle_id, f.sampled_at, f.charge, f.health"


def series_buckets(vehicle_count: int) -> int:
    """Time buckets per vehicle line (two points each) for ``vehicle_count`` lines."""
    fitting = SERIES_POINT_BUDGET // (2 * max(1, vehicle_count))
    return max(MIN_SERIES_BUCKETS, min(SERIES_BUCKETS, fitting))


def _trend(points: list[dict[str, Any]], line: HealthLine | None) -> list[dict[str, Any]]:
    if line is None or len(points) < 2:
        return []
    return [{"at": p["at"], "health": line.at(p["at"])} for p in (points[0], points[-1])]


def battery_series(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    selection: Selection,
    *,
    health_lines: Mapping[int, HealthLine],
) -> BatterySeries:
    """Charge and health lines of every selected vehicle in the period (bucket CURRENT)."""
    current = Selection(
        [
            SiteSlice(part.vehicle_ids, [w for w in part.windows if w[1] == CURRENT])
            for part in selection.slices
        ]
    )
    charge: dict[int, list[dict[str, Any]]] = {}
    health: dict[int, list[dict[str, Any]]] = {}
    bounds = current.bounds
    if bounds is not None:
        sql, parameters = rows_in_periods(
            current, table="battery_samples", at="sampled_at", columns=_SAMPLE_COLUMNS
        )
        buckets = series_buckets(len(scope.vehicles))
        width_us = max(int(bounds.seconds * 1e6) // buckets, 1_000_000)
        start_us = int(bounds.start.timestamp() * 1e6)
        end = bounds.end
        # Times as integer microseconds: arg_min/arg_max returning TIMESTAMPTZ is 3x slower.
        # Health at the slot's middle, not at its samples' mean time: a second average per
        # slot would cost a fifth more, and a slot is a pixel or two wide.
        at_us = "epoch_us(sampled_at)"
        rows = cursor.execute(
            f"SELECT vehicle_id, ({at_us} - ?) // ? AS slot, arg_min({at_us}, charge), "  # noqa: S608 - constants only
            f"min(charge), arg_max({at_us}, charge), max(charge), avg(health) FROM ({sql}) "
            "GROUP BY ALL ORDER BY 1, 2",
            [start_us, width_us, *parameters],
        ).fetchall()
        for vehicle_id, slot, low_at, low, high_at, high, mean_health in rows:
            series = charge.setdefault(int(vehicle_id), [])
            pair = sorted([(low_at, low), (high_at, high)])
            for at, value in pair if low_at != high_at else pair[:1]:
                series.append({"at": from_micros(at), "charge": value})
            if mean_health is not None:
                middle = from_micros(start_us + slot * width_us + width_us // 2)
                health.setdefault(int(vehicle_id), []).append(
                    # The last slot may reach past the period: its middle stays inside.
                    {"at": min(middle, end), "health": mean_health}
                )
    # Validated from plain dicts in one go (pydantic's core): 100 x 500 points.
    return BatterySeries(
        charge=_CHARGE.validate_python(
            [
                {"vehicleId": v.id, "name": v.name, "points": charge.get(v.id, [])}
                for v in scope.vehicles
            ]
        ),
        health=_HEALTH.validate_python(
            [
                {
                    "vehicleId": v.id,
                    "name": v.name,
                    "points": health.get(v.id, []),
                    "trend": _trend(health.get(v.id, []), health_lines.get(v.id)),
                }
                for v in scope.vehicles
            ]
        ),
    )
