"""The demo fleet in its own process: history to the backfill, then live to MQTT.

One seeded simulation per demo site runs from ``days`` ago on. Messages before the start
instant are history, ingested through the real pipeline; the rest of the same simulation is
published to the broker in real time, so the live part continues the history without a
seam. Generating in a second process lets generation and ingestion use both cores.

Generation takes about two thirds of the CPU time ingestion does, so the fleet process
also ingests the history of a share of the vehicles itself (``FleetShare``: one in six,
into a partition fact store the backfill absorbs afterwards) and sends the rest to the
parent through a queue: both processes then take about as long.
"""

import multiprocessing
import queue
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from pathlib import Path

from fleetscope.demo.seed import DEMO_MANUFACTURER, DEMO_SITES
from fleetscope.demo.share import FleetShare, ShareDone, ShareIngestion
from fleetscope.ingest.batch import ImportResult
from fleetscope.settings import Settings
from fleetscope.simulator import TimedMessage, default_scenario, simulate
from fleetscope.simulator.engine import merged_messages
from fleetscope.simulator.sinks import MqttTarget, PublishOptions, publish_mqtt

DEMO_SEED = 5050
# How long the live part may run; longer than any demo session.
LIVE_HORIZON = timedelta(days=60)
_BATCH = 5_000
# Every SHARE_EVERY-th demo vehicle is ingested by the fleet process itself.
SHARE_EVERY = 6
_POLL_S = 1.0

Batch = list[tuple[str, bytes]] | ShareDone


@dataclass(frozen=True)
class FleetPlan:
    days: int
    split_at: datetime
    broker_url: str | None  # None: history only
    server: tuple[str, int] | None  # publish live once this address listens


def demo_messages(*, days: int, split_at: datetime) -> Iterator[TimedMessage]:
    """Both demo sites' fleets from ``days`` before ``split_at`` (whole minutes) on."""
    start = history_start(days=days, split_at=split_at)
    simulations = [
        simulate(
            default_scenario(
                vehicles=site.vehicle_count,
                serial_prefix=site.serial_prefix,
                manufacturer=DEMO_MANUFACTURER,
                interface=site.mqtt_interface,
            ),
            seed=DEMO_SEED + index,
            start=start,
            duration=split_at - start + LIVE_HORIZON,
        )
        for index, site in enumerate(DEMO_SITES)
    ]
    return merged_messages(simulations)


def _wait_for(address: tuple[str, int], *, timeout_s: float = 120.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(address, timeout=0.5):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def shared_serials() -> frozenset[str]:
    """The demo vehicles whose history the fleet process ingests (serial numbers)."""
    serials = [
        f"{site.serial_prefix}-{number:02d}"
        for site in DEMO_SITES
        for number in range(1, site.vehicle_count + 1)
    ]
    return frozenset(serials[::SHARE_EVERY])


def history_start(*, days: int, split_at: datetime) -> datetime:
    """The first instant of the history (whole minutes)."""
    return (split_at - timedelta(days=days)).replace(second=0, microsecond=0)


class FleetProgress:
    """Counters the fleet process writes and the backfill reads for its progress bar: how far
    the history has been generated (simulated time and messages) and how many messages of
    its share the fleet process has ingested. Shared memory: reading never waits."""

    def __init__(self, context: BaseContext, plan: FleetPlan) -> None:
        self.reached_ms = context.Value("q", 0, lock=False)
        self.generated = context.Value("q", 0, lock=False)
        self.shared_messages = context.Value("q", 0, lock=False)
        self._start_ms = history_start(days=plan.days, split_at=plan.split_at).timestamp() * 1000
        self._split_ms = plan.split_at.timestamp() * 1000

    def fraction(self) -> float:
        """The share of the history's time span generated so far (0 to 1)."""
        span = self._split_ms - self._start_ms
        if span <= 0:
            return 1.0
        reached = float(self.reached_ms.value)
        return min(max((reached - self._start_ms) / span, 0.0), 1.0)


def _run_fleet(
    plan: FleetPlan,
    history: "Queue[Batch]",
    control: "Queue[FleetShare | None]",
    progress: FleetProgress,
) -> None:
    split_ms = round(plan.split_at.timestamp() * 1000)
    # The parent says first whether this process ingests a share (and where to).
    share = control.get()
    own = ShareIngestion(share) if share is not None else None
    messages = demo_messages(days=plan.days, split_at=plan.split_at)
    batch: list[tuple[str, bytes]] = []
    first_live: TimedMessage | None = None
    try:
        for generated, message in enumerate(messages):
            if message[0] >= split_ms:
                first_live = message
                break
            pair = (message[1], message[2])
            if own is not None and own.takes(pair[0]):
                own.add(pair)
                continue
            batch.append(pair)
            if len(batch) >= _BATCH:
                history.put(batch)
                batch = []
                progress.reached_ms.value = message[0]
                progress.generated.value = generated + 1
                if own is not None:
                    progress.shared_messages.value = own.result.lines
        history.put(batch)
        done = own.finish() if own is not None else ShareDone(result=None)
        progress.reached_ms.value = split_ms
        if done.result is not None:
            progress.shared_messages.value = done.result.lines
        history.put(done)
    except Exception as err:  # the parent must not wait forever: it raises this
        history.put(ShareDone(result=None, error=f"{type(err).__name__}: {err}"))
        raise
    if plan.broker_url is None or plan.server is None or first_live is None:
        return
    # The server subscribes while it starts: publishing earlier would go unheard.
    if not _wait_for(plan.server):
        return
    time.sleep(1.0)

    def live() -> Iterator[TimedMessage]:
        assert first_live is not None
        yield first_live
        yield from messages

    publish_mqtt(
        live(),
        target=MqttTarget.from_url(plan.broker_url),
        options=PublishOptions(wall_clock=True, state_qos=0, connection_qos=1),
    )


class DemoHistory:
    """The fleet's history, iterated once. ``share`` before iterating lets the fleet process
    ingest a share of the vehicles itself; ``shared_result`` afterwards says how that went."""

    def __init__(self, fleet: "DemoFleet") -> None:
        self._fleet = fleet
        self._shared = False
        self._done: ShareDone | None = None

    def share(self, *, settings: Settings, path: Path) -> None:
        self._fleet.control.put(FleetShare(settings=settings, path=path, serials=shared_serials()))
        self._shared = True

    def shared_result(self) -> ImportResult | None:
        """The fleet process's own ingestion (None without ``share``); raises its error."""
        if self._done is None:
            raise RuntimeError("the history has not been iterated to its end")
        if self._done.error is not None:
            raise RuntimeError(f"the demo fleet failed to ingest its share: {self._done.error}")
        return self._done.result

    def __iter__(self) -> Iterator[tuple[str, bytes]]:
        if not self._shared:
            self._fleet.control.put(None)
        while True:
            batch = self._fleet.next_batch()
            if isinstance(batch, ShareDone):
                self._done = batch
                if batch.error is not None and not self._shared:
                    raise RuntimeError(f"the demo fleet failed: {batch.error}")
                return
            yield from batch


class DemoFleet:
    """The fleet process; iterate ``history()`` once, then it goes on live by itself."""

    def __init__(self, plan: FleetPlan) -> None:
        context = multiprocessing.get_context("spawn")
        self._queue: Queue[Batch] = context.Queue(maxsize=8)
        self.control: Queue[FleetShare | None] = context.Queue()
        self.progress = FleetProgress(context, plan)
        self._process: BaseProcess = context.Process(
            target=_run_fleet,
            args=(plan, self._queue, self.control, self.progress),
            name="demo-fleet",
            daemon=True,
        )

    def start(self) -> None:
        self._process.start()

    def history(self) -> DemoHistory:
        return DemoHistory(self)

    def next_batch(self) -> Batch:
        while True:
            try:
                return self._queue.get(timeout=_POLL_S)
            except queue.Empty:
                if not self._process.is_alive():
                    raise RuntimeError("the demo fleet process ended unexpectedly") from None

    def stop(self) -> None:
        if self._process.pid is None:  # never started
            return
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(timeout=5)


def now_utc() -> datetime:
    return datetime.now(UTC)
