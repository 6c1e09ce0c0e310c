"""MQTT end to end through a private Mosquitto: publish -> facts; a subscriber restart in
the middle of a QoS 1 stream loses nothing and counts nothing twice."""

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from fleetscope.facts.store import FactStore
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.service import IngestionHandle, start_ingestion

from .conftest import IngestEnv
from .facts_dump import dump
from .vda import topic, trip

pytestmark = pytest.mark.mqtt

Message = tuple[str, bytes]


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateMosquitto]:
    with PrivateMosquitto(workdir=tmp_path_factory.mktemp("mosquitto")) as private:
        yield private


def _stream(vehicles: int, orders: int) -> list[Message]:
    """Interleaved messages of several vehicles; timestamps from now on (no offline ticks)."""
    start = datetime.now(UTC).replace(microsecond=0)
    per_vehicle = [
        [
            (topic(f"S{v}", kind), orjson.dumps(p))
            for kind, p in trip(f"S{v}", start=start, orders=orders)
        ]
        for v in range(vehicles)
    ]
    return [m for group in zip(*per_vehicle, strict=True) for m in group]


class Publisher:
    def __init__(self, url_port: int) -> None:
        self.client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=f"vehicles-{uuid.uuid4().hex[:8]}",
        )
        self.client.max_queued_messages_set(0)
        self.client.connect("127.0.0.1", url_port)
        self.client.loop_start()

    def publish(
        self,
        messages: list[Message],
        *,
        pause_every: int = 0,
        on_progress: Callable[[int], None] | None = None,
    ) -> None:
        for index, (name, payload) in enumerate(messages, start=1):
            self.client.publish(name, payload, qos=1).wait_for_publish(5)
            if pause_every and index % pause_every == 0:
                time.sleep(0.01)
            if on_progress is not None:
                on_progress(index)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _start(env: IngestEnv, broker: PrivateMosquitto, client_id: str) -> IngestionHandle:
    settings = env.settings.model_copy(update={"mqtt_url": broker.url, "mqtt_client_id": client_id})
    handle = start_ingestion(settings, session_factory=env.session_factory)
    assert handle.mqtt is not None
    assert handle.mqtt.subscribed.wait(5), "subscriber did not subscribe"
    return handle


def _wait_for(store: FactStore, count: int, timeout_s: float = 15.0) -> int:
    deadline = time.monotonic() + timeout_s
    stored = 0
    while time.monotonic() < deadline:
        stored = store.table_counts()["raw_keys"]
        if stored >= count:
            return stored
        time.sleep(0.05)
    return stored


def _reference(env: IngestEnv, tmp_path: Path, messages: list[Message]) -> dict[str, Any]:
    """The facts of the same messages ingested in one go, without MQTT."""
    with FactStore(tmp_path / "reference.duckdb") as store:
        received = datetime.now(UTC)
        env.pipeline(store).process([RawMessage(t, p, received) for t, p in messages])
        return dump(store)


def test_published_messages_become_facts(
    ingest_env: IngestEnv, broker: PrivateMosquitto, tmp_path: Path
) -> None:
    messages = _stream(vehicles=3, orders=2)
    handle = _start(ingest_env, broker, f"fs-{uuid.uuid4().hex[:8]}")
    publisher = Publisher(broker.port)
    try:
        publisher.publish(messages)
        assert _wait_for(handle.store, len(messages)) == len(messages)
        handle.worker.stop()  # everything queued is written before comparing
        facts = dump(handle.store)
    finally:
        publisher.close()
        handle.stop()
    assert len(facts["orders"]) == 6
    assert facts == _reference(ingest_env, tmp_path, messages)


def test_a_restart_mid_stream_loses_nothing_and_counts_nothing_twice(
    ingest_env: IngestEnv, broker: PrivateMosquitto, tmp_path: Path
) -> None:
    messages = _stream(vehicles=6, orders=10)
    client_id = f"fs-{uuid.uuid4().hex[:8]}"  # the same persistent session across the restart
    handle = _start(ingest_env, broker, client_id)
    publisher = Publisher(broker.port)
    halfway = threading.Event()
    stream = threading.Thread(
        target=publisher.publish,
        kwargs={
            "messages": messages,
            "pause_every": 20,
            "on_progress": lambda n: n == len(messages) // 3 and halfway.set(),
        },
    )
    try:
        stream.start()
        assert halfway.wait(10)
        handle.stop()  # while the vehicles keep publishing
        stopped_with = FactStore(ingest_env.settings.resolved_facts_path())
        partial = stopped_with.table_counts()["raw_keys"]
        stopped_with.close()
        assert 0 < partial < len(messages)
        time.sleep(0.3)
        handle = _start(ingest_env, broker, client_id)
        stream.join(20)
        # The broker may redeliver what was in flight at the stop: those are duplicates.
        publisher.publish(messages[:10])
        assert _wait_for(handle.store, len(messages)) == len(messages)
        time.sleep(0.3)  # would any message be counted twice, it would show up now
        handle.worker.stop()
        facts = dump(handle.store)
        assert handle.store.table_counts()["raw_keys"] == len(messages)
    finally:
        publisher.close()
        handle.stop()
    assert facts == _reference(ingest_env, tmp_path, messages)
