"""A batch whose write still fails: only the offending message becomes a dead letter, every
other one is stored exactly once with the facts it makes alone; a failure of the store
itself fails the batch and leaves the pipeline able to take it again."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import duckdb
import orjson
import pytest

from fleetscope.facts.store import FactStore, StoreBatch
from fleetscope.ingest.limits import IngestLimits
from fleetscope.ingest.messages import RawMessage, Verdict
from fleetscope.ingest.pipeline import IngestPipeline
from fleetscope.ingest.registry import VehicleRegistry

from .conftest import IngestEnv
from .facts_dump import dump
from .vda import state, topic, trip

# A valid message the store below refuses, as the store refused year-9999 states before
# decoding bounded them: nothing in decoding can tell.
UNSTORABLE = b"UNSTORABLE"


class PickyStore(FactStore):
    """Refuses any batch holding the frame of a payload marked UNSTORABLE, and every batch
    while ``disk_full`` is set."""

    disk_full = False
    writes = 0

    def write_batch(self, batch: StoreBatch) -> None:
        self.writes += 1
        if self.disk_full:
            raise duckdb.IOException("IO Error: No space left on device")
        if any(UNSTORABLE in frame.payload for frame in batch.frames):
            raise duckdb.ConversionException("Conversion Error: value out of range")
        super().write_batch(batch)


def _messages(start: datetime) -> list[RawMessage]:
    """Four vehicles' trips interleaved (52 messages); received when they were sent."""
    trips = [trip(f"S{v}", start=start, orders=3) for v in range(4)]
    return [
        RawMessage(topic(f"S{v}", kind), orjson.dumps(payload), start + timedelta(minutes=5))
        for group in zip(*trips, strict=True)
        for v, (kind, payload) in enumerate(group)
    ]


def _unstorable(start: datetime) -> RawMessage:
    payload = state("S2", 900, start + timedelta(seconds=12), order_id="UNSTORABLE")
    return RawMessage(topic("S2", "state"), orjson.dumps(payload), start + timedelta(minutes=5))


def _pipeline(env: IngestEnv, store: FactStore) -> IngestPipeline:
    return IngestPipeline(
        store=store,
        registry=VehicleRegistry(session_factory=env.session_factory),
        offline_after_s=env.settings.offline_after_seconds,
        limits=IngestLimits(),
    )


def _comparable(store: FactStore) -> dict[str, Any]:
    """Facts, rollups, live statuses and deriver states; the snapshots' arrival numbers
    differ (a failed write leaves gaps), their machine states must not."""
    facts = dump(store)
    facts["deriver_snapshots"] = sorted((row[0], row[1]) for row in facts["deriver_snapshots"])
    return facts


@pytest.fixture
def picky(ingest_env: IngestEnv) -> Iterator[PickyStore]:
    store = PickyStore(ingest_env.settings.resolved_facts_path())
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def reference(ingest_env: IngestEnv, tmp_path: Any) -> Any:
    def facts_of(messages: list[RawMessage]) -> dict[str, Any]:
        with FactStore(tmp_path / "reference.duckdb") as store:
            outcome = _pipeline(ingest_env, store).process(messages)
            assert outcome.rejected == 0
            return _comparable(store)

    return facts_of


def test_only_the_message_the_store_refuses_becomes_a_dead_letter(
    ingest_env: IngestEnv, picky: PickyStore, reference: Any
) -> None:
    start = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)
    good = _messages(start)
    batch = [*good[:23], _unstorable(start), *good[23:]]
    batch.insert(5, RawMessage(topic("S1", "state"), b"{not json", start))  # refused by decode
    outcome = _pipeline(ingest_env, picky).process(batch)

    assert outcome.verdicts.count(Verdict.ACCEPTED) == len(good)
    assert [i for i, v in enumerate(outcome.verdicts) if v is Verdict.REJECTED] == [5, 24]
    assert str(outcome.reasons[24]) == (
        "the fact store cannot store the message: ConversionException: "
        "Conversion Error: value out of range"
    )
    counts = picky.table_counts()
    assert counts["raw_keys"] == len(good)
    cursor = picky.cursor()
    distinct = cursor.execute(
        "SELECT count(DISTINCT (vehicle_id, kind, header_id, sent_at)) FROM raw_keys"
    ).fetchone()
    cursor.close()
    assert distinct == (len(good),)
    total, letters = picky.dead_letter_page(limit=10, offset=0)
    assert total == 2
    assert [(d["category"], d["topic"]) for d in letters] == [
        ("store", "uagv/v2/Acme/S2/state"),
        ("message", "uagv/v2/Acme/S1/state"),
    ]
    assert letters[0]["reason"] == str(outcome.reasons[24])
    # Every other message made the facts it makes without the refused one, in order.
    assert _comparable(picky) == reference(good)


def test_a_failing_store_fails_the_batch_and_the_batch_can_be_sent_again(
    ingest_env: IngestEnv, picky: PickyStore, reference: Any
) -> None:
    start = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)
    messages = _messages(start)
    pipeline = _pipeline(ingest_env, picky)
    first = pipeline.process(messages[:20])
    picky.disk_full = True
    writes = picky.writes
    with pytest.raises(duckdb.IOException):
        pipeline.process(messages[20:])
    assert picky.writes == writes + 1  # no splitting: a retry, not a message, can fix it
    assert picky.table_counts()["raw_keys"] == 20
    assert picky.table_counts()["dead_letters"] == 0
    picky.disk_full = False
    again = pipeline.process(messages[20:])
    assert (first.accepted, again.accepted, again.duplicates) == (20, len(messages) - 20, 0)
    assert _comparable(picky) == reference(messages)


def test_when_even_the_dead_letter_cannot_be_written_the_batch_fails(
    ingest_env: IngestEnv, picky: PickyStore
) -> None:
    """A message alone that fails is a dead letter only if the store can write that."""
    start = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)
    original = picky.write_batch

    def fails_always(batch: StoreBatch) -> None:
        if batch.frames or batch.dead_letters:
            raise duckdb.ConversionException("Conversion Error: broken")
        original(batch)

    picky.write_batch = fails_always  # type: ignore[method-assign]
    with pytest.raises(duckdb.ConversionException):
        _pipeline(ingest_env, picky).process([_unstorable(start)])
    picky.write_batch = original  # type: ignore[method-assign]
    assert picky.table_counts()["dead_letters"] == 0


def test_a_bad_message_of_a_batch_that_failed_is_kept_when_it_comes_again(
    ingest_env: IngestEnv, picky: PickyStore
) -> None:
    """Not acknowledged, the batch comes again (a redelivery): its bad message is refused
    again and its dead letter stored now, not taken for a repeat of one kept before."""
    start = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)
    bad = RawMessage(topic("S1", "state"), b"not json", start + timedelta(minutes=5))
    pipeline = _pipeline(ingest_env, picky)
    picky.disk_full = True
    with pytest.raises(duckdb.IOException):
        pipeline.process([bad])
    picky.disk_full = False
    assert pipeline.process([bad]).rejected == 1
    total, (letter,) = picky.dead_letter_page(limit=10, offset=0)
    assert (total, letter["payload"]) == (1, "not json")
