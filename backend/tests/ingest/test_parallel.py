"""Parallel bulk loading: partitions in worker processes, merged into the main store."""

import functools
from pathlib import Path

import orjson
import pytest

from fleetscope.facts.merge import PartitionConflictError, absorb_partition
from fleetscope.facts.store import FactStore
from fleetscope.ingest.batch import ingest_messages, rebuild
from fleetscope.ingest.parallel import Partition, ingest_partitioned

from .conftest import IngestEnv
from .facts_dump import dump
from .vda import T0, topic, trip


def fleet_messages(serials: tuple[str, ...]) -> list[tuple[str, bytes]]:
    """Module level, so a spawned worker process can unpickle it."""
    groups = [
        [(topic(serial, kind), orjson.dumps(payload)) for kind, payload in trip(serial, start=T0)]
        for serial in serials
    ]
    return [message for group in zip(*groups, strict=True) for message in group]


def fleet_and_junk(serials: tuple[str, ...]) -> list[tuple[str, bytes]]:
    """The fleet's messages and one message that is not JSON, the same in every partition."""
    return [*fleet_messages(serials), (topic("Z9", "state"), b"not json")]


def _comparable(store: FactStore) -> dict[str, object]:
    facts = dump(store)
    # Sequence numbers differ by design (one range per partition); the machine state may not.
    facts["deriver_snapshots"] = sorted((row[0], row[1]) for row in facts["deriver_snapshots"])
    return facts


def test_partitions_give_the_same_facts_as_one_process(
    ingest_env: IngestEnv, tmp_path: Path
) -> None:
    serials = (("P1", "P2"), ("Q1",))
    result = ingest_partitioned(
        ingest_env.settings,
        [Partition(functools.partial(fleet_messages, group)) for group in serials],
        workdir=tmp_path / "parts",
    )
    assert result.accepted == sum(len(fleet_messages(group)) for group in serials)
    with ingest_env.store() as store:
        merged = _comparable(store)
        assert not list((tmp_path / "parts").glob("*.duckdb"))
        rebuild(ingest_env.pipeline(store))
        assert _comparable(store) == merged
        with pytest.raises(PartitionConflictError):
            other = tmp_path / "again.duckdb"
            with FactStore(other, seq_base=9 * 10**12) as partition:
                ingest_messages(ingest_env.pipeline(partition), fleet_messages(("P1",)))
            absorb_partition(store, path=other)
    with FactStore(tmp_path / "single.duckdb") as single:
        pipeline = ingest_env.pipeline(single)
        for group in serials:
            ingest_messages(pipeline, fleet_messages(group))
        assert _comparable(single) == merged


def test_a_dead_letter_found_by_several_partitions_is_kept_once(
    ingest_env: IngestEnv, tmp_path: Path
) -> None:
    result = ingest_partitioned(
        ingest_env.settings,
        [Partition(functools.partial(fleet_and_junk, group)) for group in (("P1",), ("Q1",))],
        workdir=tmp_path / "parts",
    )
    assert result.accepted == 2 * len(fleet_messages(("P1",)))
    assert len(result.rejected) == 2  # each partition refused it
    with ingest_env.store() as store:
        total, (letter,) = store.dead_letter_page(limit=10, offset=0)
        assert (total, letter["payload"], letter["source"]) == (1, "not json", "import")
