"""One re-derivation's derivers: some vehicles' stored frames fed again, in arrival order,
through fresh derivers made with their site's current configuration (workflow rules, load
action types, time zone), as ``rebuild`` does for the whole store."""

import logging
from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from duckdb import DuckDBPyConnection

from fleetscope.derive import VehicleDeriver
from fleetscope.derive.config import derivation_config
from fleetscope.facts.model import Fact, LiveStatus
from fleetscope.facts.rawlog import FrameKind, StoredChunk, frames_of, read_chunks
from fleetscope.ingest.registry import VehicleInfo
from fleetscope.vda5050.decode import decode
from fleetscope.vda5050.limits import DEFAULT_LIMITS
from fleetscope.vda5050.model import DecodeError

log = logging.getLogger(__name__)
# Frames were accepted under the limits of their day: only what the store cannot hold is
# refused, as in ``rebuild``.
_REPLAY_LIMITS = DEFAULT_LIMITS.for_replay()


class Rederivation:
    def __init__(self, *, vehicles: Mapping[int, VehicleInfo], offline_after_s: float) -> None:
        self.vehicles = dict(vehicles)
        self._ids = frozenset(self.vehicles)
        self._zones = {v: ZoneInfo(info.time_zone) for v, info in self.vehicles.items()}
        self._derivers = {
            vehicle_id: VehicleDeriver(
                vehicle_id=vehicle_id,
                config=derivation_config(
                    offline_after_s=offline_after_s,
                    workflow_rules=info.workflow_rules,
                    load_action_types=info.load_action_types,
                ),
            )
            for vehicle_id, info in self.vehicles.items()
        }
        self._last_seq: dict[int, int] = {}
        self._facts: list[Fact] = []
        self.skipped = 0
        # The raw log's frames fed so far: through this arrival number (a chunk's end).
        self.fed_through = 0

    def zone_of(self, vehicle_id: int) -> ZoneInfo:
        return self._zones[vehicle_id]

    def feed_chunk(self, chunk: StoredChunk) -> None:
        """Derive the chunk's frames of these vehicles (a message, or a clock tick at the
        point of the stream where it happened)."""
        derivers, facts, last_seq = self._derivers, self._facts, self._last_seq
        for frame in frames_of(chunk.data, vehicles=self._ids, codec=chunk.codec):
            deriver = derivers[frame.vehicle_id]
            if frame.kind is FrameKind.TICK:
                facts.extend(deriver.tick(now=frame.received_at))
            else:
                try:
                    message = decode(
                        frame.topic,
                        frame.payload,
                        received_at=frame.received_at,
                        limits=_REPLAY_LIMITS,
                    )
                except DecodeError as err:
                    log.warning("re-derivation skips frame %d: %s", frame.seq, err)
                    self.skipped += 1
                    continue
                deriver.feed_into(message, facts)
            last_seq[frame.vehicle_id] = frame.seq
        self.fed_through = max(self.fed_through, chunk.last_seq)

    def feed_stored(self, cursor: DuckDBPyConnection, *, through: int | None) -> int:
        """The raw log's chunks after those fed so far, up to ``through`` (None: the
        newest); returns their frames."""
        read = 0
        for chunk in read_chunks(cursor, after=self.fed_through, through=through):
            self.feed_chunk(chunk)
            read += chunk.frame_count
        return read

    @property
    def pending(self) -> int:
        return len(self._facts)

    def take_facts(self) -> list[Fact]:
        """The facts derived since the last call (to be staged)."""
        facts, self._facts = self._facts, []
        return facts

    def zone(self, vehicle_id: int) -> tuple[int, str]:
        info = self.vehicles[vehicle_id]
        return info.site_id, info.time_zone

    def snapshot(self, vehicle_id: int) -> tuple[dict[str, Any], int] | None:
        """The vehicle's machine state after its last frame, with that frame's seq (None
        if it has none)."""
        seq = self._last_seq.get(vehicle_id)
        return None if seq is None else (self._derivers[vehicle_id].snapshot(), seq)

    def live(self, vehicle_id: int) -> LiveStatus | None:
        return self._derivers[vehicle_id].live() if vehicle_id in self._last_seq else None

    def retire(self, vehicle_id: int) -> None:
        """The vehicle was swapped in: the pipeline derives its frames from now on."""
        self._ids = self._ids - {vehicle_id}


class Progress:
    """A job's progress units: the raw log's frames read, then each vehicle's messages as
    it is swapped in. Frames stored during the job add to both the done and the total."""

    def __init__(self, *, total: int) -> None:
        self.total = total
        self.done = 0

    def add_read(self, frames: int) -> None:
        self.total += frames
        self.done += frames


def message_counts(
    cursor: DuckDBPyConnection, *, vehicle_ids: list[int], through: int
) -> dict[int, int]:
    """Each vehicle's messages in the raw log up to ``through`` (the swap phase's units)."""
    rows = cursor.execute(
        "SELECT vehicle_id, count(*) FROM raw_keys "
        "WHERE list_contains(?::INTEGER[], vehicle_id) AND seq <= ? GROUP BY vehicle_id",
        [vehicle_ids, through],
    ).fetchall()
    return {int(vehicle): int(count) for vehicle, count in rows}
