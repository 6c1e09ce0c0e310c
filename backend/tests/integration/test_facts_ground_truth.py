"""The fact store reproduces the simulator's ground truth (issue 3, section 7).

Six vehicles of every protocol version run three days; their messages go through the real
ingestion pipeline into DuckDB, and the stored facts are compared with what the simulator
says happened: time per state within 0.5 %, orders and outcomes exactly with start and end
within 1 s, error episodes and charge sessions exactly, distance within 1 %.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select

from fleetscope.appstore.db import create_db_engine, make_session_factory, migrate_engine
from fleetscope.appstore.models import Vehicle
from fleetscope.demo.seed import seed_demo
from fleetscope.facts.store import FactStore
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings
from fleetscope.simulator import Truth, default_scenario, simulate
from fleetscope.simulator.payloads import ms_to_datetime

START = datetime(2026, 11, 2, tzinfo=UTC)
DAYS = 3
VEHICLES = 6
SECOND = timedelta(seconds=1)


@dataclass(frozen=True)
class Stored:
    truth: Truth
    serial_of: dict[int, str]
    facts: Path


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Stored:
    folder = tmp_path_factory.mktemp("truth")
    settings = Settings(
        _env_file=None,
        environment="test",
        data_dir=folder,
        database_url=f"sqlite:///{folder / 'app.sqlite'}",
        facts_path=str(folder / "facts.duckdb"),
    )
    engine = create_db_engine(url=settings.resolved_database_url())
    migrate_engine(engine)
    factory = make_session_factory(engine)
    with factory() as session:
        seed_demo(session)
    scenario = default_scenario(vehicles=VEHICLES, serial_prefix="HAM", interface="uagv")
    simulation = simulate(scenario, seed=7, start=START, duration=timedelta(days=DAYS))
    with FactStore(settings.resolved_facts_path()) as store:
        pipeline = build_pipeline(settings, session_factory=factory, store=store)
        batch: list[RawMessage] = []
        for at_ms, topic, payload in simulation.timed_messages():
            batch.append(
                RawMessage(topic=topic, payload=payload, received_at=ms_to_datetime(at_ms))
            )
            if len(batch) == 5_000:
                assert pipeline.process(batch).rejected == 0
                batch = []
        assert pipeline.process(batch).rejected == 0
        truth = simulation.truth()
        # The clock reaches the end of the run: silent vehicles go offline as in the truth.
        pipeline.tick(now=truth.end)
    with factory() as session:
        serial_of = {v.id: v.serial_number for v in session.scalars(select(Vehicle))}
    engine.dispose()
    return Stored(truth=truth, serial_of=serial_of, facts=settings.resolved_facts_path())


def _rows(stored: Stored, sql: str) -> list[tuple[object, ...]]:
    with FactStore(stored.facts) as store:
        return store.cursor().execute(sql).fetchall()


def test_the_fleet_speaks_every_protocol_version(stored: Stored) -> None:
    versions = {vehicle.version for vehicle in stored.truth.vehicles}
    assert versions == {"1.1.0", "2.0.0", "2.1.0", "3.0.0"}


def test_time_per_state_per_vehicle_within_half_a_percent(stored: Stored) -> None:
    seconds: dict[str, Counter[str]] = defaultdict(Counter)
    for vehicle_id, state, start, end in _rows(
        stored, "SELECT vehicle_id, state, start_at, end_at FROM state_intervals"
    ):
        assert isinstance(start, datetime) and isinstance(end, datetime)
        seconds[stored.serial_of[int(str(vehicle_id))]][str(state)] += (end - start).total_seconds()
    # The state still open at the end of the run runs until the end, as in the truth.
    for vehicle_id, state, since in _rows(
        stored, "SELECT vehicle_id, state, since FROM live_status"
    ):
        assert isinstance(since, datetime)
        open_seconds = (stored.truth.end - since).total_seconds()
        seconds[stored.serial_of[int(str(vehicle_id))]][str(state)] += open_seconds
    for vehicle in stored.truth.vehicles:
        span = sum(vehicle.state_seconds.values())
        derived = seconds[vehicle.serial_number]
        for state, expected in vehicle.state_seconds.items():
            assert derived[state] == pytest.approx(expected, abs=0.005 * span), (
                vehicle.serial_number,
                state,
            )


def test_orders_and_outcomes_exactly_with_times_within_a_second(stored: Stored) -> None:
    rows = _rows(
        stored, "SELECT vehicle_id, order_id, workflow, outcome, start_at, end_at FROM orders"
    )
    derived = {
        (stored.serial_of[int(str(v))], str(order)): (str(workflow), str(outcome), start, end)
        for v, order, workflow, outcome, start, end in rows
    }
    expected = {(o.serial_number, o.order_id): o for o in stored.truth.orders}
    assert len(rows) == len(derived), "an order was stored twice"
    assert derived.keys() == expected.keys()
    outcomes = Counter(o.outcome for o in stored.truth.orders)
    assert set(outcomes) == {"finished", "failed", "cancelled"}
    for key, order in expected.items():
        workflow, outcome, start, end = derived[key]
        assert (workflow, outcome) == (order.workflow, order.outcome), key
        assert isinstance(start, datetime) and isinstance(end, datetime) and order.end
        assert abs(start - order.start) <= SECOND and abs(end - order.end) <= SECOND, key


def test_error_episodes_exactly(stored: Stored) -> None:
    rows = _rows(
        stored,
        "SELECT vehicle_id, error_type, level, references_json, start_at, end_at "
        "FROM error_episodes",
    )
    derived = Counter()
    for vehicle_id, error_type, level, references, start, end in rows:
        assert isinstance(start, datetime) and isinstance(end, datetime)
        node = orjson.loads(str(references)).get("nodeId", "")
        derived[
            (
                stored.serial_of[int(str(vehicle_id))],
                error_type,
                level,
                node,
                round(start.timestamp()),
                round(end.timestamp()),
            )
        ] += 1
    closed = [e for e in stored.truth.error_episodes if e.end is not None]
    expected = Counter(
        (
            e.serial_number,
            e.error_type,
            e.level,
            e.node_id,
            round(e.start.timestamp()),
            round(e.end.timestamp()),
        )
        for e in closed
        if e.end is not None
    )
    assert len(closed) > 20
    assert derived == expected
    open_now = sum(
        len(orjson.loads(str(errors)))
        for (errors,) in _rows(stored, "SELECT active_errors FROM live_status")
    )
    assert open_now == len(stored.truth.error_episodes) - len(closed)


def test_charge_sessions_exactly(stored: Stored) -> None:
    rows = _rows(
        stored,
        "SELECT vehicle_id, start_at, end_at, start_charge, end_charge FROM charge_sessions",
    )
    derived = sorted(
        (stored.serial_of[int(str(v))], round(s.timestamp()), round(e.timestamp()), sc, ec)
        for v, s, e, sc, ec in rows
        if isinstance(s, datetime) and isinstance(e, datetime)
    )
    expected = sorted(
        (
            c.serial_number,
            round(c.start.timestamp()),
            round(c.end.timestamp()),
            c.start_charge,
            c.end_charge,
        )
        for c in stored.truth.charge_sessions
        if c.end is not None
    )
    assert len(expected) >= VEHICLES
    assert derived == expected


def test_distance_per_vehicle_within_one_percent(stored: Stored) -> None:
    rows = _rows(stored, "SELECT vehicle_id, sum(distance_m) FROM track_points GROUP BY 1")
    derived = {stored.serial_of[int(str(v))]: float(str(d)) for v, d in rows}
    for vehicle in stored.truth.vehicles:
        assert vehicle.distance_m > 1_000
        assert derived[vehicle.serial_number] == pytest.approx(vehicle.distance_m, rel=0.01)
