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

from pydantic import Field

from fleetscope.analytics.battery_slots import ChargeSlot, HealthLine, SampleFigures, SlotGrid
from fleetscope.analytics.fact_rows import CURRENT
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.appstore.schemas import CamelModel

SERIES_BUCKETS = 250
SERIES_POINT_BUDGET = 10_000
MIN_SERIES_BUCKETS = 50


# Points as [instant, value] pairs, the instants ISO 8601 text: 15,000 points as datetimes
# and models cost more than the reading that finds them, and pairs serialise five times as
# fast as objects (and are what the chart draws).
Instant = Annotated[
    str,
    Field(
        description="UTC, ISO 8601 to the millisecond", json_schema_extra={"format": "date-time"}
    ),
]
ChargePoint = tuple[Instant, Annotated[float, Field(description="state of charge in percent")]]
HealthPoint = tuple[
    Instant, Annotated[float, Field(description="state of health (SoH) in percent")]
]


class ChargeSeries(CamelModel):
    vehicle_id: int
    name: str
    points: list[ChargePoint] = Field(description="[at, charge] pairs, ascending in time")


class HealthSeries(CamelModel):
    vehicle_id: int
    name: str
    points: list[HealthPoint] = Field(
        description="[at, health] pairs: the mean SoH per time slot of the charge series, at "
        "the slot's middle, ascending; slots without a SoH sample left out; empty if the "
        "vehicle reports none"
    )
    trend: list[HealthPoint] = Field(
        description="the least-squares line of the period's SoH samples (slope = "
        "healthSlopePer30Days) at the first and the last point; empty below two points"
    )


@dataclass(frozen=True, slots=True)
class BatterySeries:
    charge: list[ChargeSeries]
    health: list[HealthSeries]


def series_buckets(vehicle_count: int) -> int:
    """Time buckets per vehicle line (two points each) for ``vehicle_count`` lines."""
    fitting = SERIES_POINT_BUDGET // (2 * max(1, vehicle_count))
    return max(MIN_SERIES_BUCKETS, min(SERIES_BUCKETS, fitting))


def _trend(
    slots: list[ChargeSlot],
    points: list[HealthPoint],
    line: HealthLine | None,
    grid: SlotGrid,
) -> list[HealthPoint]:
    """The fitted line at the first and the last health point (found from either end)."""
    if line is None or len(points) < 2:
        return []
    first = next(slot.number for slot in slots if slot.health is not None)
    last = next(slot.number for slot in reversed(slots) if slot.health is not None)
    return [
        (points[0][0], line.at(grid.middle_us(first))),
        (points[-1][0], line.at(grid.middle_us(last))),
    ]


def _charge_points(slots: list[ChargeSlot]) -> list[ChargePoint]:
    """The slots' lowest and highest samples in time order, one point where they coincide
    (tuples unpacked, one append per point: a quarter faster than attribute access and
    list concatenation)."""
    points: list[ChargePoint] = []
    append = points.append
    for _, low_at, low, high_at, high, _ in slots:
        if low_at == high_at:
            append((low_at, low))
        elif low_at < high_at:
            append((low_at, low))
            append((high_at, high))
        else:
            append((high_at, high))
            append((low_at, low))
    return points


def battery_series(
    scope: AnalyticsScope,
    samples: Mapping[tuple[int, int], SampleFigures],
    *,
    grid: SlotGrid,
) -> BatterySeries:
    """Charge and health lines of every selected vehicle in the period (bucket CURRENT).

    The models are constructed, not validated: every value comes from a typed query column
    (floats, ISO text), and validating 100 x 150 points cost as much as building them."""
    charge, health = [], []
    middles = [grid.middle_iso(index) for index in range(grid.count)]  # shared by all lines
    for vehicle in scope.vehicles:
        figures = samples.get((vehicle.id, CURRENT))
        slots = figures.slots if figures is not None else []
        # Slots without a health sample have no point; the point sits at the slot's
        # middle, not at its samples' mean time: a slot is a pixel or two wide.
        health_points: list[HealthPoint] = [
            (middles[number], health) for number, _, _, _, _, health in slots if health is not None
        ]
        line = figures.health_line if figures is not None else None
        charge.append(
            ChargeSeries.model_construct(
                vehicle_id=vehicle.id, name=vehicle.name, points=_charge_points(slots)
            )
        )
        health.append(
            HealthSeries.model_construct(
                vehicle_id=vehicle.id,
                name=vehicle.name,
                points=health_points,
                trend=_trend(slots, health_points, line, grid),
            )
        )
    return BatterySeries(charge=charge, health=health)
