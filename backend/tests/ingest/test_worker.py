"""The ingest worker tells producers about their messages only once they are committed, in
the order they were queued; at a stop nobody is left waiting."""

import threading
from datetime import UTC, datetime

import orjson
import pytest

from fleetscope.facts.store import FactStore
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.worker import IngestWorker

from .conftest import IngestEnv
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
