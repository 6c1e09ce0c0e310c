"""A partial week against the simulator's truth, with the clock fixed (product.md section 3).

Two Hamburg vehicles run from Saturday 14 November 2026 to Wednesday 25 November 18:00
(Europe/Berlin, no clock change), ingested through the real pipeline. On Wednesday 15:10
this week so far (Monday 23 November 00:00 to 15:10 on Wednesday) is compared with last
week's Monday 16 November 00:00 to Wednesday 18 November 15:10. The simulator is
deterministic and prefix-stable, so the truth of a window [a, b) is truth(b) - truth(a)
from runs of the same fleet ending at a and at b.
"""

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan
from fleetscope.analytics.productivity.productivity import productivity
from fleetscope.api.analytics_deps import reading
from fleetscope.appstore.db import make_session_factory
from fleetscope.facts.store import FactStore
from fleetscope.ingest.service import build_pipeline
from fleetscope.simulator import Truth, default_scenario, simulate

from .conftest import BERLIN, feed, seeded_store

SEED = 11
SERIALS = ("HAM-01", "HAM-02")
SCENARIO = default_scenario(vehicles=len(SERIALS), serial_prefix="HAM", interface="uagv")
OFFLINE_AFTER = timedelta(seconds=65)


def berlin(day: int, hour: int = 0, minute: int = 0) -> datetime:
    """Berlin wall-clock time on November ``day`` as UTC."""
    return datetime(2026, 11, day, hour, minute, tzinfo=BERLIN).astimezone(UTC)


START = berlin(14)  # Saturday: two days of lead-in before last week's Monday
END = berlin(25, 18)  # past now, so nothing of the window depends on how the run ends
NOW = berlin(25, 15, 10)  # Wednesday 15:10 (CET)
CURRENT = (berlin(23), NOW)
PREVIOUS = (berlin(16), berlin(18, 15, 10))


@functools.cache
def _truth_until(end: datetime) -> Truth:
    simulation = simulate(SCENARIO, seed=SEED, start=START, duration=end - START)
    for _ in simulation.timed_messages():
        pass
    return simulation.truth()


def _state_seconds(serial: str, start: datetime, end: datetime) -> dict[str, float]:
    """Truth of ``serial``'s state time in [start, end)."""

    def at(instant: datetime) -> dict[str, float]:
        return next(
            v for v in _truth_until(instant).vehicles if v.serial_number == serial
        ).state_seconds

    later, earlier = at(end), at(start)
    return {state: later[state] - earlier[state] for state in later}


@dataclass(frozen=True)
class Fleet:
    store: FactStore
    truth: Truth
    scope: AnalyticsScope


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    folder = tmp_path_factory.mktemp("comparison-truth")
    settings, engine, demo = seeded_store(folder)
    factory = make_session_factory(engine)
    site = demo.site_ids["Hamburg DC"]
    ids = [demo.vehicle_ids[serial] for serial in SERIALS]
    scope = AnalyticsScope(
        span=DaySpan(date(2026, 11, 23), date(2026, 11, 29)),
        combined=False,
        shift_id="all",
        vehicles=[VehicleRef(i, serial, site) for i, serial in zip(ids, SERIALS, strict=True)],
        sites=[SiteGroup(site, BERLIN, None, excluded=False, vehicle_ids=ids)],
    )
    with FactStore(settings.resolved_facts_path()) as store:
        pipeline = build_pipeline(settings, session_factory=factory, store=store)
        truth = feed(pipeline, simulate(SCENARIO, seed=SEED, start=START, duration=END - START))
        yield Fleet(store=store, truth=truth, scope=scope)
    engine.dispose()


def test_truth_of_the_whole_run_is_its_prefix(fleet: Fleet) -> None:
    """The premise of windowed truth: a separate run to END reproduces the ingested one."""
    assert _truth_until(END).vehicles == fleet.truth.vehicles


def test_partial_week_against_the_simulators_truth(fleet: Fleet) -> None:
    with reading(fleet.store) as cursor:
        data = productivity(cursor, fleet.scope, now=NOW, offline_after=OFFLINE_AFTER).model_dump(
            by_alias=True, mode="json"
        )
    period = data["period"]
    assert (period["start"], period["end"]) == ("2026-11-22T23:00:00Z", "2026-11-25T14:10:00Z")
    assert (period["previousStart"], period["previousEnd"]) == (
        "2026-11-15T23:00:00Z",
        "2026-11-18T14:10:00Z",
    )
    entries: dict[str, Any] = {entry["name"]: entry for entry in data["entries"]}
    for key, states, (start, end) in (
        ("kpis", "states", CURRENT),
        ("previous", "previousStates", PREVIOUS),
    ):
        elapsed = (end - start).total_seconds()
        assert elapsed == 2 * 86_400 + 15 * 3600 + 600
        fleet_truth: dict[str, float] = {}
        for serial in SERIALS:
            entry = entries[serial]
            truth = _state_seconds(serial, start, end)
            assert entry[key]["periodSeconds"] == elapsed
            for state, seconds in truth.items():
                assert abs(entry[states][state] - seconds) <= 1.0, (serial, key, state)
                fleet_truth[state] = fleet_truth.get(state, 0.0) + seconds
            finished = sum(
                1
                for order in fleet.truth.orders
                if order.serial_number == serial
                and order.outcome == "finished"
                and order.end is not None
                and start <= order.end < end
            )
            errors = sum(
                1
                for episode in fleet.truth.error_episodes
                if episode.serial_number == serial and start <= episode.start < end
            )
            assert entry[key]["ordersFinished"] == finished > 0, (serial, key)
            assert entry[key]["errors"] == errors > 0, (serial, key)
        whole = data["fleet"]
        assert whole[key]["periodSeconds"] == len(SERIALS) * elapsed
        for state, seconds in fleet_truth.items():
            assert abs(whole[states][state] - seconds) <= len(SERIALS) * 1.0, (key, state)
