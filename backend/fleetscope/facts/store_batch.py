"""What one ingested batch writes to the fact store (``FactStore.write_batch``), in one
transaction: raw frames with their dedup keys, facts, deriver snapshots, live statuses, dead
letters and the vehicles' sites and zones."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from msgspec import Struct

from fleetscope.facts import rawlog
from fleetscope.facts.model import Fact, LiveStatus

DedupKey = tuple[int, str, int, datetime]  # vehicle_id, message kind, headerId, header timestamp


@dataclass(frozen=True, slots=True)
class DeadLetter:
    received_at: datetime
    topic: str
    payload: bytes
    reason: str


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
    zones: dict[int, tuple[int, str]] = field(default_factory=dict)  # vehicle -> (site, zone)

    def is_empty(self) -> bool:
        return not (self.frames or self.dead_letters or self.zones or self.snapshots)
