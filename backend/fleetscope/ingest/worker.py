"""One ingest thread draining a bounded queue: the only caller of the pipeline in the server.

Producers (the MQTT network thread, HTTP requests) ``submit`` jobs of one or more messages;
submitting blocks while ``max_queued_messages`` or ``max_queued_bytes`` of payload wait
already, which throttles the producer (for MQTT at QoS 1 the broker holds the rest) instead
of growing memory. The bounds count messages and bytes, not jobs, so producers may hand over
batches of any size, and a broker that delivers messages of any size cannot fill memory
(an oversized one is refused unparsed, ``vda5050.limits``, but first it is queued).
The worker merges queued jobs into batches of up to ``batch_size`` messages, so a busy
stream is written in large transactions while a quiet one still reaches the fact store and
the live hub within ``linger_s``. A batch costs about 60 ms of CPU besides its messages (a
dozen appends, the rollup rows, the commit), so the worker lingers long enough for a busy
MQTT stream to fill batches of thousands; a job whose sender waits for the verdicts (HTTP)
ends the lingering.

Every job learns its fate only after its batch is committed (or failed): HTTP through a
future with the verdicts, MQTT through an ``on_done`` callback, which acknowledges the
messages to the broker. Jobs are answered in the order they were submitted.

``call`` runs a function in the ingest thread between two batches: for work that must not
interleave with the pipeline's derivation (a re-derivation swapping in a vehicle's facts and
machine state, ``ingest.rederive``).
"""

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from fleetscope.ingest.messages import BatchOutcome, RawMessage
from fleetscope.ingest.pipeline import IngestPipeline

log = logging.getLogger(__name__)


# Told in the worker thread: None once the job's batch is committed, else the error.
JobDone = Callable[[BaseException | None], None]


@dataclass(slots=True)
class _Job:
    messages: Sequence[RawMessage]
    future: Future[BatchOutcome] | None = None
    on_done: JobDone | None = None
    call: Callable[[], Any] | None = None  # ``IngestWorker.call``: no messages
    called: Future[Any] | None = None
    payload_bytes: int = 0  # of its messages, counted when queued


_STOP = _Job(messages=())


class IngestWorker:
    def __init__(
        self,
        pipeline: IngestPipeline,
        *,
        max_queued_messages: int = 40_000,
        max_queued_bytes: int = 256 * 1024 * 1024,
        batch_size: int = 10_000,
        linger_s: float = 0.25,
        tick_interval_s: float = 1.0,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.pipeline = pipeline
        # Unbounded as a queue: ``_enqueue`` bounds the messages and bytes in it.
        self._queue: queue.Queue[_Job] = queue.Queue()
        self.max_queued_messages = max_queued_messages
        self.max_queued_bytes = max_queued_bytes
        self._queued = 0
        self._queued_bytes = 0
        self._room = threading.Condition()
        self._batch_size = batch_size
        self._linger_s = linger_s
        self._tick_interval_s = tick_interval_s
        self._clock = clock
        self._ticks_from = 0.0  # monotonic: no clock tick before
        self._thread = threading.Thread(target=self._run, name="fleetscope-ingest", daemon=True)
        self._stopping = False
        self.processed = 0
        self.failed_batches = 0

    def start(self) -> None:
        self._thread.start()

    def hold_ticks(self, seconds: float) -> None:
        """No clock tick for ``seconds``: what senders kept while the server was away (the
        broker's session, a gateway's retries) arrives first. A tick before it would set
        the vehicles offline and fold their late messages onto that instant; a tick after it
        still sets a silent vehicle offline at its last message + ``offline_after``."""
        self._ticks_from = max(self._ticks_from, time.monotonic() + seconds)

    def submit(self, messages: Sequence[RawMessage]) -> Future[BatchOutcome]:
        """Queue messages (blocks while the queue is full); the future gives their verdicts."""
        future: Future[BatchOutcome] = Future()
        self._enqueue(_Job(messages=messages, future=future))
        return future

    def submit_then(self, messages: Sequence[RawMessage], *, on_done: JobDone) -> None:
        """Queue messages whose producer goes on meanwhile (MQTT); blocks while full.

        ``on_done`` runs in the worker thread once the batch holding them is committed
        (``None``) or failed (the error), in the order of submission; it must be quick.
        """
        self._enqueue(_Job(messages=messages, on_done=on_done))

    def call(self, function: Callable[[], Any]) -> Future[Any]:
        """Run ``function`` in the ingest thread after the batches queued before it; the
        future gives its result or its exception. Raises once the worker is stopping."""
        future: Future[Any] = Future()
        self._enqueue(_Job(messages=(), call=function, called=future))
        return future

    def _enqueue(self, job: _Job) -> None:
        """Wait for room for the job's messages, then queue it; a job larger than a bound
        waits for an empty queue instead of forever. Raises once the worker is stopping:
        the producer keeps its messages (nothing queued after the stop would be written)."""
        count = len(job.messages)
        job.payload_bytes = sum(len(message.payload) for message in job.messages)
        with self._room:
            while True:
                if self._stopping:
                    raise RuntimeError("ingestion is stopping")
                if not self._queued or (
                    self._queued + count <= self.max_queued_messages
                    and self._queued_bytes + job.payload_bytes <= self.max_queued_bytes
                ):
                    break
                self._room.wait()
            self._queued += count
            self._queued_bytes += job.payload_bytes
            # Under the lock that ``stop`` takes: every job is queued before the stop mark.
            self._queue.put(job)

    def _release(self, count: int, payload_bytes: int) -> None:
        with self._room:
            self._queued -= count
            self._queued_bytes -= payload_bytes
            self._room.notify_all()

    def stop(self, *, timeout_s: float = 30.0) -> None:
        """Process everything already queued, then end the thread."""
        with self._room:
            self._stopping = True
            self._room.notify_all()  # producers waiting for room give up
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(timeout_s)
        if not self._thread.is_alive():
            self._refuse_leftovers()

    def _refuse_leftovers(self) -> None:
        """Jobs the thread never reached (it never started): not stored, and their
        producers are told so instead of waiting forever."""
        stopped = RuntimeError("ingestion stopped before these messages were stored")
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return
            if job is not _STOP:
                self._release(len(job.messages), job.payload_bytes)
                self._answer(job, error=stopped)

    def _run(self) -> None:
        next_tick = time.monotonic() + self._tick_interval_s
        while True:
            timeout = max(0.0, next_tick - time.monotonic())
            try:
                first = self._queue.get(timeout=timeout)
            except queue.Empty:
                first = None
            if first is _STOP:
                return
            if first is not None:
                stop_after = self._process(self._gather(first) if first.call is None else [first])
                if stop_after:
                    return
            if time.monotonic() >= next_tick:
                next_tick = time.monotonic() + self._tick_interval_s
                if time.monotonic() >= self._ticks_from:
                    self._tick()

    def _gather(self, first: _Job) -> list[_Job]:
        jobs = [first]
        count, payload_bytes = len(first.messages), first.payload_bytes
        # Someone waiting for verdicts: take only what is queued already.
        deadline = time.monotonic() + (0.0 if first.future is not None else self._linger_s)
        while count < self._batch_size:
            remaining = deadline - time.monotonic()
            try:
                job = (
                    self._queue.get(timeout=remaining)
                    if remaining > 0
                    else self._queue.get_nowait()
                )
            except queue.Empty:
                break
            jobs.append(job)
            count += len(job.messages)
            payload_bytes += job.payload_bytes
            if job is _STOP or job.call is not None:
                break  # the batch so far is written first
            if job.future is not None:
                deadline = 0.0
        # Producers may fill the queue again while this batch is processed.
        self._release(count, payload_bytes)
        return jobs

    def _process(self, jobs: list[_Job]) -> bool:
        stop_after = jobs[-1] is _STOP
        work = [job for job in jobs if job is not _STOP and job.call is None]
        if work:
            self._process_messages(work)
        for job in jobs:
            if job.call is not None:
                self._run_call(job)
        return stop_after

    @staticmethod
    def _run_call(job: _Job) -> None:
        assert job.call is not None and job.called is not None
        try:
            result = job.call()
        except Exception as err:  # the caller gets it; the ingest thread goes on
            job.called.set_exception(err)
        else:
            job.called.set_result(result)

    def _process_messages(self, work: list[_Job]) -> None:
        messages = [message for job in work for message in job.messages]
        try:
            outcome = self.pipeline.process(messages)
        except Exception as err:
            self.failed_batches += 1
            log.exception("ingest batch of %d messages failed", len(messages))
            for job in work:
                self._answer(job, error=err)
            return
        self.processed += len(messages)
        start = 0
        for job in work:
            stop = start + len(job.messages)
            self._answer(job, outcome=outcome, start=start, stop=stop)
            start = stop

    @staticmethod
    def _answer(
        job: _Job,
        *,
        error: BaseException | None = None,
        outcome: BatchOutcome | None = None,
        start: int = 0,
        stop: int = 0,
    ) -> None:
        if job.future is not None:
            if error is not None:
                job.future.set_exception(error)
            elif outcome is not None:
                job.future.set_result(outcome.slice(start, stop))
        if job.called is not None and error is not None:
            job.called.set_exception(error)
        if job.on_done is not None:
            try:
                job.on_done(error)
            except Exception:
                # A producer's mistake must not end the only ingest thread.
                log.exception("ingest job callback failed")

    def _tick(self) -> None:
        try:
            self.pipeline.tick(now=self._clock())
        except Exception:
            log.exception("ingest clock tick failed")
