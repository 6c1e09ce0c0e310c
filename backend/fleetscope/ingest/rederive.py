"""Re-derivation jobs: some vehicles' facts derived again from the raw log, in the background.

A change that alters derived facts (a site's workflow rules, load action types or time
zone, a vehicle's site) queues a job (``start_rederive``, a row of the app store's
``rederive_jobs``, in the caller's transaction). ``RederiveRunner``, a thread of the server
started with ingestion, takes queued jobs one at a time, oldest first; a job a crash or a
stop left ``running`` is queued again when the runner starts and runs from the beginning.

A job reads the raw log up to the newest frame stored when it starts, chunk by chunk, and
feeds the job's vehicles' frames to fresh derivers made with their site's current
configuration (``rederive_work``); what they derive is staged in temporary tables of the
fact store (``facts.restage``), written between the ingest worker's batches. Ingestion
and the API go on meanwhile, and readers see the old facts. Then the vehicles are swapped
in a few at a time (at most ``SWAP_FACTS`` facts, or one vehicle), each slice in a short
step of the ingest thread (``rederive_swap``): the frames stored since the last read are
fed, and the staged rows replace those vehicles' facts, rollups, snapshots and live status
and their sites' rows of their days in one transaction; the pipeline's derivers of those
vehicles are made again from the new snapshots. The batches queued
meanwhile are written between two steps. Progress (``frames_done`` of ``frames_total``:
the raw log's frames read, every vehicle's frames pass by, then each vehicle's messages as
it is swapped in) is written to the job's row after each staged batch and each swap.
"""

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.appstore.models import RederiveJob
from fleetscope.facts import rawlog
from fleetscope.facts.restage import Staging
from fleetscope.facts.store import FactStore
from fleetscope.i18n.ingest_admin import JOB_REASON_UNKNOWN
from fleetscope.ingest.pipeline import IngestPipeline
from fleetscope.ingest.rederive_swap import VehicleSwap
from fleetscope.ingest.rederive_work import Progress, Rederivation, message_counts
from fleetscope.ingest.registry import RegistryError, VehicleInfo
from fleetscope.ingest.worker import IngestWorker

log = logging.getLogger(__name__)

REASONS = ("workflowRules", "vehicleSite", "loadActionTypes", "timeZone")
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
ERROR_MAX = 1000
# Facts staged at a time: a few MB of rows. The progress is written with each staged
# batch, and at least every NOTE_FRAMES frames read (a job of one vehicle among many
# derives few facts per frame read), which is also when a stop is noticed.
STAGE_FACTS = 50_000
# Facts swapped in per step of the ingest thread (a vehicle with more is a step alone):
# about 0.4 s of the ingest thread on this project's 2-core machine when it is quiet.
SWAP_FACTS = 500_000
NOTE_FRAMES = 100_000
POLL_S = 2.0  # how often the runner looks for jobs queued by another process (the CLI)

# Called after each staged batch with the job's id and its frames done, and after each swap
# step with the job's id and the vehicles it swapped in (tests).
BatchHook = Callable[[int, int], None]
SwapHook = Callable[[int, list[int]], None]


def start_rederive(
    session: Session,
    *,
    reason: str,
    site_id: int | None,
    vehicle_ids: Sequence[int],
    created_by: str,
) -> RederiveJob:
    """Queue a re-derivation of ``vehicle_ids`` in ``session``'s transaction (the caller
    commits it with the change that needs it)."""
    if reason not in REASONS:
        raise InvalidInputError(JOB_REASON_UNKNOWN(reason=reason, allowed=", ".join(REASONS)))
    job = RederiveJob(
        created_at=datetime.now(UTC),
        state=QUEUED,
        reason=reason,
        site_id=site_id,
        vehicle_ids=sorted({int(v) for v in vehicle_ids}),
        frames_total=0,
        frames_done=0,
        created_by=created_by[:320],
    )
    session.add(job)
    session.flush()
    return job


class _Interrupted(Exception):
    """The runner is stopping: the job stays ``running`` and starts again next time."""


class RederiveRunner:
    def __init__(
        self,
        *,
        store: FactStore,
        worker: IngestWorker,
        pipeline: IngestPipeline,
        session_factory: SessionFactory,
        offline_after_s: float,
        stage_facts: int = STAGE_FACTS,
        swap_facts: int = SWAP_FACTS,
        poll_s: float = POLL_S,
        on_batch: BatchHook | None = None,
        on_swap: SwapHook | None = None,
    ) -> None:
        self._store = store
        self._worker = worker
        self._pipeline = pipeline
        self._sessions = session_factory
        self._offline_after_s = offline_after_s
        self._stage_facts = stage_facts
        self._swap_facts = swap_facts
        self._poll_s = poll_s
        self._on_batch = on_batch
        self._on_swap = on_swap
        self._staging = Staging(store)
        self._swap = VehicleSwap(
            store=store, worker=worker, pipeline=pipeline, staging=self._staging
        )
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="fleetscope-rederive", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """Look for queued jobs now instead of at the next poll."""
        self._wake.set()

    def stop(self, *, timeout_s: float = 60.0) -> None:
        """Stop after the current batch; a job in progress is left to the next start."""
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)

    def run_pending(self) -> list[int]:
        """Run every queued job (and those an interruption left running) in this thread;
        returns their ids. The server's thread does the same in a loop."""
        self._requeue_interrupted()
        ran: list[int] = []
        while not self._stopping.is_set() and (job := self._claim()) is not None:
            ran.append(job[0])
            self._run(*job)
        return ran

    def _loop(self) -> None:
        try:
            self._requeue_interrupted()
        except Exception:
            log.exception("re-derivation: cannot read the jobs")
        while not self._stopping.is_set():
            try:
                job = self._claim()
            except Exception:
                log.exception("re-derivation: cannot read the jobs")
                job = None
            if job is None:
                self._wake.wait(self._poll_s)
                self._wake.clear()
                continue
            self._run(*job)

    # --- the job's row --------------------------------------------------------------------

    def _requeue_interrupted(self) -> None:
        with self._sessions() as session:
            session.execute(
                update(RederiveJob).where(RederiveJob.state == RUNNING).values(state=QUEUED)
            )
            session.commit()

    def _claim(self) -> tuple[int, list[int]] | None:
        """The oldest queued job, marked running (by this runner only: the update checks
        that it is still queued)."""
        with self._sessions() as session:
            for job in session.scalars(
                select(RederiveJob).where(RederiveJob.state == QUEUED).order_by(RederiveJob.id)
            ):
                claimed = session.execute(
                    update(RederiveJob)
                    .where(RederiveJob.id == job.id, RederiveJob.state == QUEUED)
                    .values(
                        state=RUNNING,
                        started_at=datetime.now(UTC),
                        finished_at=None,
                        frames_done=0,
                        error=None,
                    )
                )
                session.commit()
                if claimed.rowcount == 1:  # type: ignore[attr-defined]
                    return job.id, [int(v) for v in job.vehicle_ids]
        return None

    def _note(self, job_id: int, **values: object) -> None:
        with self._sessions() as session:
            session.execute(update(RederiveJob).where(RederiveJob.id == job_id).values(**values))
            session.commit()

    # --- the work -------------------------------------------------------------------------

    def _run(self, job_id: int, vehicle_ids: list[int]) -> None:
        log.info("re-derivation job %d of %d vehicles started", job_id, len(vehicle_ids))
        try:
            frames = self._derive(job_id, vehicle_ids)
        except _Interrupted:
            log.info("re-derivation job %d interrupted; it runs again at the next start", job_id)
            return
        except Exception as err:
            log.exception("re-derivation job %d failed", job_id)
            self._note(
                job_id,
                state=FAILED,
                finished_at=datetime.now(UTC),
                error=f"{type(err).__name__}: {err}"[:ERROR_MAX],
            )
            return
        now = datetime.now(UTC)
        self._note(job_id, state=DONE, finished_at=now, frames_done=frames, frames_total=frames)
        log.info("re-derivation job %d done: %d frames and messages", job_id, frames)

    def _vehicles(self, vehicle_ids: list[int]) -> dict[int, VehicleInfo]:
        """The vehicles as configured now (a vehicle deleted since has nothing to derive)."""
        registry = self._pipeline.registry
        registry.forget(vehicle_ids)
        found: dict[int, VehicleInfo] = {}
        for vehicle_id in vehicle_ids:
            try:
                found[vehicle_id] = registry.by_id(vehicle_id)
            except RegistryError:
                continue
        return found

    def _derive(self, job_id: int, vehicle_ids: list[int]) -> int:
        """Stage the vehicles' new facts from the raw log, then swap them in one by one;
        the progress units done (frames read and messages swapped in)."""
        work = Rederivation(
            vehicles=self._vehicles(vehicle_ids), offline_after_s=self._offline_after_s
        )
        with self._store.cursor() as cursor:
            through = rawlog.last_seq(cursor)
            messages = message_counts(cursor, vehicle_ids=sorted(work.vehicles), through=through)
            progress = Progress(
                total=rawlog.frame_count(cursor, after=0, through=through) + sum(messages.values())
            )
            self._note(job_id, frames_total=progress.total)
            self._staging.open()
            try:
                noted = 0
                for chunk in rawlog.read_chunks(cursor, after=0, through=through):
                    work.feed_chunk(chunk)
                    progress.done += chunk.frame_count
                    if work.pending >= self._stage_facts or progress.done - noted >= NOTE_FRAMES:
                        self._stage(job_id, work, progress)
                        noted = progress.done
                self._stage(job_id, work, progress)
                for step in work.slices(facts=self._swap_facts):
                    progress.add_read(self._swap.run(work, step, cursor=cursor))
                    progress.done += sum(messages.get(vehicle_id, 0) for vehicle_id in step)
                    self._note_progress(job_id, progress)
                    if self._on_swap is not None:
                        self._on_swap(job_id, step)
                    if self._stopping.is_set():
                        raise _Interrupted
            finally:
                self._staging.close()
        return progress.done

    def _note_progress(self, job_id: int, progress: Progress) -> None:
        self._note(job_id, frames_done=progress.done, frames_total=progress.total)

    def _stage(self, job_id: int, work: Rederivation, progress: Progress) -> None:
        self._staging.add(work.take_facts(), zone_of=work.zone_of)
        self._note_progress(job_id, progress)
        if self._on_batch is not None:
            self._on_batch(job_id, progress.done)
        if self._stopping.is_set():
            raise _Interrupted
