"""The demo fleet in its own process: history to the backfill, then live to MQTT.

One seeded simulation per demo site runs from ``days`` ago on. Messages before the start
instant go to the parent through a queue (the parent ingests them through the real
pipeline); the rest of the same simulation is published to the broker in real time, so
the live part continues the history without a seam. Generating in a second process lets
generation and ingestion use both cores.
"""

import multiprocessing
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue

from fleetscope.demo.seed import DEMO_MANUFACTURER, DEMO_SITES
from fleetscope.simulator import TimedMessage, default_scenario, simulate
from fleetscope.simulator.engine import merged_messages
from fleetscope.simulator.sinks import MqttTarget, PublishOptions, publish_mqtt

DEMO_SEED = 5050
# How long the live part may run; longer than any demo session.
LIVE_HORIZON = timedelta(days=60)
_BATCH = 5_000

Batch = list[tuple[str, bytes]] | None


@dataclass(frozen=True)
class FleetPlan:
    days: int
    split_at: datetime
    broker_url: str | None  # None: history only
    server: tuple[str, int] | None  # publish live once this address listens


def demo_messages(*, days: int, split_at: datetime) -> Iterator[TimedMessage]:
    """Both demo sites' fleets from ``days`` before ``split_at`` (whole minutes) on."""
    start = (split_at - timedelta(days=days)).replace(second=0, microsecond=0)
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


def _run_fleet(plan: FleetPlan, history: "Queue[Batch]") -> None:
    split_ms = round(plan.split_at.timestamp() * 1000)
    messages = demo_messages(days=plan.days, split_at=plan.split_at)
    batch: list[tuple[str, bytes]] = []
    first_live: TimedMessage | None = None
    for message in messages:
        if message[0] >= split_ms:
            first_live = message
            break
        batch.append((message[1], message[2]))
        if len(batch) >= _BATCH:
            history.put(batch)
            batch = []
    history.put(batch)
    history.put(None)
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


class DemoFleet:
    """The fleet process; iterate ``history()`` once, then it goes on live by itself."""

    def __init__(self, plan: FleetPlan) -> None:
        context = multiprocessing.get_context("spawn")
        self._queue: Queue[Batch] = context.Queue(maxsize=8)
        self._process: BaseProcess = context.Process(
            target=_run_fleet, args=(plan, self._queue), name="demo-fleet", daemon=True
        )

    def start(self) -> None:
        self._process.start()

    def history(self) -> Iterator[tuple[str, bytes]]:
        while (batch := self._queue.get()) is not None:
            yield from batch

    def stop(self) -> None:
        if self._process.pid is None:  # never started
            return
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(timeout=5)


def now_utc() -> datetime:
    return datetime.now(UTC)
