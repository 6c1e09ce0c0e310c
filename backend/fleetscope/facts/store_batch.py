"""What one ingested batch writes to the fact store (``FactStore.write_batch``), in one
transaction: raw frames with their dedup keys, facts, deriver snapshots, live statuses, dead
letters and the vehicles' sites and zones."""

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from msgspec import Struct

from fleetscope.facts import rawlog
from fleetscope.facts.model import Fact, LiveStatus

DedupKey = tuple[int, str, int, datetime]  # vehicle_id, message kind, headerId, header timestamp


class DeadLetterCategory(StrEnum):
    """Why a message became a dead letter, in one word (the reason says it in full)."""

    LINE = "line"  # the NDJSON line around it is unreadable
    MESSAGE = "message"  # not a valid VDA 5050 message: JSON, topic, version, schema, ranges
    VEHICLE = "vehicle"  # no vehicle takes it: an interface without a site, another site's
    STORE = "store"  # the fact store refused it (found by splitting its batch)


@dataclass(frozen=True, slots=True)
class DeadLetter:
    received_at: datetime
    source: str  # "mqtt:<interface>", "http:site-<id>", "import"
    category: DeadLetterCategory
    topic: str
    payload: bytes  # at most the configured number of bytes of it
    payload_size: int  # of the whole payload
    payload_sha256: str  # hex digest of the whole payload
    reason: str  # in English (logs, CLI, the reason filter)
    reasons: dict[str, str]  # language ("en", "de") -> the reason in it


# (source, minute, category) -> dead letters not kept beyond the source's cap of that minute
DeadLetterDrops = dict[tuple[str, datetime, DeadLetterCategory], int]


class StoredKey(Struct, gc=False):  # one per message: cheaper to create than a dataclass
    seq: int
    key: DedupKey


@dataclass(slots=True)
class StoreBatch:
    """Everything one ingested batch writes. ``frames`` carry their seq from ``allocate_seq``."""

    frames: list[rawlog.RawFrame] = field(default_factory=list)
    keys: list[StoredKey] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    snapshots: dict[int, tuple[dict[str, Any], int]] = field(default_factory=dict)
    live: dict[int, LiveStatus] = field(default_factory=dict)
    dead_letters: list[DeadLetter] = field(default_factory=list)
    dead_letter_drops: DeadLetterDrops = field(default_factory=dict)
    zones: dict[int, tuple[int, str]] = field(default_factory=dict)  # vehicle -> (site, zone)

    def is_empty(self) -> bool:
        return not (
            self.frames
            or self.dead_letters
            or self.dead_letter_drops
            or self.zones
            or self.snapshots
        )
