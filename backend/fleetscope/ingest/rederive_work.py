"""One re-derivation's derivers: some vehicles' stored frames fed again, in arrival order,
through fresh derivers made with their site's current configuration (workflow rules, load
action types, time zone), as ``rebuild`` does for the whole store."""

import logging
from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from fleetscope.derive import VehicleDeriver
from fleetscope.derive.config import derivation_config
from fleetscope.facts.model import Fact, LiveStatus
from fleetscope.facts.rawlog import FrameKind, StoredChunk, frames_of
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

    @property
    def pending(self) -> int:
        return len(self._facts)

    def take_facts(self) -> list[Fact]:
        """The facts derived since the last call (to be staged)."""
        facts, self._facts = self._facts, []
        return facts

    def zones(self) -> dict[int, tuple[int, str]]:
        return {v: (info.site_id, info.time_zone) for v, info in self.vehicles.items()}

    def snapshots(self) -> dict[int, tuple[dict[str, Any], int]]:
        """Each fed vehicle's machine state after its last frame, with that frame's seq."""
        return {v: (self._derivers[v].snapshot(), seq) for v, seq in self._last_seq.items()}

    def live(self) -> dict[int, LiveStatus]:
        return {v: self._derivers[v].live() for v in self._last_seq}
