"""One re-derivation's derivers: some vehicles' stored frames fed again, in stored order,
through fresh derivers made with their site's current configuration (workflow rules, load
action types, time zone), as ``rebuild`` does for the whole store."""

import logging
from collections import Counter
from collections.abc import Mapping
from zoneinfo import ZoneInfo

from duckdb import DuckDBPyConnection

from fleetscope.derive import VehicleDeriver
from fleetscope.derive.config import derivation_config
from fleetscope.facts.model import Fact
from fleetscope.facts.rawlog import FrameKind, StoredChunk, frames_of, read_chunks
from fleetscope.facts.restage import SwappedVehicle
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
        self.facts_of: Counter[int] = Counter()  # facts derived per vehicle

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
        self.facts_of.update(fact.vehicle_id for fact in facts)
        return facts

    def swapped(self, vehicle_id: int) -> SwappedVehicle:
        """What the swap writes of the vehicle: its zone now, and its deriver's state after
        its last frame with that frame's seq and its live status (None without a frame)."""
        info = self.vehicles[vehicle_id]
        seq = self._last_seq.get(vehicle_id)
        deriver = self._derivers[vehicle_id]
        return SwappedVehicle(
            vehicle_id=vehicle_id,
            zone=(info.site_id, info.time_zone),
            snapshot=None if seq is None else (deriver.snapshot(), seq),
            live=None if seq is None else deriver.live(),
        )

    def slices(self, *, facts: int) -> list[list[int]]:
        """The vehicles in swap steps of at most ``facts`` derived facts each, or of one
        vehicle that has more: a step holds the ingest thread for a bounded time, and a
        small job pays a step's fixed costs (a scan of each table, the commit) only once."""
        steps: list[list[int]] = []
        size = 0
        for vehicle_id in sorted(self.vehicles):
            count = self.facts_of[vehicle_id]
            if not steps or size + count > facts:
                steps.append([])
                size = 0
            steps[-1].append(vehicle_id)
            size += count
        return steps

    def retire(self, vehicle_ids: list[int]) -> None:
        """The vehicles were swapped in: the pipeline derives their frames from now on."""
        self._ids = self._ids - set(vehicle_ids)


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
