"""A small, incident-heavy simulated fleet shared by the simulator tests (one run per session)."""

import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from fleetscope.simulator import Truth, default_scenario, simulate
from fleetscope.simulator.engine import TimedMessage
from fleetscope.simulator.scenario import BatteryModel, Incidents, Scenario

START = datetime(2026, 11, 2, tzinfo=UTC)  # a Monday


def stress_scenario(*, vehicles: int = 6) -> Scenario:
    """The default warehouse with every incident made frequent, so one day shows them all."""
    scenario = default_scenario(vehicles=vehicles)
    fleet = tuple(
        dataclasses.replace(spec, offline_per_day=5.0, manual_per_day=3.0)
        for spec in scenario.vehicles
    )
    return dataclasses.replace(
        scenario,
        vehicles=fleet,
        battery=BatteryModel(drain_percent_per_m=0.012),
        incidents=Incidents(
            error_per_node=0.02,
            cancel_per_order=0.08,
            replace_per_order=0.08,
            pick_fail_per_order=0.06,
            offline_minutes=(2.0, 20.0),
            manual_minutes=(2.0, 15.0),
        ),
    )


@dataclass(frozen=True)
class Run:
    scenario: Scenario
    messages: list[TimedMessage]
    truth: Truth


@pytest.fixture(scope="session")
def stress_run() -> Run:
    scenario = stress_scenario()
    simulation = simulate(scenario, seed=11, start=START, duration=timedelta(days=1))
    messages = list(simulation.timed_messages())
    return Run(scenario=scenario, messages=messages, truth=simulation.truth())
