"""Cross-check: decoding and deriving the simulated messages reproduces the truth.

The lead's ground-truth test covers the full pipeline (ingestion, fact store); this one
feeds ``fleetscope.vda5050.decode`` and ``fleetscope.derive.VehicleDeriver`` directly with
the incident-heavy fleet, so a disagreement points at the simulator or the derivation.
"""

from collections import defaultdict
from datetime import datetime

from fleetscope.derive import DerivationConfig, VehicleDeriver
from fleetscope.facts.model import (
    ChargeSession,
    ErrorEpisode,
    Fact,
    OrderRun,
    StateInterval,
    TrackPoint,
)
from fleetscope.vda5050.decode import decode

from .conftest import Run


def _derive(run: Run) -> dict[str, list[Fact]]:
    derivers: dict[str, VehicleDeriver] = {}
    facts: dict[str, list[Fact]] = defaultdict(list)
    for _at, topic, payload in run.messages:
        message = decode(topic, payload)
        serial = message.header.serial_number
        if serial not in derivers:
            derivers[serial] = VehicleDeriver(
                vehicle_id=len(derivers) + 1, config=DerivationConfig()
            )
        facts[serial].extend(derivers[serial].feed(message))
    for serial, deriver in derivers.items():
        facts[serial].extend(deriver.tick(now=run.truth.end))
        facts[serial].extend(deriver.open_facts(at=run.truth.end))
    return facts


def _seconds(start: datetime, end: datetime) -> float:
    return (end - start).total_seconds()


def test_derived_facts_match_the_truth(stress_run: Run) -> None:
    truth = stress_run.truth
    facts = _derive(stress_run)
    for vehicle in truth.vehicles:
        derived = facts[vehicle.serial_number]
        seconds: dict[str, float] = defaultdict(float)
        for fact in derived:
            if isinstance(fact, StateInterval):
                seconds[fact.state.value] += _seconds(fact.start, fact.end)
        for state, expected in vehicle.state_seconds.items():
            assert abs(seconds[state] - expected) <= max(0.005 * expected, 1.0), (
                vehicle.serial_number,
                state,
            )
        distance = sum(f.distance_m for f in derived if isinstance(f, TrackPoint))
        assert abs(distance - vehicle.distance_m) <= 0.01 * vehicle.distance_m

        runs = {f.order_id: f for f in derived if isinstance(f, OrderRun)}
        orders = [o for o in truth.orders if o.serial_number == vehicle.serial_number]
        assert set(runs) == {o.order_id for o in orders}
        for order in orders:
            run = runs[order.order_id]
            assert order.end is not None
            assert (run.outcome.value, run.workflow) == (order.outcome, order.workflow), (
                order.order_id
            )
            assert (
                abs(_seconds(order.start, run.start)) <= 1
                and abs(_seconds(order.end, run.end)) <= 1
            )

        expected_errors = sorted(
            (e.error_type, e.level, e.start, e.end or truth.end)
            for e in truth.error_episodes
            if e.serial_number == vehicle.serial_number
        )
        assert expected_errors == sorted(
            (f.error_type, f.level, f.start, f.end) for f in derived if isinstance(f, ErrorEpisode)
        )
        expected_charges = sorted(
            (c.start, c.end or truth.end, c.start_charge)
            for c in truth.charge_sessions
            if c.serial_number == vehicle.serial_number
        )
        assert expected_charges == sorted(
            (f.start, f.end, f.start_charge) for f in derived if isinstance(f, ChargeSession)
        )
