"""What the battery page reads from the samples: the period's time slots, the slots of the
charge lines, the fitted health line, and the figures of one vehicle in one bucket."""

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fleetscope.analytics.core.periods import Window
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros

MICROS = 1_000_000
_MILLIS = 1_000


@dataclass(frozen=True, slots=True)
class HealthLine:
    """A fitted health line over epoch seconds: health = intercept + slope x seconds."""

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

    @classmethod
    def covering(cls, window: Window) -> "SlotGrid":
        """One slot of whole UTC hours over all of ``window``."""
        start_us, end_us = to_micros(window.start), to_micros(window.end)
        start_us -= start_us % MICROS_PER_HOUR
        hours = max(1, -(-(end_us - start_us) // MICROS_PER_HOUR))
        return cls(start_us, hours * MICROS_PER_HOUR, 1, window)

    @property
    def hour_aligned(self) -> bool:
        return self.start_us % MICROS_PER_HOUR == 0 and self.width_us % MICROS_PER_HOUR == 0

    def middles_us(self) -> npt.NDArray[np.int64]:
        """Every slot's middle (to the millisecond), moved into the period."""
        first = self.start_us + self.width_us // 2
        middles = first + np.arange(self.count, dtype=np.int64) * self.width_us
        middles = np.clip(middles, to_micros(self.period.start), to_micros(self.period.end))
        return middles - middles % _MILLIS


@dataclass(frozen=True, slots=True)
class ChargeLines:
    """The period's slots with samples, of every vehicle (by vehicle, then slot), as arrays:
    what the charge and health lines are drawn from. Instants in epoch microseconds."""

    vehicle_id: npt.NDArray[np.int64]
    slot: npt.NDArray[np.int64]  # the slot's number in the grid
    low_at: npt.NDArray[np.float64]
    low: npt.NDArray[np.float64]
    high_at: npt.NDArray[np.float64]
    high: npt.NDArray[np.float64]
    health: npt.NDArray[np.float64]  # mean SoH of the slot's samples reporting one; NaN: none


@dataclass(slots=True)
class SampleFigures:
    """What the samples of one vehicle in one bucket give."""

    health_latest: float | None = None
    health_line: HealthLine | None = None  # least squares over the bucket's samples
    below_low_seconds: float = 0.0
    discharged: float = 0.0  # percentage points the charge fell inside the bucket
