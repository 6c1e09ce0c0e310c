"""MQTT end to end through a private Mosquitto: publish -> facts; a subscriber restart in
the middle of a QoS 1 stream loses nothing and counts nothing twice."""

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from fleetscope.facts.store import FactStore
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.ingest.service import IngestionHandle, start_ingestion

from .conftest import IngestEnv
from .facts_dump import dump
from .mqtt_kit import Publisher, reference, steady, stream, wait_for_stored

pytestmark = pytest.mark.mqtt


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateMosquitto]:
    with PrivateMosquitto(workdir=tmp_path_factory.mktemp("mosquitto")) as private:
        yield private


def _start(env: IngestEnv, broker: PrivateMosquitto, client_id: str) -> IngestionHandle:
    settings = env.settings.model_copy(update={"mqtt_url": broker.url, "mqtt_client_id": client_id})
    handle = start_ingestion(settings, session_factory=env.session_factory)
    assert handle.mqtt is not None
    assert handle.mqtt.subscribed.wait(5), "subscriber did not subscribe"
    return handle


def test_published_messages_become_facts(
    ingest_env: IngestEnv, broker: PrivateMosquitto, tmp_path: Path
) -> None:
    env = steady(ingest_env)
    messages = stream(vehicles=3, orders=2)
    handle = _start(env, broker, f"fs-{uuid.uuid4().hex[:8]}")
    publisher = Publisher(broker.port)
    try:
        publisher.publish(messages)
        assert wait_for_stored(handle.store, len(messages)) == len(messages)
        handle.worker.stop()  # everything queued is written before comparing
        facts = dump(handle.store)
    finally:
        publisher.close()
        handle.stop()
    assert len(facts["orders"]) == 6
    assert facts == reference(env, tmp_path / "reference.duckdb", messages)


def test_a_restart_mid_stream_loses_nothing_and_counts_nothing_twice(
    ingest_env: IngestEnv, broker: PrivateMosquitto, tmp_path: Path
) -> None:
    env = steady(ingest_env)
    messages = stream(vehicles=6, orders=10)
    client_id = f"fs-{uuid.uuid4().hex[:8]}"  # the same persistent session across the restart
    handle = _start(env, broker, client_id)
    publisher = Publisher(broker.port)
    halfway = threading.Event()
    vehicles = threading.Thread(
        target=publisher.publish,
        kwargs={
            "messages": messages,
            "per_second": 500,
            "on_progress": lambda n: halfway.set() if n == len(messages) // 3 else None,
        },
    )
    try:
        vehicles.start()
        assert halfway.wait(10)
        handle.stop()  # while the vehicles keep publishing
        stopped_with = FactStore(env.settings.resolved_facts_path())
        partial = stopped_with.table_counts()["raw_keys"]
        stopped_with.close()
        assert 0 < partial < len(messages)
        time.sleep(0.3)
        handle = _start(env, broker, client_id)
        vehicles.join(20)
        # The broker may redeliver what was in flight at the stop: those are duplicates.
        publisher.publish(messages[:10])
        assert wait_for_stored(handle.store, len(messages)) == len(messages)
        time.sleep(0.3)  # would any message be counted twice, it would show up now
        handle.worker.stop()
        facts = dump(handle.store)
        assert handle.store.table_counts()["raw_keys"] == len(messages)
    finally:
        publisher.close()
        handle.stop()
    assert facts == reference(env, tmp_path / "reference.duckdb", messages)
