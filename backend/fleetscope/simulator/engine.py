"""Run a scenario: every vehicle's messages merged in publish order, then the truth.

Vehicles do not interact (no traffic control), so each one is simulated by its own
generator with its own random stream (seeded from the run's seed and its serial number),
and a heap merge puts all messages in timestamp order. No wall clock, no global random.
"""

import heapq
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta

from fleetscope.simulator.payloads import ms_to_datetime
from fleetscope.simulator.randomness import ErrorSampler, ShiftCalendar
from fleetscope.simulator.routing import Router
from fleetscope.simulator.scenario import Scenario
from fleetscope.simulator.truth import LOAD_HANDLING_TYPES, Truth, VehicleTruth
from fleetscope.simulator.vehicle import VehicleProcess

OFFLINE_AFTER_SECONDS = 65.0

# (timestamp in ms since the epoch, topic, payload bytes)
TimedMessage = tuple[int, str, bytes]


def _to_ms(value: datetime) -> int:
    if value.tzinfo is None:
        raise ValueError("start must be timezone-aware")
    return round(value.timestamp() * 1000)


class FleetSimulation:
    """One seeded run. Iterate its messages once; ``truth()`` is complete afterwards."""

    def __init__(
        self, scenario: Scenario, *, seed: int, start: datetime, duration: timedelta
    ) -> None:
        if duration <= timedelta(0):
            raise ValueError("duration must be positive")
        self.scenario = scenario
        self.seed = seed
        self.start_ms = _to_ms(start)
        self.end_ms = self.start_ms + round(duration.total_seconds() * 1000)
        router = Router(scenario.layout)
        calendar = ShiftCalendar(volume=scenario.volume, time_zone=scenario.site_time_zone)
        sampler = ErrorSampler(
            error_types=scenario.error_types,
            exponent=scenario.incidents.zipf_exponent,
            hotspot_factor=scenario.incidents.hotspot_factor,
        )
        serials = [v.serial_number for v in scenario.vehicles]
        if len(set(serials)) != len(serials):
            raise ValueError("serial numbers must be unique")
        self._vehicles = [
            VehicleProcess(
                scenario=scenario,
                spec=spec,
                index=index,
                seed=seed,
                start_ms=self.start_ms,
                end_ms=self.end_ms,
                router=router,
                calendar=calendar,
                errors=sampler,
            )
            for index, spec in enumerate(scenario.vehicles)
        ]
        self._started = False
        self._finished = False

    def timed_messages(self) -> Iterator[TimedMessage]:
        """Every message in publish order (timestamp, then vehicle, then its own order)."""
        if self._started:
            raise RuntimeError("a simulation's messages can be iterated only once")
        self._started = True
        for at_ms, _vehicle, _number, topic, payload in heapq.merge(
            *(vehicle.run() for vehicle in self._vehicles)
        ):
            yield at_ms, topic, payload
        self._finished = True

    def messages(self) -> Iterator[tuple[str, bytes]]:
        for _at, topic, payload in self.timed_messages():
            yield topic, payload

    def truth(self) -> Truth:
        """The ground truth; only after all messages were iterated."""
        if not self._finished:
            raise RuntimeError("iterate all messages before asking for the truth")
        scenario = self.scenario
        truth = Truth(
            seed=self.seed,
            start=ms_to_datetime(self.start_ms),
            end=ms_to_datetime(self.end_ms),
            offline_after_seconds=OFFLINE_AFTER_SECONDS,
        )
        for vehicle in self._vehicles:
            recorder = vehicle.truth
            if recorder.first_ms is None:
                continue
            actions = {kind: dict(counts) for kind, counts in sorted(recorder.actions.items())}
            truth.vehicles.append(
                VehicleTruth(
                    manufacturer=scenario.manufacturer,
                    serial_number=vehicle.spec.serial_number,
                    interface=scenario.interface,
                    version=vehicle.spec.version.value,
                    first_message=ms_to_datetime(recorder.first_ms),
                    state_seconds=recorder.state_seconds(end_ms=self.end_ms),
                    distance_m=round(recorder.distance_m, 3),
                    loads_handled=sum(
                        counts.get("finished", 0)
                        for kind, counts in actions.items()
                        if kind.lower() in LOAD_HANDLING_TYPES
                    ),
                    actions=actions,
                    messages=recorder.messages,
                    discharged_pct=round(recorder.discharged_pct, 6),
                )
            )
            truth.orders.extend(recorder.orders)
            if recorder.open_order is not None:
                truth.open_orders.append(recorder.open_order)
            truth.error_episodes.extend(recorder.errors)
            truth.charge_sessions.extend(recorder.charges)
        truth.orders.sort(key=lambda o: (o.start, o.serial_number, o.order_id))
        truth.error_episodes.sort(key=lambda e: (e.start, e.serial_number, e.error_type))
        truth.charge_sessions.sort(key=lambda c: (c.start, c.serial_number))
        return truth


def merged_messages(simulations: Iterable[FleetSimulation]) -> Iterator[TimedMessage]:
    """Messages of several runs (e.g. two sites' fleets) in one timestamp order."""
    return heapq.merge(*(s.timed_messages() for s in simulations), key=lambda m: m[0])


def simulate(
    scenario: Scenario, *, seed: int, start: datetime, duration: timedelta
) -> FleetSimulation:
    """A deterministic run of ``scenario``: same arguments, same bytes, same truth."""
    return FleetSimulation(scenario, seed=seed, start=start, duration=duration)
