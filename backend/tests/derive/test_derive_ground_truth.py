"""The simulator's messages through decode and derivation reproduce its ground truth.

A small fleet (one vehicle per protocol version: 2.0, 2.1, 1.1, 3.0) over twelve hours;
the full 6 vehicles x 3 days comparison through the ingest pipeline lives with the store.
"""

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from fleetscope.derive import DerivationConfig, VehicleDeriver
from fleetscope.facts.model import (
    ChargeSession,
    ErrorEpisode,
    Fact,
    OrderRun,
    StateInterval,
    TrackPoint,
)
from fleetscope.simulator.engine import simulate
from fleetscope.simulator.truth import Truth
from fleetscope.simulator.warehouse import default_scenario
from fleetscope.vda5050.decode import decode


@pytest.fixture(scope="module")
def derived() -> tuple[Truth, dict[str, list[Fact]]]:
    simulation = simulate(
        default_scenario(vehicles=4),
        seed=11,
        start=datetime(2026, 3, 2, 4, tzinfo=UTC),
        duration=timedelta(hours=12),
    )
    derivers: dict[str, VehicleDeriver] = {}
    facts: dict[str, list[Fact]] = {}
    for number, (topic, payload) in enumerate(simulation.messages()):
        message = decode(topic, payload, validate_schema=number % 20 == 0)
        serial = message.header.serial_number
        if serial not in derivers:
            derivers[serial] = VehicleDeriver(vehicle_id=len(derivers), config=DerivationConfig())
            facts[serial] = []
        facts[serial] += derivers[serial].feed(message)
    truth = simulation.truth()
    for serial, deriver in derivers.items():
        facts[serial] += deriver.open_facts(at=truth.end)
    return truth, facts


def test_every_protocol_version_is_in_the_fleet(
    derived: tuple[Truth, dict[str, list[Fact]]],
) -> None:
    truth, _ = derived
    assert {vehicle.version for vehicle in truth.vehicles} == {"1.1.0", "2.0.0", "2.1.0", "3.0.0"}


def test_time_per_state_and_distance(derived: tuple[Truth, dict[str, list[Fact]]]) -> None:
    truth, facts = derived
    for vehicle in truth.vehicles:
        seconds: Counter[str] = Counter()
        for fact in facts[vehicle.serial_number]:
            if isinstance(fact, StateInterval):
                seconds[fact.state.value] += (fact.end - fact.start).total_seconds()
        for state, expected in vehicle.state_seconds.items():
            assert seconds[state] == pytest.approx(expected, rel=0.005, abs=1.0), state
        distance = sum(
            fact.distance_m for fact in facts[vehicle.serial_number] if isinstance(fact, TrackPoint)
        )
        assert distance == pytest.approx(vehicle.distance_m, rel=0.01)


def test_orders_and_outcomes(derived: tuple[Truth, dict[str, list[Fact]]]) -> None:
    truth, facts = derived
    runs = {
        (serial, fact.order_id): fact
        for serial, items in facts.items()
        for fact in items
        if isinstance(fact, OrderRun)
    }
    assert len(runs) == len(truth.orders) > 50
    assert {order.outcome for order in truth.orders} == {"finished", "failed", "cancelled"}
    for order in truth.orders:
        run = runs[(order.serial_number, order.order_id)]
        assert run.outcome.value == order.outcome
        assert run.workflow == order.workflow
        assert abs((run.start - order.start).total_seconds()) <= 1
        assert order.end is not None and abs((run.end - order.end).total_seconds()) <= 1


def test_error_episodes_and_charge_sessions(
    derived: tuple[Truth, dict[str, list[Fact]]],
) -> None:
    truth, facts = derived
    episodes = Counter(
        (serial, fact.error_type, fact.level, fact.start, fact.end)
        for serial, items in facts.items()
        for fact in items
        if isinstance(fact, ErrorEpisode)
    )
    expected = Counter(
        (error.serial_number, error.error_type, error.level, error.start, error.end or truth.end)
        for error in truth.error_episodes
    )
    assert episodes == expected and episodes
    sessions = Counter(
        (serial, fact.start, fact.end, fact.start_charge)
        for serial, items in facts.items()
        for fact in items
        if isinstance(fact, ChargeSession)
    )
    expected_sessions = Counter(
        (charge.serial_number, charge.start, charge.end or truth.end, charge.start_charge)
        for charge in truth.charge_sessions
    )
    assert sessions == expected_sessions and sessions
