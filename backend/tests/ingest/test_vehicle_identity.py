"""Vehicle identity is (site, manufacturer, serialNumber): no tenant captures, blocks or detects
another's vehicle, over HTTP (site tokens) and MQTT (site interfaces, real Mosquitto)."""

import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import paho.mqtt.client as mqtt
import pytest
from fastapi.testclient import TestClient
from paho.mqtt.enums import CallbackAPIVersion

from fleetscope.api.main import create_app
from fleetscope.appstore.db import create_db_engine, make_session_factory, migrate_engine
from fleetscope.demo.seed import DEMO_MANUFACTURER, DemoData, seed_demo
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.settings import Settings
from tests.conftest import log_in
from tests.core.support import CUSTOMER, CUSTOMER2, SUPERUSER

from .vda import line, state, topic

pytestmark = pytest.mark.sqlite_only

INGEST = "/v2/Ingest/vda5050"
STATUSBOARD = "/v2/Analytics/Statusboard"
# What the first organization's vehicle reports; the second organization must never see it.
SECRET_ERROR = "brake fault in aisle 7"


def _state(serial: str, header_id: int, *, charge: float, fatal: bool = False) -> dict[str, Any]:
    payload = state(
        serial,
        header_id,
        datetime.now(UTC) - timedelta(seconds=2),
        charge=charge,
        manufacturer=DEMO_MANUFACTURER,
    )
    if fatal:
        payload["errors"] = [
            {"errorType": "brakeFault", "errorLevel": "FATAL", "errorDescription": SECRET_ERROR}
        ]
    return payload


def _line(serial: str, payload: dict[str, Any]) -> bytes:
    return line(serial, "state", payload, manufacturer=DEMO_MANUFACTURER)


def _token(client: TestClient, site_id: int) -> str:
    response = client.post(f"/v2/Admin/Sites/{site_id}/Tokens", json={"name": "gateway"})
    assert response.status_code == 201, response.text
    token: str = response.json()["data"]["token"]
    return token


def _post(client: TestClient, token: str, body: bytes) -> Any:
    return client.post(INGEST, content=body, headers={"Authorization": f"Bearer {token}"})


def _seen_as(client: TestClient, serial: str) -> tuple[list[tuple[str, str]], list[Any], str]:
    """(site, serial) of the user's vehicles with ``serial``, their tiles, the whole board."""
    vehicles = client.get("/v2/Vehicles").json()["data"]
    mine = [v for v in vehicles if v["serialNumber"] == serial]
    board = client.get(STATUSBOARD)
    assert board.status_code == 200, board.text
    ids = {v["id"] for v in mine}
    tiles = [t for t in board.json()["data"]["vehicles"] if t["vehicleId"] in ids]
    return [(v["siteName"], v["serialNumber"]) for v in mine], tiles, board.text


def _wait_until(check: Callable[[], bool], *, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return check()


# --- HTTP: two organizations' tokens -----------------------------------------------------


def test_the_same_serial_from_two_sites_tokens_is_two_vehicles_each_seen_by_its_own_tenant(
    client: TestClient, seeded: DemoData, make_client: Callable[[], TestClient]
) -> None:
    log_in(client, SUPERUSER)
    hamburg = _token(client, seeded.site_ids["Hamburg DC"])  # Nordlicht (customer)
    munich = _token(client, seeded.site_ids["Munich Hub"])  # Alpenfracht (customer2)
    first = _post(client, munich, _line("TWIN-01", _state("TWIN-01", 1, charge=90.0)))
    second = _post(client, hamburg, _line("TWIN-01", _state("TWIN-01", 1, charge=33.0, fatal=True)))
    for response in (first, second):
        assert response.status_code == 200, response.text
        assert response.json()["data"] == {"accepted": 1, "duplicates": 0, "rejected": []}

    nordlicht, alpenfracht = make_client(), make_client()
    log_in(nordlicht, CUSTOMER)
    log_in(alpenfracht, CUSTOMER2)
    vehicles, tiles, _ = _seen_as(nordlicht, "TWIN-01")
    assert vehicles == [("Hamburg DC", "TWIN-01")]
    assert [(t["charge"], t["state"]) for t in tiles] == [(33.0, "error")]
    assert [e["description"] for e in tiles[0]["activeErrors"]] == [SECRET_ERROR]
    vehicles, tiles, board = _seen_as(alpenfracht, "TWIN-01")
    assert vehicles == [("Munich Hub", "TWIN-01")]
    assert [(t["charge"], t["activeErrors"]) for t in tiles] == [(90.0, [])]
    assert SECRET_ERROR not in board


def test_a_serial_that_exists_elsewhere_is_answered_as_an_unknown_one(
    client: TestClient, seeded: DemoData
) -> None:
    log_in(client, SUPERUSER)
    munich = _token(client, seeded.site_ids["Munich Hub"])

    def answer(serial: str) -> tuple[int, str]:
        good = _line(serial, _state(serial, 1, charge=50.0))
        broken = _line(serial, {**_state(serial, 2, charge=50.0), "operatingMode": "FLYING"})
        response = _post(client, munich, good + b"\n" + broken + b"\n" + good)
        return response.status_code, response.text.replace(serial, "<serial>")

    # HAM-02 is a vehicle of Hamburg (another organization); ZZZ-02 exists nowhere.
    elsewhere, unknown = answer("HAM-02"), answer("ZZZ-02")
    assert elsewhere == unknown
    assert elsewhere[0] == 200
    data = orjson.loads(elsewhere[1])["data"]
    assert (data["accepted"], data["duplicates"], [r["line"] for r in data["rejected"]]) == (
        1,
        1,
        [2],
    )


def test_a_moved_vehicle_sending_through_its_old_site_is_a_new_vehicle_there(
    client: TestClient, seeded: DemoData
) -> None:
    """Within one organization too, no answer depends on whether a serial number exists at
    another site (product.md 6): the old site's token gets the answer of a serial new to it,
    and the moved vehicle takes nothing of it."""
    log_in(client, SUPERUSER)
    created = client.post(
        "/v2/Admin/Sites",
        json={"organizationId": seeded.organization_ids["Nordlicht Logistik"], "name": "Bremen"},
    )
    assert created.status_code == 201, created.text
    bremen = created.json()["data"]["id"]
    [ham03] = [
        v["id"] for v in client.get("/v2/Vehicles").json()["data"] if v["serialNumber"] == "HAM-03"
    ]
    assert client.patch(f"/v2/Admin/Vehicles/{ham03}", json={"siteId": bremen}).status_code == 200
    hamburg = _token(client, seeded.site_ids["Hamburg DC"])
    vehicles_before = len(client.get("/v2/Vehicles").json()["data"])

    def answer(serial: str) -> str:
        response = _post(client, hamburg, _line(serial, _state(serial, 1, charge=40.0)))
        assert response.status_code == 200, response.text
        return response.text.replace(serial, "<serial>")

    first = answer("HAM-03")
    assert first == answer("ZZZ-03")
    assert orjson.loads(first)["data"]["accepted"] == 1
    twins = sorted(
        (v["siteName"], v["id"] == ham03)
        for v in client.get("/v2/Vehicles").json()["data"]
        if v["serialNumber"] == "HAM-03"
    )
    assert twins == [("Bremen", True), ("Hamburg DC", False)]
    # Through its new site it is the moved vehicle.
    moved = _post(client, _token(client, bremen), _line("HAM-03", _state("HAM-03", 2, charge=41.0)))
    assert moved.json()["data"]["accepted"] == 1
    assert (
        len(client.get("/v2/Vehicles").json()["data"]) == vehicles_before + 2
    )  # HAM-03 and ZZZ-03 at Hamburg


# --- MQTT: each site's interface ---------------------------------------------------------

# The server's own interface: subscribed, but no site receives it.
UNASSIGNED = "unassigned"


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateMosquitto]:
    with PrivateMosquitto(workdir=tmp_path_factory.mktemp("mosquitto")) as private:
        yield private


@pytest.fixture
def mqtt_client(broker: PrivateMosquitto, tmp_path: Path) -> Iterator[tuple[TestClient, DemoData]]:
    """The server on the demo tenants (seeded before start, so it subscribes their
    interfaces ``uagv`` and ``uagv-muc``), with MQTT ingestion from the private broker."""
    settings = Settings(
        _env_file=None,
        environment="test",
        data_dir=tmp_path / "data",
        database_url=f"sqlite:///{tmp_path / 'app.sqlite'}",
        frontend_dist=tmp_path / "no-frontend-build",
        mqtt_url=broker.url,
        mqtt_client_id=f"fs-{uuid.uuid4().hex[:8]}",
        mqtt_interface=UNASSIGNED,
    )
    engine = create_db_engine(url=settings.database_url)
    migrate_engine(engine)
    with make_session_factory(engine)() as session:
        seeded = seed_demo(session)
    engine.dispose()
    app = create_app(settings)
    with TestClient(app) as client:
        assert app.state.ingestion.mqtt.subscribed.wait(5), "subscriber did not subscribe"
        yield client, seeded


def _publish(broker: PrivateMosquitto, messages: list[tuple[str, dict[str, Any]]]) -> None:
    publisher = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2,
        client_id=f"vehicles-{uuid.uuid4().hex[:8]}",
    )
    publisher.connect("127.0.0.1", broker.port)
    publisher.loop_start()
    try:
        for name, payload in messages:
            publisher.publish(name, orjson.dumps(payload), qos=1).wait_for_publish(5)
    finally:
        publisher.disconnect()
        publisher.loop_stop()


def test_mqtt_states_reach_the_interfaces_site_whoever_registered_the_serial_first(
    mqtt_client: tuple[TestClient, DemoData],
    broker: PrivateMosquitto,
    make_client: Callable[[], TestClient],
) -> None:
    client, seeded = mqtt_client
    log_in(client, SUPERUSER)
    munich = _token(client, seeded.site_ids["Munich Hub"])  # Alpenfracht registers first
    first = _post(client, munich, _line("TWIN-07", _state("TWIN-07", 1, charge=90.0)))
    assert first.json()["data"]["accepted"] == 1

    def on(interface: str, header_id: int, **kw: Any) -> tuple[str, dict[str, Any]]:
        name = topic("TWIN-07", "state", interface, DEMO_MANUFACTURER)
        return name, _state("TWIN-07", header_id, **kw)

    # "uagv" is Hamburg's interface (Nordlicht); "unassigned" is no site's.
    _publish(
        broker,
        [on("uagv", 5, charge=33.0, fatal=True), on(UNASSIGNED, 6, charge=12.0)],
    )

    nordlicht = TestClient(client.app)
    alpenfracht = TestClient(client.app)
    log_in(nordlicht, CUSTOMER)
    log_in(alpenfracht, CUSTOMER2)
    # The vehicle is registered (a tile without data) just before its state is written.
    assert _wait_until(lambda: any(t["charge"] for t in _seen_as(nordlicht, "TWIN-07")[1]))
    vehicles, tiles, _ = _seen_as(nordlicht, "TWIN-07")
    assert vehicles == [("Hamburg DC", "TWIN-07")]
    assert [(t["charge"], t["state"]) for t in tiles] == [(33.0, "error")]

    def dead_letters() -> list[Any]:
        items: list[Any] = client.get("/v2/Admin/DeadLetters").json()["data"]["items"]
        return items

    assert _wait_until(lambda: len(dead_letters()) == 1)
    [dead] = dead_letters()
    assert dead["topic"] == topic("TWIN-07", "state", UNASSIGNED, DEMO_MANUFACTURER)
    assert f"no site receives vehicles of interface {UNASSIGNED!r}" in dead["reason"]

    vehicles, tiles, board = _seen_as(alpenfracht, "TWIN-07")
    assert vehicles == [("Munich Hub", "TWIN-07")]
    assert [(t["charge"], t["activeErrors"]) for t in tiles] == [(90.0, [])]
    assert SECRET_ERROR not in board


def test_a_site_created_or_given_a_new_mqtt_interface_is_heard_without_a_restart(
    mqtt_client: tuple[TestClient, DemoData], broker: PrivateMosquitto
) -> None:
    client, seeded = mqtt_client
    log_in(client, SUPERUSER)
    created = client.post(
        "/v2/Admin/Sites",
        json={
            "organizationId": seeded.organization_ids["Nordlicht Logistik"],
            "name": "Bremen Port",
            "timeZone": "Europe/Berlin",
            "mqttInterface": "uagv-bre",
        },
    )
    assert created.status_code == 201, created.text
    site_id = created.json()["data"]["id"]
    nordlicht = TestClient(client.app)
    log_in(nordlicht, CUSTOMER)

    def arrives(interface: str, serial: str) -> bool:
        """Sent as a vehicle sends (again every half second, as the subscription is made in
        the background a moment after the answer), seen within seconds."""

        def seen() -> bool:
            return any(tile["charge"] for tile in _seen_as(nordlicht, serial)[1])

        for header_id in range(1, 21):
            message = _state(serial, header_id, charge=64.0)
            _publish(broker, [(topic(serial, "state", interface, DEMO_MANUFACTURER), message)])
            if _wait_until(seen, timeout_s=0.5):
                return True
        return False

    # The subscription follows the site without a restart.
    assert arrives("uagv-bre", "BRE-01")
    assert _seen_as(nordlicht, "BRE-01")[0] == [("Bremen Port", "BRE-01")]

    renamed = client.patch(f"/v2/Admin/Sites/{site_id}", json={"mqttInterface": "uagv-hb"})
    assert renamed.status_code == 200, renamed.text
    assert arrives("uagv-hb", "BRE-02")
    assert _seen_as(nordlicht, "BRE-02")[0] == [("Bremen Port", "BRE-02")]
    # The old name is no site's any more: the server no longer listens to it.
    topics = {name for name, _ in client.app.state.ingestion.mqtt.topics}
    assert "uagv-hb/+/+/+/state" in topics
    assert not any(name.startswith("uagv-bre/") for name in topics)
