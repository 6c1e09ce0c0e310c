"""A seeded fleet simulated, ingested through the real pipeline and served, once per session.

Four Hamburg vehicles of the demo's first organization run three site-local days around
the end of daylight-saving time (2026-10-24 .. 2026-10-26, Europe/Berlin; the 25th has 25
hours), two Munich vehicles of the second organization one day. The simulator's truth is
the reference. Truth for a window [a, b) comes from re-running one vehicle to a and to b:
the simulator is deterministic and prefix-stable (each vehicle has its own random stream),
so state time in the window is truth(b) - truth(a) (``test_truth_windows_are_prefixes``
checks this premise).
"""

import dataclasses
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from fleetscope.api.deps import CSRF_COOKIE, CSRF_HEADER
from fleetscope.api.main import create_app
from fleetscope.appstore.db import create_db_engine, make_session_factory, migrate_engine
from fleetscope.demo.seed import DemoData, seed_demo
from fleetscope.facts.store import FactStore
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.pipeline import IngestPipeline
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings
from fleetscope.simulator import Truth, default_scenario, simulate
from fleetscope.simulator.engine import FleetSimulation
from fleetscope.simulator.payloads import ms_to_datetime
from fleetscope.simulator.scenario import Scenario

BERLIN = ZoneInfo("Europe/Berlin")
# UTC instants: differences of aware datetimes sharing one tzinfo are wall-clock differences.
START = datetime(2026, 10, 24, tzinfo=BERLIN).astimezone(UTC)
END = datetime(2026, 10, 27, tzinfo=BERLIN).astimezone(UTC)  # 73 hours later: the 25th has 25
SEED = 7
HAM_VEHICLES = 4
MUC_VEHICLES = 2
BATCH = 5000


@dataclass(frozen=True)
class World:
    settings: Settings
    demo: DemoData
    truth: Truth
    muc_truth: Truth
    ham_scenario: Scenario

    def vehicle_id(self, serial: str) -> int:
        return self.demo.vehicle_ids[serial]

    @property
    def ham_ids(self) -> list[int]:
        return [self.vehicle_id(f"HAM-{n:02d}") for n in range(1, HAM_VEHICLES + 1)]

    @property
    def muc_ids(self) -> list[int]:
        return [self.vehicle_id(f"MUC-{n:02d}") for n in range(1, MUC_VEHICLES + 1)]


def seeded_store(folder: Path) -> tuple[Settings, Engine, DemoData]:
    """Settings on ``folder`` and their application store, migrated and seeded with the
    demo tenants; the caller disposes of the engine."""
    settings = Settings(
        _env_file=None,
        environment="test",
        data_dir=folder,
        database_url=f"sqlite:///{folder / 'app.sqlite'}",
        facts_path=str(folder / "facts.duckdb"),
        frontend_dist=folder / "no-frontend-build",
        mqtt_url="",
    )
    engine = create_db_engine(url=settings.resolved_database_url())
    migrate_engine(engine)
    with make_session_factory(engine)() as session:
        demo = seed_demo(session)
    return settings, engine, demo


def feed(pipeline: IngestPipeline, simulation: FleetSimulation) -> Truth:
    """Every message of ``simulation`` through ``pipeline`` in batches of ``BATCH``, each
    received at its simulated instant; returns the simulation's truth."""
    batch: list[RawMessage] = []
    for at_ms, topic, payload in simulation.timed_messages():
        batch.append(RawMessage(topic=topic, payload=payload, received_at=ms_to_datetime(at_ms)))
        if len(batch) == BATCH:
            pipeline.process(batch)
            batch = []
    pipeline.process(batch)
    return simulation.truth()


def _ingest(
    settings: Settings, factory: Any, truths: list[tuple[Scenario, datetime]]
) -> list[Truth]:
    with FactStore(settings.resolved_facts_path()) as store:
        pipeline = build_pipeline(settings, session_factory=factory, store=store)
        return [
            feed(pipeline, simulate(scenario, seed=SEED, start=START, duration=end - START))
            for scenario, end in truths
        ]


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    folder: Path = tmp_path_factory.mktemp("analytics")
    settings, engine, demo = seeded_store(folder)
    factory = make_session_factory(engine)
    ham = default_scenario(vehicles=HAM_VEHICLES, serial_prefix="HAM", interface="uagv")
    muc = default_scenario(vehicles=MUC_VEHICLES, serial_prefix="MUC", interface="uagv-muc")
    truth, muc_truth = _ingest(settings, factory, [(ham, END), (muc, START + timedelta(days=1))])
    engine.dispose()
    return World(settings=settings, demo=demo, truth=truth, muc_truth=muc_truth, ham_scenario=ham)


@pytest.fixture(scope="session")
def app(world: World) -> FastAPI:
    return create_app(world.settings)


@pytest.fixture(scope="session")
def running(app: FastAPI) -> Iterator[TestClient]:
    """Starts the app once (fact store opened by its lifespan)."""
    with TestClient(app) as client:
        yield client


def _logged_in(app: FastAPI, email: str) -> TestClient:
    client = TestClient(app)
    response = client.post("/v2/User/login", json={"email": email, "password": "demo"})
    assert response.status_code == 200, response.text
    client.headers[CSRF_HEADER] = client.cookies[CSRF_COOKIE]
    return client


@pytest.fixture(scope="session")
def customer(app: FastAPI, running: TestClient) -> TestClient:
    return _logged_in(app, "customer@demo.fleetscope")


@pytest.fixture(scope="session")
def customer2(app: FastAPI, running: TestClient) -> TestClient:
    return _logged_in(app, "customer2@demo.fleetscope")


@functools.lru_cache(maxsize=16)
def _first_vehicle_seconds(scenario: Scenario, end: datetime) -> tuple[tuple[str, float], ...]:
    single = dataclasses.replace(scenario, vehicles=scenario.vehicles[:1])
    simulation = simulate(single, seed=SEED, start=START, duration=end - START)
    for _ in simulation.timed_messages():
        pass
    vehicle = simulation.truth().vehicles[0]
    return tuple(sorted(vehicle.state_seconds.items()))


def first_vehicle_state_seconds(world: World, start: datetime, end: datetime) -> dict[str, float]:
    """Truth of HAM-01's state time in [start, end) (both inside the simulated span)."""
    start, end = start.astimezone(UTC), end.astimezone(UTC)
    later = dict(_first_vehicle_seconds(world.ham_scenario, end))
    if start <= START:
        return later
    earlier = dict(_first_vehicle_seconds(world.ham_scenario, start))
    return {state: later[state] - earlier[state] for state in later}
