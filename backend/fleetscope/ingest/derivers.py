"""The pipeline's derivers: one per vehicle seen, restored from its last committed snapshot
when first needed, and what drives them without a message (the clock tick, the replay of
``rebuild``). A write that fails drops the derivers it touched (``drop``): their next use
restores the last committed snapshot again, so machine state never runs ahead of the facts.
"""

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from fleetscope.derive import VehicleDeriver
from fleetscope.derive.config import derivation_config
from fleetscope.facts.model import LiveStatus
from fleetscope.facts.rawlog import FrameKind, RawFrame
from fleetscope.facts.store import FactStore, StoreBatch
from fleetscope.ingest.registry import RegistryError, VehicleInfo, VehicleRegistry
from fleetscope.vda5050.decode import decode
from fleetscope.vda5050.limits import DecodeLimits
from fleetscope.vda5050.model import DecodeError

log = logging.getLogger(__name__)


class Derivers:
    def __init__(self, *, store: FactStore, offline_after_s: float) -> None:
        self._store = store
        self._offline_after_s = offline_after_s
        self._derivers: dict[int, VehicleDeriver] = {}
        self._vehicles: dict[int, VehicleInfo] = {}

    def of(self, vehicle: VehicleInfo) -> VehicleDeriver:
        deriver = self._derivers.get(vehicle.vehicle_id)
        if deriver is not None:
            return deriver
        snapshot: dict[str, Any] | None = self._store.load_snapshot(vehicle.vehicle_id)
        config = derivation_config(
            offline_after_s=self._offline_after_s,
            workflow_rules=vehicle.workflow_rules,
            load_action_types=vehicle.load_action_types,
        )
        if snapshot is None:
            deriver = VehicleDeriver(vehicle_id=vehicle.vehicle_id, config=config)
        else:
            deriver = VehicleDeriver.restore(snapshot, config=config)
        self._derivers[vehicle.vehicle_id] = deriver
        self._vehicles[vehicle.vehicle_id] = vehicle
        return deriver

    def drop(self, vehicle_ids: Iterable[int]) -> None:
        for vehicle_id in vehicle_ids:
            self._derivers.pop(vehicle_id, None)

    def restore_all(self, registry: VehicleRegistry, vehicle_ids: Sequence[int]) -> None:
        """Load these vehicles' derivers now, so clock ticks reach them before a message."""
        for vehicle_id in vehicle_ids:
            if vehicle_id in self._derivers:
                continue
            try:
                vehicle = registry.by_id(vehicle_id)
            except RegistryError:
                continue
            self.of(vehicle)

    def live_statuses(self) -> list[LiveStatus]:
        return [deriver.live() for deriver in self._derivers.values()]

    def live_statuses_of(self, vehicle_ids: Iterable[int]) -> list[LiveStatus]:
        derivers = self._derivers
        return [derivers[v].live() for v in vehicle_ids if v in derivers]

    def clear(self) -> None:
        self._derivers.clear()
        self._vehicles.clear()

    def tick_batch(self, *, now: datetime) -> StoreBatch:
        """Every vehicle's clock advanced (offline after silence): the changes as a batch."""
        batch = StoreBatch()
        ticked = [
            (vehicle_id, deriver)
            for vehicle_id, deriver in self._derivers.items()
            if _tick_changes(deriver, now=now, batch=batch)
        ]
        if not ticked:
            return batch
        first_seq = self._store.allocate_seq(len(ticked))
        for offset, (vehicle_id, deriver) in enumerate(ticked):
            seq = first_seq + offset
            # Recorded so ``rebuild`` replays the tick at the same point of the stream.
            batch.frames.append(RawFrame(FrameKind.TICK, seq, now, vehicle_id))
            batch.snapshots[vehicle_id] = (deriver.snapshot(), seq)
            batch.live[vehicle_id] = deriver.live()
        return batch

    def replay_batch(
        self, frames: Sequence[RawFrame], *, registry: VehicleRegistry, limits: DecodeLimits
    ) -> tuple[StoreBatch, int]:
        """Stored frames fed again in stored order (the order they were derived in): facts,
        rollups and snapshots to write (no raw data: the frames are stored already), and the
        number of frames skipped."""
        batch = StoreBatch()
        last_seq: dict[int, int] = {}
        skipped = 0
        for frame in frames:
            try:
                vehicle = self._vehicles.get(frame.vehicle_id) or registry.by_id(frame.vehicle_id)
                if not self._store.known_zone(vehicle.vehicle_id):
                    batch.zones[vehicle.vehicle_id] = (vehicle.site_id, vehicle.time_zone)
                deriver = self.of(vehicle)
                if frame.kind is FrameKind.TICK:
                    batch.facts.extend(deriver.tick(now=frame.received_at))
                else:
                    message = decode(
                        frame.topic, frame.payload, received_at=frame.received_at, limits=limits
                    )
                    batch.facts.extend(deriver.feed(message))
            except (DecodeError, RegistryError) as err:
                log.warning("rebuild skips frame %d: %s", frame.seq, err)
                skipped += 1
                continue
            last_seq[frame.vehicle_id] = frame.seq
        for vehicle_id, seq in last_seq.items():
            deriver = self._derivers[vehicle_id]
            batch.snapshots[vehicle_id] = (deriver.snapshot(), seq)
            batch.live[vehicle_id] = deriver.live()
        return batch, skipped


def _tick_changes(deriver: VehicleDeriver, *, now: datetime, batch: StoreBatch) -> bool:
    before = deriver.live()
    facts = deriver.tick(now=now)
    batch.facts.extend(facts)
    return bool(facts) or deriver.live() != before
