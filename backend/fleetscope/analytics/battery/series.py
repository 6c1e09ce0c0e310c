"""The battery page's charge and health lines per vehicle, from the period's slots of ``scan``
(docs/analytics-v2.md, Battery: series, healthSeries)."""

from collections.abc import Mapping
from itertools import pairwise
from typing import Annotated, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.battery.scan import MILLIS, SampleFigures, SlotGrid, Units, vehicle_starts
from fleetscope.analytics.core.facts import CURRENT
from fleetscope.analytics.core.models import EpochMillis, epoch_millis
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.appstore.schemas import camel_case

T = TypeVar("T")
SERIES_BUCKETS = 250
SERIES_POINT_BUDGET = 10_000
MIN_SERIES_BUCKETS = 50


# Points as [epoch milliseconds, value] pairs, what the chart draws: pairs of numbers
# serialise five times as fast as objects with ISO text, and need no parsing in the browser.
ChargePoint = tuple[EpochMillis, Annotated[float, Field(description="state of charge in percent")]]
HealthPoint = tuple[
    EpochMillis, Annotated[float, Field(description="state of health (SoH) in percent")]
]


@camel_case
class ChargeSeries(TypedDict):
    vehicle_id: int
    name: str
    points: Annotated[list[ChargePoint], Field(description="[at, charge] pairs, ascending in time")]


@camel_case
class HealthSeries(TypedDict):
    vehicle_id: int
    name: str
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


class BatterySeries(NamedTuple):
    charge: list[ChargeSeries]
    health: list[HealthSeries]


def series_buckets(vehicle_count: int) -> int:
    """Time slots per line (two points each) for ``vehicle_count`` lines."""
    fitting = SERIES_POINT_BUDGET // (2 * max(1, vehicle_count))
    return max(MIN_SERIES_BUCKETS, min(SERIES_BUCKETS, fitting))


def _by_vehicle(vehicles: npt.NDArray[np.int64], values: list[T]) -> dict[int, list[T]]:
    """``values`` (one per entry of ``vehicles``, grouped by vehicle) per vehicle."""
    bounds = [*vehicle_starts(vehicles).tolist(), len(vehicles)]
    return {int(vehicles[start]): values[start:end] for start, end in pairwise(bounds)}


def battery_series(
    scope: AnalyticsScope,
    samples: Mapping[tuple[int, int], SampleFigures],
    lines: Units | None,
    *,
    grid: SlotGrid,
) -> BatterySeries:
    """Charge and health lines of every selected vehicle in the period (bucket CURRENT),
    from the period's slots (``scan.slot_columns``; instants in epoch microseconds), not
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

    def trend(vehicle_id: int) -> list[HealthPoint]:
        """The fitted line at the first and the last health point."""
        figures, points = samples.get((vehicle_id, CURRENT)), health.get(vehicle_id, [])
        if figures is None or figures.health_line is None or len(points) < 2:
            return []
        # A point's instant is its slot's middle, already in whole milliseconds.
        return [(at, figures.health_line.at(at * MILLIS)) for at, _ in (points[0], points[-1])]

    return BatterySeries(
        [
            ChargeSeries(vehicle_id=v.id, name=v.name, points=charge.get(v.id, []))
            for v in scope.vehicles
        ],
        [
            HealthSeries(
                vehicle_id=v.id, name=v.name, points=health.get(v.id, []), trend=trend(v.id)
            )
            for v in scope.vehicles
        ],
    )
