"""The demo fleet: one seeded simulation per demo site, split at "now" into history and live.

History goes through the real ingestion pipeline (as ``fleetscope import`` would); the rest
of the same simulation is published live to MQTT, so the live part continues the history
without a seam.
"""

import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fleetscope.appstore.db import engine_for, make_session_factory
from fleetscope.demo.seed import DEMO_MANUFACTURER, DEMO_SITES
from fleetscope.facts.store import FactStore
from fleetscope.ingest.batch import ImportResult, ingest_messages
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings
from fleetscope.simulator import TimedMessage, default_scenario, simulate
from fleetscope.simulator.engine import merged_messages

DEMO_SEED = 5050
# The live part of the simulation; long enough for any demo session.
LIVE_HORIZON = timedelta(days=60)


@dataclass
class SplitStream:
    """Messages before ``boundary_ms`` from ``history()``, then the rest from ``live()``."""

    source: Iterator[TimedMessage]
    boundary_ms: int
    _first_live: TimedMessage | None = None

    def history(self) -> Iterator[tuple[str, bytes]]:
        for message in self.source:
            if message[0] >= self.boundary_ms:
                self._first_live = message
                return
            yield message[1], message[2]

    def live(self) -> Iterator[TimedMessage]:
        if self._first_live is not None:
            yield self._first_live
        yield from self.source


def demo_stream(*, days: int, now: datetime | None = None) -> SplitStream:
    """The demo sites' fleets from ``days`` ago (whole minutes) on, split at ``now``."""
    now = now or datetime.now(UTC)
    start = (now - timedelta(days=days)).replace(second=0, microsecond=0)
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
            duration=timedelta(days=days) + LIVE_HORIZON,
        )
        for index, site in enumerate(DEMO_SITES)
    ]
    return SplitStream(merged_messages(simulations), boundary_ms=round(now.timestamp() * 1000))


def backfill(*, settings: Settings, stream: SplitStream) -> ImportResult:
    """Ingest the stream's history into the fact store through the ingestion pipeline."""
    engine = engine_for(settings)
    try:
        with FactStore(settings.resolved_facts_path()) as store:
            pipeline = build_pipeline(
                settings, session_factory=make_session_factory(engine), store=store
            )
            started = time.perf_counter()
            result = ingest_messages(pipeline, stream.history())
            result.seconds = time.perf_counter() - started
            return result
    finally:
        engine.dispose()
