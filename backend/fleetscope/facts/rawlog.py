"""Raw log: every accepted message (and every clock tick that changed a vehicle) as frames.

A chunk is the zlib-compressed concatenation of the frames of one ingested batch. A frame is
a fixed little-endian header ``kind u8, seq i64, received_at µs i64, vehicle_id i32,
topic length u16, payload length u32`` followed by the topic (UTF-8) and the payload bytes
exactly as received. Binary framing keeps payloads byte-exact without re-encoding them, and
zlib level 1 compresses state messages about 30-40 fold at over 400 MB/s on one core.
"""

import struct
import zlib
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from enum import IntEnum

from msgspec import Struct

CODEC = "frames-v1+zlib"
_HEADER = struct.Struct("<BqqiHI")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_COMPRESSION_LEVEL = 1


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
