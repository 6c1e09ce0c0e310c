"""A re-derivation's swap of a few vehicles: a short step of the ingest thread.

The runner swaps a job's vehicles in a few at a time (``Rederivation.slices``: a bounded
number of facts, or one vehicle), each slice in its own step of the ingest
thread (``IngestWorker.call``: no batch interleaves, and the batches queued meanwhile are
written between two steps). Before each step the frames stored since the last one are
read in the runner's thread, so that the step itself reads only those of the last moments,
then swaps the vehicles' staged rows in (``Staging.swap_vehicles``, one transaction) and
makes the pipeline's derivers of those vehicles again from their new snapshots.
"""

import logging
import time

from duckdb import DuckDBPyConnection

from fleetscope.facts import rawlog
from fleetscope.facts.restage import Staging
from fleetscope.facts.store import FactStore
from fleetscope.ingest.pipeline import IngestPipeline
from fleetscope.ingest.rederive_work import Rederivation
from fleetscope.ingest.worker import IngestWorker

log = logging.getLogger("fleetscope.ingest.rederive")

STEP_TIMEOUT_S = 3600.0


class VehicleSwap:
    def __init__(
        self,
        *,
        store: FactStore,
        worker: IngestWorker,
        pipeline: IngestPipeline,
        staging: Staging,
    ) -> None:
        self._store = store
        self._worker = worker
        self._pipeline = pipeline
        self._staging = staging

    def run(self, work: Rederivation, vehicle_ids: list[int], *, cursor: DuckDBPyConnection) -> int:
        """Swap some vehicles in (after the frames stored since the last read); returns the
        frames read."""
        read = work.feed_stored(cursor, through=rawlog.last_seq(cursor))
        self._staging.add(work.take_facts(), zone_of=work.zone_of)
        step = self._worker.call(lambda: self._in_ingest_thread(work, vehicle_ids))
        return read + int(step.result(timeout=STEP_TIMEOUT_S))

    def _in_ingest_thread(self, work: Rederivation, vehicle_ids: list[int]) -> int:
        """The frames stored since the last read (of every vehicle still to swap, so that
        their derivers stay in step), then the vehicle's swap; returns the frames read."""
        began = time.perf_counter()
        with self._store.cursor() as cursor:
            read = work.feed_stored(cursor, through=None)
        self._staging.add(work.take_facts(), zone_of=work.zone_of)
        swapped = [work.swapped(vehicle_id) for vehicle_id in vehicle_ids]
        self._staging.swap_vehicles(swapped)
        work.retire(vehicle_ids)
        self._pipeline.reload_vehicles(
            vehicle_ids, restore=[v.vehicle_id for v in swapped if v.snapshot is not None]
        )
        # What ingestion waited for (it is queued meanwhile): worth knowing in the log.
        log.info(
            "re-derivation swapped in %d vehicles %s in %.3f s of the ingest thread",
            len(vehicle_ids),
            vehicle_ids,
            time.perf_counter() - began,
        )
        return read
