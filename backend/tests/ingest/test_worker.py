"""The ingest worker tells producers about their messages only once they are committed, in
the order they were queued; at a stop nobody is left waiting."""

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from fleetscope.facts.store import FactStore
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.worker import IngestWorker

from .conftest import IngestEnv
from .facts_dump import dump
from .vda import state, topic


def _states(serial: str, count: int) -> list[RawMessage]:
    now = datetime.now(UTC).replace(microsecond=0)
    return [
        RawMessage(topic(serial, "state"), orjson.dumps(state(serial, n, now)), now)
        for n in range(1, count + 1)
    ]


def test_callbacks_come_after_the_commit_in_the_order_of_submission(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    worker = IngestWorker(ingest_env.pipeline(store), linger_s=0.2)
    answers: list[tuple[str, BaseException | None, int]] = []
    done = threading.Event()

    def on_done(name: str, last: bool, error: BaseException | None) -> None:
        # Runs in the worker thread: what the store holds at the moment of the answer.
        answers.append((name, error, store.table_counts()["raw_keys"]))
        if last:
            done.set()

    worker.submit_then(_states("W1", 3), on_done=lambda e: on_done("first", False, e))
    worker.submit_then(_states("W2", 2), on_done=lambda e: on_done("second", False, e))
    # The bad line is a dead letter: stored as well, so its producer hears None too.
    bad = [RawMessage(topic("W3", "state"), b"{not json", datetime.now(UTC))]
    worker.submit_then(bad, on_done=lambda e: on_done("third", True, e))
    worker.start()
    try:
        assert done.wait(10)
    finally:
        worker.stop()
    assert answers == [("first", None, 5), ("second", None, 5), ("third", None, 5)]
    assert store.table_counts()["dead_letters"] == 1


def test_a_stop_answers_every_producer(ingest_env: IngestEnv, store: FactStore) -> None:
    worker = IngestWorker(ingest_env.pipeline(store), max_queued_messages=2)  # never started
    errors: list[BaseException | None] = []
    worker.submit_then(_states("W1", 2), on_done=errors.append)
    refused: list[BaseException] = []

    def third() -> None:
        try:
            worker.submit_then(_states("W2", 1), on_done=errors.append)  # waits for room
        except RuntimeError as err:
            refused.append(err)

    producer = threading.Thread(target=third)
    producer.start()
    worker.stop()
    producer.join(5)
    assert not producer.is_alive()
    assert [str(err) for err in refused] == ["ingestion is stopping"]
    # The queued job was never written: its producer hears so instead of waiting forever.
    assert len(errors) == 1 and isinstance(errors[0], RuntimeError)
    assert store.table_counts()["raw_keys"] == 0
    with pytest.raises(RuntimeError, match="stopping"):
        worker.submit(_states("W3", 1))


def test_queued_payload_bytes_are_bounded_too(ingest_env: IngestEnv, store: FactStore) -> None:
    # Two messages may wait, but not 1.5 times the byte bound: the second waits for room,
    # whatever size of message a broker delivers.
    first, second = _states("W1", 1), _states("W2", 1)
    size = len(first[0].payload)
    worker = IngestWorker(
        ingest_env.pipeline(store), max_queued_messages=2, max_queued_bytes=size * 3 // 2
    )  # never started
    worker.submit_then(first, on_done=lambda error: None)
    refused: list[BaseException] = []

    def produce() -> None:
        try:
            worker.submit_then(second, on_done=lambda error: None)
        except RuntimeError as err:
            refused.append(err)

    producer = threading.Thread(target=produce)
    producer.start()
    producer.join(0.5)
    assert producer.is_alive()  # waiting for room
    worker.stop()
    producer.join(5)
    assert [str(err) for err in refused] == ["ingestion is stopping"]


def test_a_backlog_after_downtime_is_derived_as_if_the_server_had_never_been_away(
    ingest_env: IngestEnv, store: FactStore, tmp_path: Path
) -> None:
    """The server was away for two minutes; the broker kept what the vehicle sent meanwhile.
    A clock tick before that backlog would set the vehicle offline at its last stored message
    + offline_after and fold the backlog onto that instant (orders a minute too long)."""
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=120)

    def sent(header_id: int, seconds: int, **kw: Any) -> RawMessage:
        at = start + timedelta(seconds=seconds)
        return RawMessage(topic("B1", "state"), orjson.dumps(state("B1", header_id, at, **kw)), at)

    before = [sent(1, 0)]
    backlog = [sent(2, 10, driving=True), sent(3, 20), sent(4, 30, charging=True)]
    ingest_env.pipeline(store).process(before)  # stored before the server went away

    restarted = ingest_env.pipeline(store)
    restarted.restore_all(store.snapshot_vehicle_ids())  # as start_ingestion does
    worker = IngestWorker(restarted, tick_interval_s=0.01)
    worker.hold_ticks(0.5)  # what start_ingestion and the MQTT connection do
    worker.start()
    try:
        time.sleep(0.2)  # twenty tick intervals: none may run yet
        worker.submit(backlog).result(10)
        time.sleep(0.5)  # the hold is over: the silent vehicle goes offline
    finally:
        worker.stop()

    with FactStore(tmp_path / "reference.duckdb") as reference:
        never_away = ingest_env.pipeline(reference)
        never_away.process(before + backlog)
        never_away.tick(now=datetime.now(UTC))
        assert dump(store) == dump(reference)
