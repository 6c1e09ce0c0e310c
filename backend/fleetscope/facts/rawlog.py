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
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import IntEnum

CODEC = "frames-v1+zlib"
_HEADER = struct.Struct("<BqqiHI")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_COMPRESSION_LEVEL = 1


class FrameKind(IntEnum):
    MESSAGE = 0
    # The clock advanced a vehicle (offline after silence): replayed by rebuild at this point.
    TICK = 1


@dataclass(frozen=True, slots=True)
class RawFrame:
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
    parts: list[bytes] = []
    for frame in frames:
        topic = frame.topic.encode()
        parts.append(
            _HEADER.pack(
                frame.kind,
                frame.seq,
                to_micros(frame.received_at),
                frame.vehicle_id,
                len(topic),
                len(frame.payload),
            )
        )
        parts.append(topic)
        parts.append(frame.payload)
    return zlib.compress(b"".join(parts), _COMPRESSION_LEVEL)


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
