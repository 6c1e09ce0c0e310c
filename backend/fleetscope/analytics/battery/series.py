"""The battery page's time slots and its charge and health lines per vehicle, from the slots
of ``scan`` (docs/analytics-v2.md, Battery: series, healthSeries)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.core.facts import CURRENT
from fleetscope.analytics.core.models import EpochMillis, epoch_millis
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import Window
from fleetscope.appstore.schemas import camel_case
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros

T = TypeVar("T")
Units = dict[str, npt.NDArray[Any]]
SERIES_BUCKETS = 250
SERIES_POINT_BUDGET = 10_000
MIN_SERIES_BUCKETS = 50
MICROS = 1_000_000
_MILLIS = 1_000


@dataclass(frozen=True, slots=True)
class HealthLine:
    """health = intercept + slope x epoch seconds"""

    slope_per_second: float
    intercept: float

    def at(self, epoch_us: int) -> float:
        return self.intercept + self.slope_per_second * epoch_us / MICROS


@dataclass(frozen=True, slots=True)
class SlotGrid:
    """Slot ``i`` is [start + i x width, start + (i + 1) x width), over a period that the
    slots cover: the first slot may begin before it (at the full hour), the last end after."""

    start_us: int
    width_us: int
    count: int
    period: Window

    @classmethod
    def over(cls, window: Window, *, slots: int) -> "SlotGrid":
        """About ``slots`` equal slots over ``window``, each at least a second wide. Slots of
        an hour or more are whole UTC hours from a full hour on (``hour_aligned``: their
        figures then compose from the hourly battery rows), so there may be a few fewer."""
        start_us, end_us = to_micros(window.start), to_micros(window.end)
        width_us = max((end_us - start_us) // max(1, slots), MICROS)
        if width_us >= MICROS_PER_HOUR:
            start_us -= start_us % MICROS_PER_HOUR
            width_us = -(-(end_us - start_us) // max(1, slots) // MICROS_PER_HOUR)
            width_us = max(1, width_us) * MICROS_PER_HOUR
        return cls(start_us, width_us, max(1, -(-(end_us - start_us) // width_us)), window)

    @property
    def hour_aligned(self) -> bool:
        return self.start_us % MICROS_PER_HOUR == 0 and self.width_us % MICROS_PER_HOUR == 0

    def middles_us(self) -> npt.NDArray[np.int64]:
        """Every slot's middle (to the millisecond), moved into the period."""
        first = self.start_us + self.width_us // 2
        middles = first + np.arange(self.count, dtype=np.int64) * self.width_us
        middles = np.clip(middles, to_micros(self.period.start), to_micros(self.period.end))
        return middles - middles % _MILLIS


@dataclass(slots=True)
class SampleFigures:  # of one vehicle in one bucket
    health_latest: float | None = None
    health_line: HealthLine | None = None  # least squares over the bucket's samples
    below_low_seconds: float = 0.0
    discharged: float = 0.0  # percentage points the charge fell inside the bucket


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


def vehicle_starts(vehicles: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """The first row of each vehicle in ``vehicles`` (grouped by vehicle; ids are not negative)."""
    return np.flatnonzero(np.diff(vehicles, prepend=-1))


def _by_vehicle(vehicles: npt.NDArray[np.int64], values: list[T]) -> dict[int, list[T]]:
    """``values`` (one per entry of ``vehicles``, grouped by vehicle) per vehicle."""
    starts = vehicle_starts(vehicles).tolist()
    ends = [*starts[1:], len(vehicles)]
    return {int(vehicles[s]): values[s:e] for s, e in zip(starts, ends, strict=True)}


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
        return [(at, figures.health_line.at(at * _MILLIS)) for at, _ in (points[0], points[-1])]

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
