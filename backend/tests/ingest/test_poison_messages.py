"""Poison messages among good ones, over MQTT (a private Mosquitto) and HTTP (a site token):
every good message is stored exactly once, every bad one is a dead letter with its reason,
and the dead letters a source sends beyond its cap per minute are counted."""

import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import paho.mqtt.client as mqtt
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from paho.mqtt.enums import CallbackAPIVersion

from fleetscope.demo.seed import DemoData
from fleetscope.facts.store import FactStore
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.service import start_ingestion

from .conftest import IngestEnv
from .facts_dump import dump
from .vda import state, topic, trip

SUPERUSER = "superuser@demo.fleetscope"
LONG_SERIAL = "S" * 10_000
Message = tuple[str, bytes]


def _good(vehicles: int, start: datetime) -> list[Message]:
    """Interleaved trips of 5 orders (21 messages, 100 s) per vehicle."""
    trips = [
        [
            (topic(f"G{v:02d}", kind), orjson.dumps(p))
            for kind, p in trip(f"G{v:02d}", start=start, orders=5)
        ]
        for v in range(vehicles)
    ]
    return [message for group in zip(*trips, strict=True) for message in group]


def _poisons(start: datetime) -> list[tuple[Message, str]]:
    """16 states of one vehicle the fact store could not hold, with the reason expected."""

    def poison(header_id: int, **changes: Any) -> Message:
        serial = str(changes.pop("serialNumber", "P-01"))
        payload = {**state(serial, header_id, start), **changes}
        return topic(serial, "state"), orjson.dumps(payload)

    future = "is more than 300 s after the receive time"
    past = "is before the earliest accepted instant 2000-01-01T00:00:00Z"
    header = "Expected `int` <= 4294967295 - at `$.headerId`"
    charge = "Expected `float` <= 100.0 - at `$.batteryState.batteryCharge`"
    serial = "topic has 10019 characters, at most 512 allowed"
    full = {"batteryCharge": 250.0, "charging": False}
    return [
        *((poison(i, timestamp="9999-12-31T23:59:59.000Z"), future) for i in range(1, 5)),
        *((poison(i, timestamp="0001-01-01T00:00:00.000Z"), past) for i in range(5, 9)),
        *((poison(2**63 + i), header) for i in range(3)),
        *((poison(i, batteryState=full), charge) for i in range(9, 12)),
        *((poison(i, serialNumber=LONG_SERIAL), serial) for i in range(12, 14)),
    ]


def _mixed(good: list[Message], poisons: list[tuple[Message, str]]) -> list[Message]:
    """The poisons spread evenly among the good messages."""
    step = len(good) // len(poisons)
    mixed = list(good)
    for number, (message, _) in enumerate(poisons):
        mixed.insert(number * (step + 1) + step // 2, message)
    return mixed


def _comparable(store: FactStore) -> dict[str, Any]:
    facts = dump(store)
    facts["deriver_snapshots"] = sorted((row[0], row[1]) for row in facts["deriver_snapshots"])
    return facts


def _stored_once(store: FactStore) -> tuple[int, int]:
    cursor = store.cursor()
    row = cursor.execute(
        "SELECT count(*), count(DISTINCT (vehicle_id, kind, header_id, sent_at)) FROM raw_keys"
    ).fetchone()
    cursor.close()
    assert row is not None
    return int(row[0]), int(row[1])


# --- MQTT ----------------------------------------------------------------------------------


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[PrivateMosquitto]:
    with PrivateMosquitto(workdir=tmp_path / "mosquitto") as private:
        yield private


def _publish(port: int, messages: list[Message]) -> None:
    client = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2, client_id=f"fleet-{uuid.uuid4().hex[:8]}"
    )
    client.max_queued_messages_set(0)
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        for name, payload in messages:
            client.publish(name, payload, qos=1).wait_for_publish(5)
    finally:
        client.disconnect()
        client.loop_stop()


def _wait_for(store: FactStore, *, raw_keys: int, dead_letters: int) -> None:
    deadline = time.monotonic() + 20
    counts = store.table_counts()
    while time.monotonic() < deadline:
        counts = store.table_counts()
        if counts["raw_keys"] >= raw_keys and counts["dead_letters"] >= dead_letters:
            return
        time.sleep(0.05)
    raise AssertionError(f"only {counts['raw_keys']} messages, {counts['dead_letters']} dead")


@pytest.mark.mqtt
def test_poison_states_over_mqtt_cost_nothing_but_themselves(
    ingest_env: IngestEnv, broker: PrivateMosquitto, tmp_path: Path
) -> None:
    start = datetime.now(UTC).replace(microsecond=0)  # states from now on: no offline ticks
    good = _good(12, start)
    poisons = _poisons(start)
    settings = ingest_env.settings.model_copy(
        update={"mqtt_url": broker.url, "mqtt_client_id": f"fs-{uuid.uuid4().hex[:8]}"}
    )
    handle = start_ingestion(settings, session_factory=ingest_env.session_factory)
    try:
        assert handle.mqtt is not None and handle.mqtt.subscribed.wait(5)
        _publish(broker.port, _mixed(good, poisons))
        _wait_for(handle.store, raw_keys=len(good), dead_letters=len(poisons))
        handle.worker.stop()  # everything received is written before counting
        stored = _stored_once(handle.store)
        facts = _comparable(handle.store)
        total, letters = handle.store.dead_letter_page(limit=100, offset=0)
        counts = handle.store.dead_letter_counts()
    finally:
        handle.stop()

    assert stored == (len(good), len(good)) == (252, 252)
    assert total == 16
    assert [(c.source, c.category, c.stored, c.dropped) for c in counts] == [
        ("mqtt:uagv", "message", 16, 0)
    ]
    # Newest first: reversed, they are in the order published.
    for letter, (_, reason) in zip(reversed(letters), poisons, strict=True):
        assert reason in letter["reason"]
    long_topic = [letter for letter in letters if letter["payload_size"] > 10_000]
    assert len(long_topic) == 2 and all(len(letter["topic"]) == 1024 for letter in long_topic)
    # The good messages made exactly the facts they make without the poisons.
    with FactStore(tmp_path / "reference.duckdb") as reference:
        received = datetime.now(UTC)
        ingest_env.pipeline(reference).process([RawMessage(t, p, received) for t, p in good])
        assert facts == _comparable(reference)
    assert len(facts["orders"]) == 12 * 5


# --- HTTP ----------------------------------------------------------------------------------

http = pytest.mark.sqlite_only


def _token(client: TestClient, site_id: int) -> str:
    response = client.post(f"/v2/Admin/Sites/{site_id}/Tokens", json={"name": "gateway"})
    assert response.status_code == 201, response.text
    token: str = response.json()["data"]["token"]
    return token


def _post(client: TestClient, token: str, lines: list[bytes]) -> Any:
    response = client.post(
        "/v2/Ingest/vda5050",
        content=b"\n".join(lines),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 200, response.text
    return response.json()["data"]


def _line(message: Message) -> bytes:
    name, payload = message
    return orjson.dumps({"topic": name, "payload": orjson.loads(payload)})


@http
def test_poison_lines_over_http_are_rejected_line_by_line(
    app: FastAPI, client: TestClient, seeded: DemoData, login: Any
) -> None:
    login(client, SUPERUSER)
    site = seeded.site_ids["Hamburg DC"]
    token = _token(client, site)
    start = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)
    good = _good(12, start)
    poisons = _poisons(start)
    lines = [_line(message) for message in _mixed(good, poisons)]
    poison_lines = {_line(message) for message, _ in poisons}
    numbers = [number for number, text in enumerate(lines, start=1) if text in poison_lines]

    data = _post(client, token, lines)
    assert (data["accepted"], data["duplicates"]) == (252, 0)
    assert [rejected["line"] for rejected in data["rejected"]] == numbers
    for rejected, (_, reason) in zip(data["rejected"], poisons, strict=True):
        assert reason in rejected["reason"]
    store: FactStore = app.state.ingestion.store
    assert _stored_once(store) == (252, 252)
    assert len(dump(store)["orders"]) == 12 * 5

    again = _post(client, token, lines)  # a client retrying: nothing counts twice
    assert (again["accepted"], again["duplicates"], len(again["rejected"])) == (0, 252, 16)
    assert _stored_once(store) == (252, 252)
    listed = client.get(
        "/v2/Admin/DeadLetters", params={"category": "message", "pageSize": 5}
    ).json()
    # The retried batch's poison lines are refused again (above) but not kept twice.
    assert listed["data"]["total"] == 16 and len(listed["data"]["items"]) == 5
    assert listed["data"]["bySource"] == [
        {"source": f"http:site-{site}", "category": "message", "stored": 16, "dropped": 0}
    ]


@http
def test_a_flood_of_bad_lines_keeps_a_capped_number_and_counts_the_rest(
    client: TestClient, seeded: DemoData, login: Any
) -> None:
    login(client, SUPERUSER)
    site = seeded.site_ids["Hamburg DC"]
    token = _token(client, site)
    data = _post(client, token, [b"{bad" + str(i).encode() for i in range(1100)])
    assert (data["accepted"], len(data["rejected"])) == (0, 1100)
    assert all("not valid JSON" in rejected["reason"] for rejected in data["rejected"])

    page = client.get("/v2/Admin/DeadLetters", params={"source": f"http:site-{site}"}).json()
    page = page["data"]
    assert (page["total"], page["stored"], page["dropped"]) == (1000, 1000, 100)
    assert page["bySource"] == [
        {"source": f"http:site-{site}", "category": "line", "stored": 1000, "dropped": 100}
    ]
    newest = page["items"][0]
    assert (newest["topic"], newest["payloadPreview"], newest["payloadSize"]) == ("", "{bad999", 7)
    assert newest["category"] == "line" and not newest["payloadTruncated"]
    # Filters: a reason's part, the time (the calendar's ends too), an unknown category.
    by_reason = client.get("/v2/Admin/DeadLetters", params={"reason": "NOT VALID json"}).json()
    assert by_reason["data"]["total"] == 1000
    since = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    later = client.get("/v2/Admin/DeadLetters", params={"receivedFrom": since}).json()["data"]
    assert (later["total"], later["stored"], later["dropped"]) == (0, 0, 0)
    ends = {"receivedFrom": "0001-01-01T00:00:00+01:00", "receivedTo": "9999-12-31T23:59:59-05:00"}
    everything = client.get("/v2/Admin/DeadLetters", params=ends)
    assert everything.status_code == 200 and everything.json()["data"]["total"] == 1000
    assert client.get("/v2/Admin/DeadLetters", params={"category": "nonsense"}).status_code == 422


@http
def test_only_a_failing_store_answers_503_with_retry_after(
    app: FastAPI, client: TestClient, seeded: DemoData, login: Any
) -> None:
    login(client, SUPERUSER)
    token = _token(client, seeded.site_ids["Hamburg DC"])
    start = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)
    good = [_line(message) for message in _good(1, start)]
    app.state.ingestion.store.close()  # as a store whose disk went away
    response = client.post(
        "/v2/Ingest/vda5050",
        content=b"\n".join(good),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert "please send the same request again" in response.json()["msg"]
