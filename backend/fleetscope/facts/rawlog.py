"""Raw log: every accepted message (and every clock tick that changed a vehicle) as frames.

A chunk is the zlib-compressed concatenation of the frames of one ingested batch. A frame is
a fixed little-endian header ``kind u8, seq i64, received_at µs i64, vehicle_id i32,
topic length u16, payload length u32`` followed by the topic (UTF-8) and the payload bytes
exactly as received. Binary framing keeps payloads byte-exact without re-encoding them, and
zlib level 1 compresses state messages about 30-40 fold at over 400 MB/s on one core.

The chunks are stored in segment tables ``raw_chunks_000001``, ``raw_chunks_000002``, ...
(``segment_table``), each filled up to ``segment_cap`` bytes of chunk data, and read through
the view ``raw_chunks`` (all segments, with a ``segment`` column). DuckDB rewrites a table's
last row group at every checkpoint and holds all of its blobs in memory to do so: in one
table, a log the size of the memory limit made every checkpoint fail. A full segment is
never changed again, so a checkpoint rewrites the current segment only.
"""

import re
import struct
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import IntEnum

import duckdb
from msgspec import Struct

CODEC = "frames-v1+zlib"
_HEADER = struct.Struct("<BqqiHI")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_COMPRESSION_LEVEL = 1
SEGMENT_PREFIX = "raw_chunks_"
# A checkpoint holds the current segment's blobs (and, once, the segment just filled):
# an eighth of the memory limit leaves the rest to queries and ingestion; at most 64 MiB,
# so a rewrite stays short under DuckDB's default limit (80 % of the RAM).
_SEGMENT_CAP_MAX = 64 * 2**20
_SEGMENT_CAP_SHARE = 8
_UNITS = {
    "bytes": 1,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
}


class FrameKind(IntEnum):
    MESSAGE = 0
    # The clock advanced a vehicle (offline after silence): replayed by rebuild at this point.
    TICK = 1


# One per message: a msgspec Struct costs a fraction of a dataclass to create, and with
# gc=False (it holds only atoms) the collector never tracks it.
class RawFrame(Struct, gc=False):
    kind: FrameKind
    seq: int
    received_at: datetime
    vehicle_id: int
    topic: str = ""
    payload: bytes = b""


def to_micros(moment: datetime) -> int:
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(micros: int) -> datetime:
    return _EPOCH + timedelta(microseconds=micros)


def encode_chunk(frames: Iterable[RawFrame]) -> bytes:
    return compress_frames(pack_frames(frames))


def compress_frames(packed: bytes) -> bytes:
    """zlib releases the interpreter lock: callers may run this in another thread."""
    return zlib.compress(packed, _COMPRESSION_LEVEL)


def pack_frames(frames: Iterable[RawFrame]) -> bytes:
    parts: list[bytes] = []
    pack = _HEADER.pack
    # Topics and receive times repeat within a batch: convert each once.
    topics: dict[str, bytes] = {}
    micros: dict[datetime, int] = {}
    for frame in frames:
        topic = topics.get(frame.topic)
        if topic is None:
            topic = topics[frame.topic] = frame.topic.encode()
        received = micros.get(frame.received_at)
        if received is None:
            received = micros[frame.received_at] = to_micros(frame.received_at)
        payload = frame.payload
        parts.append(
            pack(frame.kind, frame.seq, received, frame.vehicle_id, len(topic), len(payload))
        )
        parts.append(topic)
        parts.append(payload)
    return b"".join(parts)


def decode_chunk(data: bytes, *, codec: str = CODEC) -> Iterator[RawFrame]:
    if codec != CODEC:
        raise ValueError(f"unknown raw chunk codec {codec!r}")
    raw = zlib.decompress(data)
    offset, size = 0, len(raw)
    while offset < size:
        kind, seq, micros, vehicle_id, topic_len, payload_len = _HEADER.unpack_from(raw, offset)
        offset += _HEADER.size
        topic = raw[offset : offset + topic_len].decode()
        offset += topic_len
        payload = raw[offset : offset + payload_len]
        offset += payload_len
        yield RawFrame(FrameKind(kind), seq, from_micros(micros), vehicle_id, topic, payload)


def frames_of(data: bytes, *, vehicles: frozenset[int], codec: str = CODEC) -> Iterator[RawFrame]:
    """The frames of ``vehicles`` in a chunk; the others are skipped by their header alone
    (a re-derivation of some vehicles reads chunks that hold every vehicle's frames)."""
    if codec != CODEC:
        raise ValueError(f"unknown raw chunk codec {codec!r}")
    raw = zlib.decompress(data)
    offset, size, header = 0, len(raw), _HEADER.size
    unpack = _HEADER.unpack_from
    while offset < size:
        kind, seq, micros, vehicle_id, topic_len, payload_len = unpack(raw, offset)
        start = offset + header
        offset = start + topic_len + payload_len
        if vehicle_id in vehicles:
            topic = raw[start : start + topic_len].decode()
            payload = raw[start + topic_len : offset]
            yield RawFrame(FrameKind(kind), seq, from_micros(micros), vehicle_id, topic, payload)


@dataclass(frozen=True, slots=True)
class StoredChunk:
    first_seq: int
    last_seq: int
    frame_count: int
    codec: str
    data: bytes


def last_seq(cursor: duckdb.DuckDBPyConnection) -> int:
    """The arrival number of the newest stored frame (0 for none)."""
    row = cursor.execute("SELECT coalesce(max(last_seq), 0) FROM raw_chunks").fetchone()
    return int(row[0]) if row else 0


def frame_count(cursor: duckdb.DuckDBPyConnection, *, after: int, through: int | None) -> int:
    """Frames of the chunks ``read_chunks`` gives for the same bounds."""
    row = cursor.execute(
        "SELECT coalesce(sum(frame_count), 0) FROM raw_chunks "
        "WHERE last_seq > ? AND (? IS NULL OR last_seq <= ?)",
        [after, through, through],
    ).fetchone()
    return int(row[0]) if row else 0


def read_chunks(
    cursor: duckdb.DuckDBPyConnection, *, after: int, through: int | None
) -> Iterator[StoredChunk]:
    """The chunks whose frames lie after arrival number ``after`` and up to ``through``
    (None: to the end), in arrival order, one at a time. A chunk's frames never straddle a
    bound: chunks are written in arrival order.

    Memory stays bounded whatever the history: the small columns are read first, then each
    chunk's data alone by its primary key. DuckDB compresses the data column with ZSTD by
    vector (2,048 rows), and a scan of it (``WHERE first_seq = ?``, or one streaming
    ``SELECT``) decompresses a whole vector's blobs in one allocation, which outgrows any
    memory limit as the log grows; a primary-key lookup in the chunk's segment fetches the
    one row."""
    chunks = cursor.execute(
        "SELECT segment, chunk_id, first_seq, last_seq, frame_count, codec FROM raw_chunks "
        "WHERE last_seq > ? AND (? IS NULL OR last_seq <= ?) ORDER BY first_seq",
        [after, through, through],
    ).fetchall()
    for segment, chunk_id, first, last, frames, codec in chunks:
        row = cursor.execute(
            f"SELECT data FROM {segment_table(int(segment))} WHERE chunk_id = ?",  # noqa: S608
            [chunk_id],
        ).fetchone()
        if row is not None:
            yield StoredChunk(int(first), int(last), int(frames), str(codec), bytes(row[0]))


def segment_table(segment: int) -> str:
    """The table of a raw log segment (a number: never user input in SQL)."""
    return f"{SEGMENT_PREFIX}{segment:06d}"


def segment_cap(connection: duckdb.DuckDBPyConnection) -> int:
    """The chunk bytes a segment takes before the next one starts (from the memory limit)."""
    row = connection.execute("SELECT current_setting('memory_limit')").fetchone()
    match = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]+)\s*", str(row[0]) if row else "")
    unit = _UNITS.get(match.group(2).lower()) if match else None
    if match is None or unit is None:
        return _SEGMENT_CAP_MAX
    limit = int(float(match.group(1)) * unit)
    return max(1, min(_SEGMENT_CAP_MAX, limit // _SEGMENT_CAP_SHARE))


def segments(connection: duckdb.DuckDBPyConnection, *, database: str | None = None) -> list[int]:
    """The segment numbers of the raw log, ascending (of an attached ``database`` if given)."""
    rows = connection.execute(
        "SELECT table_name FROM duckdb_tables() "
        "WHERE database_name = coalesce(?, current_database()) AND NOT temporary "
        "AND regexp_full_match(table_name, ?)",
        [database, f"{SEGMENT_PREFIX}[0-9]{{6}}"],
    ).fetchall()
    return sorted(int(str(name)[len(SEGMENT_PREFIX) :]) for (name,) in rows)


def create_segment(connection: duckdb.DuckDBPyConnection, *, segment: int) -> None:
    """A new, empty segment, and the view ``raw_chunks`` over all of them."""
    connection.execute(
        f"""CREATE TABLE {segment_table(segment)} (
        chunk_id BIGINT PRIMARY KEY,
        first_seq BIGINT NOT NULL,
        last_seq BIGINT NOT NULL,
        frame_count INTEGER NOT NULL,
        received_from TIMESTAMPTZ NOT NULL,
        received_to TIMESTAMPTZ NOT NULL,
        codec VARCHAR NOT NULL,
        data BLOB NOT NULL
    )"""
    )
    define_view(connection)


def define_view(connection: duckdb.DuckDBPyConnection) -> None:
    """(Re)creates ``raw_chunks``: every segment's rows with the segment's number."""
    selects = " UNION ALL ".join(
        f"SELECT {segment}::INTEGER AS segment, * FROM {segment_table(segment)}"  # noqa: S608
        for segment in segments(connection)
    )
    connection.execute(f"CREATE OR REPLACE VIEW raw_chunks AS {selects}")


def segment_bytes(connection: duckdb.DuckDBPyConnection, *, segment: int) -> int:
    """The chunk bytes a segment holds (reads its blobs: only for the current one, which the
    cap keeps small)."""
    row = connection.execute(
        f"SELECT coalesce(sum(octet_length(data)), 0) FROM {segment_table(segment)}"  # noqa: S608
    ).fetchone()
    return int(row[0]) if row else 0
