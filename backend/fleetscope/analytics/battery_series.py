"""The battery page's lines over time: charge and state of health (SoH) per vehicle.

Both come from the slots of ``battery_scan`` (the previous period draws no line): the
period cut into equal time slots (``series_buckets`` per vehicle, so that all lines together
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
from typing import Annotated

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict

from fleetscope.analytics.battery_slots import ChargeSlot, HealthLine, SampleFigures, SlotGrid
from fleetscope.analytics.fact_rows import CURRENT
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.appstore.schemas import CamelModel

SERIES_BUCKETS = 250
SERIES_POINT_BUDGET = 10_000
MIN_SERIES_BUCKETS = 50


# Instants of the lines as ISO 8601 text made by DuckDB, points as typed dicts: 15,000
# points as datetimes and models cost more than the query that finds them.
Instant = Annotated[
    str,
    Field(
        description="UTC, ISO 8601 to the millisecond", json_schema_extra={"format": "date-time"}
    ),
]


class ChargePoint(TypedDict):
    at: Instant
    charge: Annotated[float, Field(description="state of charge in percent")]


class ChargeSeries(CamelModel):
    vehicle_id: int
    name: str
    points: list[ChargePoint] = Field(description="ascending in time")


class HealthPoint(TypedDict):
    at: Instant
    health: Annotated[float, Field(description="state of health (SoH) in percent")]


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
class BatterySeries:
    charge: list[ChargeSeries]
    health: list[HealthSeries]


_CHARGE = TypeAdapter(list[ChargeSeries])
_HEALTH = TypeAdapter(list[HealthSeries])


def series_buckets(vehicle_count: int) -> int:
    """Time buckets per vehicle line (two points each) for ``vehicle_count`` lines."""
    fitting = SERIES_POINT_BUDGET // (2 * max(1, vehicle_count))
    return max(MIN_SERIES_BUCKETS, min(SERIES_BUCKETS, fitting))


def _trend(
    slots: list[ChargeSlot], line: HealthLine | None, grid: SlotGrid, middles: list[str]
) -> list[HealthPoint]:
    with_health = [slot for slot in slots if slot.health is not None]
    if line is None or len(with_health) < 2:
        return []
    return [
        {"at": middles[slot.number], "health": line.at(grid.middle_us(slot.number))}
        for slot in (with_health[0], with_health[-1])
    ]


def _charge_points(slots: list[ChargeSlot]) -> list[ChargePoint]:
    points: list[ChargePoint] = []
    for slot in slots:
        if slot.low_at == slot.high_at:
            points.append({"at": slot.low_at, "charge": slot.low})
        elif slot.low_at < slot.high_at:
            points += [
                {"at": slot.low_at, "charge": slot.low},
                {"at": slot.high_at, "charge": slot.high},
            ]
        else:
            points += [
                {"at": slot.high_at, "charge": slot.high},
                {"at": slot.low_at, "charge": slot.low},
            ]
    return points


def battery_series(
    scope: AnalyticsScope,
    samples: Mapping[tuple[int, int], SampleFigures],
    *,
    grid: SlotGrid,
) -> BatterySeries:
    """Charge and health lines of every selected vehicle in the period (bucket CURRENT)."""
    charge, health = [], []
    middles = [grid.middle_iso(index) for index in range(grid.count)]  # shared by all lines
    for vehicle in scope.vehicles:
        figures = samples.get((vehicle.id, CURRENT))
        slots = figures.slots if figures is not None else []
        # Slots without a health sample have no point; the point sits at the slot's
        # middle, not at its samples' mean time: a slot is a pixel or two wide.
        health_points: list[HealthPoint] = [
            {"at": middles[slot.number], "health": slot.health}
            for slot in slots
            if slot.health is not None
        ]
        line = figures.health_line if figures is not None else None
        charge.append(
            {"vehicleId": vehicle.id, "name": vehicle.name, "points": _charge_points(slots)}
        )
        health.append(
            {
                "vehicleId": vehicle.id,
                "name": vehicle.name,
                "points": health_points,
                "trend": _trend(slots, line, grid, middles),
            }
        )
    # Validated from plain dicts in one go (pydantic's core): 100 x 500 points.
    return BatterySeries(
        charge=_CHARGE.validate_python(charge), health=_HEALTH.validate_python(health)
    )
