"""The raw log reads back within the fact store's memory limit whatever its size: a log of
more chunk data than the limit (incompressible payloads, so the chunks stay that large) is
read chunk by chunk, whole and by arrival-number bounds, by a store limited to 64 MiB."""

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fleetscope.facts.rawlog import FrameKind, RawFrame, frames_of, read_chunks
from fleetscope.facts.store import FactStore, StoreBatch

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
LIMIT = "64MiB"
CHUNKS = 40  # 40 chunks of 1 MiB each: decompressed beside their blocks, more than the limit
FRAMES_PER_CHUNK = 4
PAYLOAD_BYTES = 256 * 1024


def _payload(seq: int) -> bytes:
    return random.Random(seq).randbytes(PAYLOAD_BYTES)


def _write_log(path: Path) -> None:
    with FactStore(path, memory_limit=LIMIT, threads=2) as store:
        for chunk in range(CHUNKS):
            first = chunk * FRAMES_PER_CHUNK + 1
            frames = [
                RawFrame(
                    FrameKind.MESSAGE,
                    seq,
                    T0 + timedelta(seconds=seq),
                    seq % 3,
                    "uagv/v2/Acme/S1/state",
                    _payload(seq),
                )
                for seq in range(first, first + FRAMES_PER_CHUNK)
            ]
            store.write_batch(StoreBatch(frames=frames))


def test_the_raw_log_reads_back_chunk_by_chunk_beyond_the_memory_limit(tmp_path: Path) -> None:
    path = tmp_path / "facts.duckdb"
    _write_log(path)  # closing the store checkpoints the chunks into compressed storage
    last = CHUNKS * FRAMES_PER_CHUNK
    with FactStore(path, memory_limit=LIMIT, threads=2) as store:
        cursor = store.cursor()
        try:
            seqs: list[int] = []
            for chunk in read_chunks(cursor, after=0, through=None):
                for frame in frames_of(chunk.data, vehicles=frozenset({0, 1, 2})):
                    assert frame.payload == _payload(frame.seq)
                    assert frame.received_at == T0 + timedelta(seconds=frame.seq)
                    seqs.append(frame.seq)
            assert seqs == list(range(1, last + 1))
            # Chunks 11 to 20 by their bounds: seqs 41 .. 80.
            bounded = [
                (chunk.first_seq, chunk.last_seq, chunk.frame_count)
                for chunk in read_chunks(cursor, after=40, through=80)
            ]
            assert bounded == [(4 * c + 1, 4 * c + 4, 4) for c in range(10, 20)]
        finally:
            cursor.close()
