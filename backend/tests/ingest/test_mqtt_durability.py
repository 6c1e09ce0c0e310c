"""Nothing acknowledged before it is stored, through a real Mosquitto: kill -9 of the server
process mid-stream, a failed batch, and two installations on one broker."""

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fleetscope.facts.store import FactStore
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.ingest.client_id import CLIENT_ID_FILE, installation_client_id, resolve_client_id
from fleetscope.ingest.messages import BatchOutcome, RawMessage
from fleetscope.ingest.service import IngestionHandle, start_ingestion
from fleetscope.settings import Settings

from .conftest import IngestEnv
from .facts_dump import dump
from .mqtt_kit import Publisher, installation, reference, steady, stream, wait_for_stored

pytestmark = pytest.mark.mqtt

SERVER_SCRIPT = Path(__file__).with_name("ingest_process.py")


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateMosquitto]:
    with PrivateMosquitto(workdir=tmp_path_factory.mktemp("mosquitto")) as private:
        yield private


class IngestServer:
    """``ingest_process.py`` in a process of its own; its status lines read by a thread."""

    def __init__(self, settings: Settings, broker: PrivateMosquitto, log_path: Path) -> None:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("FLEETSCOPE_")}
        environment.update(
            FLEETSCOPE_ENVIRONMENT="test",
            FLEETSCOPE_DATA_DIR=str(settings.data_dir),
            FLEETSCOPE_DATABASE_URL=settings.database_url,
            FLEETSCOPE_MQTT_URL=broker.url,
            FLEETSCOPE_OFFLINE_AFTER_SECONDS=str(settings.offline_after_seconds),
        )
        self.log_path = log_path
        self._log = log_path.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER_SCRIPT)],
            env=environment,
            cwd=settings.data_dir,  # no .env of the repository
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
        )
        self.client_id = ""
        self.stored = 0
        self.received = 0
        self._subscribed = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            words = line.split()
            if words[:1] == ["subscribed"]:
                self.client_id = words[1]
                self._subscribed.set()
            elif words[:1] == ["stored"]:
                self.stored, self.received = int(words[1]), int(words[3])

    def wait_subscribed(self, timeout_s: float = 30.0) -> None:
        if not self._subscribed.wait(timeout_s):
            raise AssertionError(f"server did not subscribe: {self.log_path.read_text()}")

    def wait_stored(self, count: int, timeout_s: float = 20.0) -> int:
        deadline = time.monotonic() + timeout_s
        while self.stored < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.stored

    def kill_9(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.close()

    def terminate(self) -> int:
        self.process.terminate()
        code = self.process.wait(30)
        self.close()
        return code

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self._reader.join(5)
        self._log.close()


def _stored_keys(settings: Settings) -> int:
    with FactStore(settings.resolved_facts_path()) as store:
        return store.table_counts()["raw_keys"]


def test_kill_9_mid_stream_loses_nothing_and_counts_nothing_twice(
    broker: PrivateMosquitto, tmp_path: Path
) -> None:
    env = installation(tmp_path / "installation")
    messages = stream(vehicles=20, orders=25)  # 2,020 messages
    server = IngestServer(env.settings, broker, tmp_path / "server-1.log")
    publisher: Publisher | None = None
    vehicles: threading.Thread | None = None
    half, killed = len(messages) // 2, threading.Event()
    try:
        server.wait_subscribed()
        first_id = server.client_id
        publisher = Publisher(broker.port)
        sender = publisher
        # The second half waits for the kill: however the machine's load delays this thread
        # (and it then catches up at once), the kill comes in the middle of the stream.

        def send() -> None:
            sender.publish(messages[:half], per_second=1_000)
            killed.wait(60)
            sender.publish(messages[half:], per_second=1_000)

        vehicles = threading.Thread(target=send)
        vehicles.start()
        # In the middle of the stream: some batches committed, more on the way.
        assert server.wait_stored(len(messages) // 4) >= len(messages) // 4
        server.kill_9()
        killed.set()
        killed_with = _stored_keys(env.settings)
        assert 0 < killed_with <= half

        server = IngestServer(env.settings, broker, tmp_path / "server-2.log")
        server.wait_subscribed()
        assert server.client_id == first_id  # the same session, from the data dir
        vehicles.join(30)
        assert server.wait_stored(len(messages)) == len(messages)
        assert server.terminate() == 0
    finally:
        killed.set()
        server.close()
        if vehicles is not None:
            vehicles.join(30)
        if publisher is not None:
            publisher.close()

    with FactStore(env.settings.resolved_facts_path()) as store:
        counts = store.table_counts()
        facts = dump(store)
    assert counts["raw_keys"] == len(messages)
    assert counts["dead_letters"] == 0
    assert facts == reference(env, tmp_path / "reference.duckdb", messages)


def _start(env: IngestEnv, broker: PrivateMosquitto, client_id: str = "") -> IngestionHandle:
    settings = env.settings.model_copy(update={"mqtt_url": broker.url, "mqtt_client_id": client_id})
    handle = start_ingestion(settings, session_factory=env.session_factory)
    assert handle.mqtt is not None
    assert handle.mqtt.subscribed.wait(5), "subscriber did not subscribe"
    return handle


def _wait_until(condition: Callable[[], bool], timeout_s: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("stored", [False, True], ids=["write-failed", "stored-unacknowledged"])
def test_a_failed_batch_is_delivered_again_and_stored_once(
    ingest_env: IngestEnv,
    broker: PrivateMosquitto,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stored: bool,
) -> None:
    """The first batch fails: nothing of it is acknowledged, the subscriber reconnects and
    the broker delivers it again. ``stored``: it was committed before failing (as if the
    process died between commit and PUBACK), so what comes again is a duplicate."""
    env = steady(ingest_env)
    messages = stream(vehicles=4, orders=5)
    client_id = f"fs-{uuid.uuid4().hex[:8]}"
    handle = _start(env, broker, client_id)
    process = handle.pipeline.process
    failed: list[int] = []

    def fails_once(batch: list[RawMessage]) -> BatchOutcome:
        if failed:
            return process(batch)
        failed.append(len(batch))
        if stored:
            process(batch)
        raise OSError("injected: the fact store cannot write")

    monkeypatch.setattr(handle.pipeline, "process", fails_once)
    publisher = Publisher(broker.port)
    try:
        publisher.publish(messages)
        subscriber, worker = handle.mqtt, handle.worker
        assert subscriber is not None
        # The failed batch comes again, and everything received after it is processed.
        assert _wait_until(
            lambda: (
                bool(failed)
                and subscriber.received >= len(messages) + failed[0]
                and worker.processed == subscriber.received - failed[0]
            )
        )
        assert handle.store.table_counts()["raw_keys"] == len(messages)
        handle.stop()  # drains and acknowledges

        # Whatever the broker still held unacknowledged would come before this message.
        handle = _start(env, broker, client_id)
        marker = stream(vehicles=5, orders=1)[-1]
        publisher.publish([marker])
        assert wait_for_stored(handle.store, len(messages) + 1) == len(messages) + 1
        assert handle.mqtt is not None and handle.mqtt.received == 1
        handle.worker.stop()
        facts = dump(handle.store)
    finally:
        publisher.close()
        handle.stop()
    assert facts == reference(env, tmp_path / "reference.duckdb", [*messages, marker])


def test_two_installations_with_default_client_ids_each_get_all_their_messages(
    broker: PrivateMosquitto, tmp_path: Path
) -> None:
    installations = [installation(tmp_path / name) for name in ("first", "second")]
    messages = stream(vehicles=5, orders=10)
    handles = [_start(env, broker) for env in installations]
    publisher = Publisher(broker.port)
    try:
        client_ids = [handle.mqtt.client_id for handle in handles if handle.mqtt is not None]
        publisher.publish(messages)
        stored = [wait_for_stored(handle.store, len(messages)) for handle in handles]
    finally:
        publisher.close()
        for handle in handles:
            handle.stop()
    assert stored == [len(messages), len(messages)]
    assert len(set(client_ids)) == 2
    assert all(id_.startswith("fleetscope-") and len(id_) == 23 for id_ in client_ids)
    for env, client_id in zip(installations, client_ids, strict=True):
        kept = env.settings.data_dir / CLIENT_ID_FILE
        assert kept.stat().st_mode & 0o777 == 0o600
        assert installation_client_id(env.settings.data_dir) == client_id  # after a restart


def test_a_configured_client_id_wins_and_nothing_is_written(tmp_path: Path) -> None:
    assert resolve_client_id(configured="plant-7-fleetscope", data_dir=tmp_path) == (
        "plant-7-fleetscope"
    )
    assert not (tmp_path / CLIENT_ID_FILE).exists()
    (tmp_path / CLIENT_ID_FILE).write_text("\n")
    with pytest.raises(RuntimeError, match="does not hold an MQTT client id"):
        resolve_client_id(configured="", data_dir=tmp_path)
