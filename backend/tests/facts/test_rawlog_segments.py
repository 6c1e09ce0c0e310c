"""The raw log outgrows the fact store's memory limit without stopping ingestion: DuckDB
rewrites a changed table's last row group at every checkpoint holding all its blobs, so the
chunks go to segment tables of at most an eighth of the limit each. More chunk data than the
limit (incompressible payloads) is written through ``write_batch`` with checkpoints, read back
whole after a reopen, and a store from before the segments (one ``raw_chunks`` table) keeps
its chunks and takes new ones."""

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb

from fleetscope.facts import schema
from fleetscope.facts.merge import absorb_partition
from fleetscope.facts.rawlog import (
    FrameKind,
    RawFrame,
    encode_chunk,
    frame_count,
    frames_of,
    last_seq,
    read_chunks,
    segment_table,
    segments,
)
from fleetscope.facts.store import FactStore, StoreBatch

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
LIMIT = "64MiB"
MIB = 2**20
CHUNKS = 120  # 1 MiB each: 120 MiB of chunk data, almost twice the limit
CHECKPOINT_EVERY = 8
VEHICLES = frozenset({0, 1, 2})


def _payload(seq: int) -> bytes:
    return random.Random(seq).randbytes(MIB)


def _frame(seq: int) -> RawFrame:
    return RawFrame(
        FrameKind.MESSAGE,
        seq,
        T0 + timedelta(seconds=seq),
        seq % 3,
        "uagv/v2/A/S1/state",
        _payload(seq),
    )


def _read_all(store: FactStore) -> list[int]:
    cursor = store.cursor()
    try:
        seqs = []
        for chunk in read_chunks(cursor, after=0, through=None):
            for frame in frames_of(chunk.data, vehicles=VEHICLES):
                assert frame.payload == _payload(frame.seq)
                assert frame.received_at == T0 + timedelta(seconds=frame.seq)
                seqs.append(frame.seq)
        return seqs
    finally:
        cursor.close()


def test_a_raw_log_beyond_the_memory_limit_checkpoints_and_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "facts.duckdb"
    with FactStore(path, memory_limit=LIMIT, threads=2) as store:
        for seq in range(1, CHUNKS + 1):
            store.write_batch(StoreBatch(frames=[_frame(seq)]))
            if seq % CHECKPOINT_EVERY == 0:
                with store.writer() as connection:
                    connection.execute("CHECKPOINT")
        with store.writer() as connection:
            # 8 MiB segments (an eighth of 64 MiB) hold 7 chunks of 1 MiB and a frame header
            # each (zlib adds a few bytes to random data): 120 chunks in 18 segments.
            assert segments(connection) == list(range(1, 19))
    with FactStore(path, memory_limit=LIMIT, threads=2) as store:
        assert _read_all(store) == list(range(1, CHUNKS + 1))
        assert store.raw_frame_count() == CHUNKS
        cursor = store.cursor()
        try:
            assert last_seq(cursor) == CHUNKS
            assert frame_count(cursor, after=40, through=80) == 40
            bounded = [c.first_seq for c in read_chunks(cursor, after=40, through=80)]
            assert bounded == list(range(41, 81))
        finally:
            cursor.close()
        store.write_batch(StoreBatch(frames=[_frame(CHUNKS + 1)]))
        assert [f.seq for f in store.iter_raw_frames()] == list(range(1, CHUNKS + 2))


def test_a_store_with_one_raw_chunks_table_keeps_its_chunks(tmp_path: Path) -> None:
    path = tmp_path / "facts.duckdb"
    connection = duckdb.connect(str(path))
    schema.migrate(connection, migrations=schema.MIGRATIONS[:8])  # before the segments
    for seq in (1, 2):
        data = encode_chunk([_frame(seq)])
        connection.execute(
            "INSERT INTO raw_chunks VALUES (?, ?, ?, 1, ?, ?, 'frames-v1+zlib', ?)",
            [seq, seq, seq, T0, T0, data],
        )
    connection.close()
    with FactStore(path) as store:
        store.write_batch(StoreBatch(frames=[_frame(3)]))
        with store.writer() as writer:
            # The old table is the first segment; new chunks start the second one.
            assert segments(writer) == [1, 2]
            rows = writer.execute(f"SELECT chunk_id FROM {segment_table(2)}").fetchall()  # noqa: S608
            assert rows == [(3,)]
        assert _read_all(store) == [1, 2, 3]


def test_a_partition_s_segments_merge_in_as_segments_of_their_own(tmp_path: Path) -> None:
    part = tmp_path / "part.duckdb"
    # 16 MiB: 2 MiB segments, one chunk of 1 MiB and a header each.
    with FactStore(part, memory_limit="16MiB", seq_base=100) as partition:
        for seq in (101, 102, 103):
            partition.write_batch(StoreBatch(frames=[_frame(seq)]))
    with FactStore(tmp_path / "main.duckdb", memory_limit=LIMIT) as store:
        for seq in (1, 2):
            store.write_batch(StoreBatch(frames=[_frame(seq)]))
        absorb_partition(store, path=part)
        with store.writer() as connection:
            assert segments(connection) == [1, 2, 3, 4]
            rows = connection.execute(
                "SELECT segment, chunk_id, first_seq FROM raw_chunks ORDER BY chunk_id"
            ).fetchall()
        assert rows == [(1, 1, 1), (1, 2, 2), (2, 3, 101), (3, 4, 102), (4, 5, 103)]
        store.write_batch(StoreBatch(frames=[_frame(104)]))
        assert _read_all(store) == [1, 2, 101, 102, 103, 104]
