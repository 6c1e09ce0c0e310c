"""Additive measures of one vehicle (or a fleet) over part of T, and the p50 of cycle times.

Everything is a sum, a count or a minimum, so measures of hours, pieces, vehicles and
buckets add up in any order (as rows of ``measure_table``); the KPIs are computed from the
totals at the end. ``Measures`` is one key's row in named form.
"""

import math
from dataclasses import dataclass, field

from fleetscope.facts.model import VehicleState
from fleetscope.facts.rollup import CYCLE_BUCKET_COUNT, cycle_bucket_lower_bounds

STATES: tuple[str, ...] = tuple(state.value for state in VehicleState)
_LOWER_BOUNDS = cycle_bucket_lower_bounds()


def _zero_states() -> dict[str, float]:
    return dict.fromkeys(STATES, 0.0)


def _zero_hist() -> list[int]:
    return [0] * CYCLE_BUCKET_COUNT


@dataclass(slots=True)
class Measures:
    states: dict[str, float] = field(default_factory=_zero_states)  # seconds per state
    orders_finished: int = 0
    orders_failed: int = 0
    orders_cancelled: int = 0
    cycle_hist: list[int] = field(default_factory=_zero_hist)  # finished orders' cycle times
    errors: int = 0  # error episodes of every level started
    stop_errors: int = 0  # stop-level episodes (FATAL; 3.0 also CRITICAL) started
    stop_error_s: float = 0.0  # their total duration
    distance_m: float = 0.0
    loads_handled: int = 0
    # The time-weighted mean charge's parts (``facts.rollup.MICROS``): microseconds the
    # reported charges held, and the charge integrated over them (percent-seconds).
    battery_samples: int = 0
    battery_charge_sum: float = 0.0
    battery_charge_min: float | None = None

    @property
    def covered_s(self) -> float:
        """Time with a known state (T without the time before a vehicle's first message)."""
        return sum(self.states.values())


def hist_percentile(hist: list[int], quantile: float) -> float | None:
    """Percentile of a cycle-time histogram, interpolated geometrically inside its bucket.

    The buckets are 19 % wide, so the estimate is within about 10 % of the exact value.
    """
    count = sum(hist)
    if count == 0:
        return None
    rank = quantile * count
    seen = 0
    for index, in_bucket in enumerate(hist):
        if in_bucket == 0:
            continue
        if seen + in_bucket >= rank:
            share = (rank - seen) / in_bucket
            lower = _LOWER_BOUNDS[index]
            if index + 1 < len(_LOWER_BOUNDS):
                upper = _LOWER_BOUNDS[index + 1]
            else:
                upper = lower * 2**0.25
            if lower <= 0:
                return upper * share
            return lower * math.pow(upper / lower, share)
        seen += in_bucket
    return _LOWER_BOUNDS[-1]
