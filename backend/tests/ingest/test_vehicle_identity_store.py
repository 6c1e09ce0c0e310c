"""The app store's side of vehicle identity, on SQLite and PostgreSQL: a serial number is
unique per site, the registry never mixes sites, migration 0002 keeps existing vehicles,
and an MQTT interface names exactly one site."""

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, func, select, text
from sqlalchemy.exc import IntegrityError
from typer.testing import CliRunner, Result

from fleetscope.appstore.db import (
    SessionFactory,
    make_session_factory,
)
from fleetscope.appstore.errors import ConflictError, InvalidInputError
from fleetscope.appstore.models import Organization, Site, Vehicle
from fleetscope.appstore.organizations import create_organization, create_site
from fleetscope.cli.main import app as cli
from fleetscope.facts.store import FactStore
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.registry import RegistryError, VehicleRegistry
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings, get_settings
from tests.conftest import migrate_to
from tests.ingest.vda import T0, factsheet, state


def _two_sites(session_factory: SessionFactory) -> tuple[int, int]:
    with session_factory() as session:
        acme = create_organization(session, name="Acme")
        other = create_organization(session, name="Other Corp")
        plant = create_site(session, organization=acme, name="Plant", mqtt_interface="acme")
        depot = create_site(session, organization=other, name="Depot", mqtt_interface="other")
        return plant.id, depot.id


def _vehicle(site_id: int, serial: str = "AGV-01") -> Vehicle:
    return Vehicle(
        site_id=site_id,
        manufacturer="Acme",
        serial_number=serial,
        name=serial,
        created_at=datetime.now(UTC),
    )


def test_a_serial_is_unique_per_site_not_per_installation(
    session_factory: SessionFactory,
) -> None:
    plant, depot = _two_sites(session_factory)
    with session_factory() as session:
        session.add_all([_vehicle(plant), _vehicle(depot)])
        session.commit()
        session.add(_vehicle(plant))
        with pytest.raises(IntegrityError):
            session.commit()
        session.rollback()
        # Moving a vehicle into a site that has its identity already is refused too.
        moving = session.scalars(select(Vehicle).where(Vehicle.site_id == depot)).one()
        moving.site_id = plant
        with pytest.raises(IntegrityError):
            session.commit()
        session.rollback()
        assert session.scalar(select(func.count()).select_from(Vehicle)) == 2


def test_the_registry_resolves_within_the_senders_site_only(
    session_factory: SessionFactory,
) -> None:
    plant, depot = _two_sites(session_factory)
    registry = VehicleRegistry(session_factory=session_factory)

    def resolve(*, interface: str = "uagv", site_id: int | None = None) -> int:
        info = registry.resolve(
            manufacturer="Acme", serial_number="AGV-01", interface=interface, site_id=site_id
        )
        assert info.site_id == (site_id or {"acme": plant, "other": depot}.get(interface))
        return info.vehicle_id

    by_token = resolve(site_id=depot)  # the depot's token registers it first
    by_interface = resolve(interface="acme")
    assert by_interface != by_token
    # Cached or not, each site keeps reaching its own vehicle.
    assert resolve(interface="other") == resolve(site_id=depot) == by_token
    assert resolve(site_id=plant) == by_interface
    fresh = VehicleRegistry(session_factory=session_factory)  # another process, no cache
    found = fresh.resolve(
        manufacturer="Acme", serial_number="AGV-01", interface="acme", site_id=None
    )
    assert found.vehicle_id == by_interface
    with pytest.raises(RegistryError) as refused:
        resolve(interface="nobody")
    assert str(refused.value).startswith("no site receives vehicles of interface 'nobody'")
    assert "AGV-01" not in str(refused.value)
    with session_factory() as session:
        assert session.scalar(select(func.count()).select_from(Vehicle)) == 2


def test_a_site_registers_at_most_its_limit_of_vehicles_and_keeps_its_known_ones(
    session_factory: SessionFactory,
) -> None:
    plant, depot = _two_sites(session_factory)
    registry = VehicleRegistry(session_factory=session_factory, max_vehicles_per_site=2, ttl_s=0)

    def resolve(serial: str, site_id: int = plant) -> int:
        info = registry.resolve(
            manufacturer="Acme", serial_number=serial, interface="uagv", site_id=site_id
        )
        return info.vehicle_id

    known = [resolve("AGV-01"), resolve("AGV-02")]
    with pytest.raises(RegistryError) as refused:
        resolve("AGV-2026-11-26T21:00:00")  # a serial with a clock in it
    assert str(refused.value) == (
        f"site {plant} has reached 2 vehicles, the most that register themselves"
        " (FLEETSCOPE_MAX_VEHICLES_PER_SITE): vehicle Acme/AGV-2026-11-26T21:00:00 is not"
        " registered"
    )
    assert refused.value.reason.render("de").startswith(
        f"Standort {plant} hat 2 Fahrzeuge erreicht"
    )
    # The site's known vehicles keep reporting; another site registers its own.
    assert [resolve("AGV-01"), resolve("AGV-02")] == known
    assert resolve("AGV-03", site_id=depot) not in known
    # Room again (a vehicle moved away): the site is counted anew and registers the next one.
    with session_factory() as session:
        moved = session.get(Vehicle, known[1])
        assert moved is not None
        moved.site_id = depot
        session.commit()
    assert resolve("AGV-04") not in known
    with session_factory() as session:
        counts = session.execute(
            select(Vehicle.site_id, func.count()).group_by(Vehicle.site_id)
        ).all()
    assert sorted(counts) == sorted([(plant, 2), (depot, 2)])


def test_strings_the_app_store_cannot_hold_cost_only_their_own_message(
    settings: Settings, session_factory: SessionFactory, db_backend: str, tmp_path: Path
) -> None:
    """A serial number with U+0000 (an HTTP line or a file can carry one, no broker does), a
    protocol version or series name longer than its column or with a control character: each
    is a dead letter with its reason, and the batch's other vehicle is stored. On PostgreSQL
    the serial number failed the registry's look-up and with it the whole batch (the ingest
    worker merges every sender's messages into one); the others failed the batch's write."""
    _two_sites(session_factory)
    received = T0 + timedelta(seconds=1)

    def line(serial: str, payload: dict[str, Any], kind: str = "state") -> RawMessage:
        topic = f"acme/v2/Acme/{serial}/{kind}"
        return RawMessage(topic=topic, payload=orjson.dumps(payload), received_at=received)

    batch = [
        line("GOOD", state("GOOD", 1, T0)),
        line("B\x00D", state("B\x00D", 1, T0)),
        line("BAD", state("BAD", 1, T0) | {"version": "2.0.0-" + "x" * 15}),
        line("BAD", state("BAD", 2, T0) | {"version": "2.0.0\x00"}),
        line("BAD", factsheet("BAD", 3, T0, series="S" * 201), kind="factsheet"),
        line("BAD", factsheet("BAD", 4, T0, series="S\x00"), kind="factsheet"),
        line("GOOD", state("GOOD", 2, received)),
    ]
    own_store = settings.model_copy(update={"facts_path": str(tmp_path / "own.duckdb")})
    with FactStore(own_store.resolved_facts_path()) as store:
        outcome = build_pipeline(own_store, session_factory=session_factory, store=store).process(
            batch
        )
        kept = store.dead_letters_kept_since(since=T0 - timedelta(days=1))
    assert [verdict.value for verdict in outcome.verdicts] == ["accepted"] + 5 * ["rejected"] + [
        "accepted"
    ]
    assert [str(outcome.reasons[index]).split(":")[0] for index in range(1, 6)] == [
        "topic 'acme/v2/Acme/B\\x00D/state' holds '\\x00' (U+0000), which MQTT does not allow "
        "in a topic name",
        "schema violation",
        "version '2.0.0\\x00' is not [major].[minor].[patch]",
        "schema violation",
        "$.typeSpecification.seriesName holds a control character",
    ]
    assert sum(kept.values()) == 5
    with session_factory() as session:
        assert session.scalars(select(Vehicle.serial_number)).all() == ["GOOD"]
    # Past decoding, a value the app store cannot hold refuses only its message too.
    registry = VehicleRegistry(session_factory=session_factory)
    if db_backend == "postgres":
        with pytest.raises(RegistryError) as refused:
            registry.resolve(
                manufacturer="Acme", serial_number="B\x00D", interface="acme", site_id=None
            )
        assert str(refused.value).startswith(
            "the app store cannot look up or register the message's vehicle: DataError:"
        )
    else:  # SQLite holds it
        registry.resolve(
            manufacturer="Acme", serial_number="B\x00D", interface="acme", site_id=None
        )


# --- migration 0002 ------------------------------------------------------------------------


def test_migration_0002_keeps_existing_vehicles_and_scopes_serials_to_sites(
    empty_engine: Engine,
) -> None:
    migrate_to(empty_engine, "0001")
    now = datetime.now(UTC)
    with empty_engine.begin() as connection:
        connection.execute(
            text("INSERT INTO organizations (id, name, created_at) VALUES (1, 'Acme', :now)"),
            {"now": now},
        )
        for site_id, name in ((1, "Plant"), (2, "Depot")):
            connection.execute(
                text(
                    "INSERT INTO sites (id, organization_id, name, time_zone, shifts,"
                    " workflow_rules) VALUES (:id, 1, :name, 'Europe/Berlin', '[]', '[]')"
                ),
                {"id": site_id, "name": name},
            )
        connection.execute(
            text(
                "INSERT INTO vehicles (id, site_id, manufacturer, serial_number, name, created_at)"
                " VALUES (7, 1, 'Acme', 'AGV-01', 'Tugger 1', :now)"
            ),
            {"now": now},
        )
    migrate_to(empty_engine, "head")
    factory = make_session_factory(empty_engine)
    with factory() as session:
        kept = session.get(Vehicle, 7)
        assert kept is not None and (kept.site_id, kept.name) == (1, "Tugger 1")
        session.add(_vehicle(2))  # the same identity at the other site
        session.commit()
        session.add(_vehicle(1))
        with pytest.raises(IntegrityError):
            session.commit()
        session.rollback()
        assert session.get(Organization, 1) is not None
    # Back to one serial per installation only once no serial is at two sites.
    with pytest.raises(RuntimeError, match="Acme/AGV-01 exists at several sites"):
        migrate_to(empty_engine, "0001", down=True)
    with factory() as session:
        session.execute(text("DELETE FROM vehicles WHERE site_id = 2"))
        session.commit()
    migrate_to(empty_engine, "0001", down=True)
    migrate_to(empty_engine, "head")
    with factory() as session:
        assert session.scalars(select(Vehicle.id)).all() == [7]


# --- MQTT interfaces ---------------------------------------------------------------------


@pytest.fixture
def run_cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Result]]:
    """``run_cli("sites", ...)``: the command on the test's store, as an operator runs it."""
    monkeypatch.setenv("FLEETSCOPE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("FLEETSCOPE_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    yield lambda *args: CliRunner().invoke(cli, list(args))
    get_settings.cache_clear()


def test_an_mqtt_interface_is_one_topic_level_of_one_site(
    session_factory: SessionFactory, run_cli: Callable[..., Result]
) -> None:
    with session_factory() as session:
        acme = create_organization(session, name="Acme")
        create_site(session, organization=acme, name="Plant", mqtt_interface="acme")
        for bad in ("", "a/b", "uagv/#", "+", "x" * 101):
            with pytest.raises(InvalidInputError, match="one MQTT topic level"):
                create_site(session, organization=acme, name="Bad", mqtt_interface=bad)
        with pytest.raises(ConflictError, match="'acme' already belongs to 'Plant'"):
            create_site(session, organization=acme, name="Other", mqtt_interface="acme")
    taken = run_cli("sites", "add", "Depot", "--organization", "Acme", "--mqtt-interface", "acme")
    assert taken.exit_code == 1
    assert "error: mqttInterface: 'acme' already belongs to 'Plant'" in taken.stderr
    assert run_cli("sites", "add", "Depot", "--organization", "Acme").exit_code == 0

    refusals = {
        ("Depot", "acme"): "error: mqttInterface: 'acme' already belongs to 'Plant'",
        ("Depot", "a/b"): "error: mqttInterface: 'a/b' must be one MQTT topic level",
        ("Depot",): "error: give either an MQTT interface or --clear",
        ("Depot", "depot", "--clear"): "error: give either an MQTT interface or --clear",
    }
    for args, message in refusals.items():
        result = run_cli("sites", "set-interface", *args)
        assert (result.exit_code, message in result.stderr) == (1, True), result.output
    assert run_cli("sites", "set-interface", "Plant", "acme").exit_code == 0  # its own: kept
    assert (
        "receives MQTT interface 'depot'"
        in run_cli("sites", "set-interface", "Depot", "depot").stdout
    )
    assert (
        "has no MQTT interface now" in run_cli("sites", "set-interface", "Plant", "--clear").stdout
    )
    with session_factory() as session:
        interfaces = {
            name: mqtt for name, mqtt in session.execute(select(Site.name, Site.mqtt_interface))
        }
    assert interfaces == {"Plant": None, "Depot": "depot"}
    # The registry follows (here without its cache): "acme" is no site's interface any more.
    registry = VehicleRegistry(session_factory=session_factory, ttl_s=0.0)
    with pytest.raises(RegistryError, match="no site receives vehicles of interface 'acme'"):
        registry.resolve(manufacturer="Acme", serial_number="S1", interface="acme", site_id=None)
    depot = registry.resolve(
        manufacturer="Acme", serial_number="S1", interface="depot", site_id=None
    )
    with session_factory() as session:
        assert session.scalars(select(Site.name).where(Site.id == depot.site_id)).one() == "Depot"
