"""Random draws the simulator needs: shift-dependent arrivals and Zipf error types.

Every draw takes the caller's ``random.Random`` so a run depends on its seed only.
"""

import bisect
import itertools
import math
import random
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from fleetscope.simulator.scenario import ErrorType, ShiftVolume

_HOUR_MS = 3_600_000
_QUARTER_MS = _HOUR_MS // 4


class ShiftCalendar:
    """Order intensity at an instant, by the site's local weekday and hour, cached per quarter
    of an hour: every zone's offset is a multiple of 15 minutes (Kolkata +05:30, Kathmandu
    +05:45), so a quarter never straddles a local hour, while a UTC hour may."""

    def __init__(self, *, volume: ShiftVolume, time_zone: str) -> None:
        self._volume = volume
        self._zone = ZoneInfo(time_zone)
        self._by_quarter: dict[int, float] = {}

    def intensity(self, at_ms: int) -> float:
        quarter = at_ms // _QUARTER_MS
        cached = self._by_quarter.get(quarter)
        if cached is None:
            start = datetime.fromtimestamp(quarter * _QUARTER_MS / 1000, UTC)
            local = start.astimezone(self._zone)
            cached = self._volume.intensity(weekday=local.weekday(), hour=local.hour)
            self._by_quarter[quarter] = cached
        return cached

    def next_arrival(self, rng: random.Random, *, after_ms: int, limit_ms: int) -> int:
        """Next arrival of the non-homogeneous Poisson process (thinning; intensity <= 1)."""
        rate_per_ms = self._volume.orders_per_hour / _HOUR_MS
        at = after_ms
        while at <= limit_ms:
            at += max(1, round(rng.expovariate(rate_per_ms)))
            if rng.random() < self.intensity(at):
                return at
        return at


class ErrorSampler:
    """Zipf-weighted error types; a hotspot node multiplies both the chance and its types."""

    def __init__(
        self, *, error_types: tuple[ErrorType, ...], exponent: float, hotspot_factor: float
    ) -> None:
        self.error_types = error_types
        self._zipf = [1.0 / (rank**exponent) for rank in range(1, len(error_types) + 1)]
        self._hotspot_factor = hotspot_factor
        self._hotspot_nodes = {node for e in error_types for node in e.hotspots}
        self._cumulative: dict[str, list[float]] = {}

    def zipf_shares(self) -> list[float]:
        total = sum(self._zipf)
        return [w / total for w in self._zipf]

    def chance_at(self, node_id: str, *, base: float) -> float:
        return base * self._hotspot_factor if node_id in self._hotspot_nodes else base

    def choose(self, rng: random.Random, node_id: str) -> ErrorType:
        cumulative = self._cumulative.get(node_id)
        if cumulative is None:
            weights = [
                w * (self._hotspot_factor if node_id in e.hotspots else 1.0)
                for w, e in zip(self._zipf, self.error_types, strict=True)
            ]
            cumulative = self._cumulative[node_id] = list(itertools.accumulate(weights))
        index = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
        return self.error_types[min(index, len(self.error_types) - 1)]


def log_uniform(rng: random.Random, low: float, high: float) -> float:
    return math.exp(rng.uniform(math.log(low), math.log(high)))
