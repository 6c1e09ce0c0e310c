"""What the MQTT tests share: a QoS 1 stream of known messages, a real paho publisher, an
installation of its own (app store with a site, data dir), and the facts to expect."""

import dataclasses
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from sqlalchemy import create_engine

from fleetscope.appstore.db import make_session_factory
from fleetscope.appstore.models import Base, Organization, Site
from fleetscope.facts.store import FactStore
from fleetscope.ingest.messages import RawMessage
from fleetscope.settings import Settings

from .conftest import IngestEnv
from .facts_dump import dump
from .vda import topic, trip

Message = tuple[str, bytes]

# Message times lie in the past (the pipeline refuses times ahead of the receive time), so
# the offline clock must not turn the vehicles offline while a test runs: facts would then
# depend on when the worker's clock ticked, and could not equal the reference.
OFFLINE_AFTER_S = 7 * 24 * 3600.0
TRIP_SECONDS_PER_ORDER = 20  # vda.trip: four states 5 s apart per order


def stream(vehicles: int, orders: int) -> list[Message]:
    """Interleaved messages of several vehicles, the newest a minute before now."""
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(
        seconds=TRIP_SECONDS_PER_ORDER * orders + 60
    )
    per_vehicle = [
        [
            (topic(f"S{v}", kind), orjson.dumps(p))
            for kind, p in trip(f"S{v}", start=start, orders=orders)
        ]
        for v in range(vehicles)
    ]
    return [m for group in zip(*per_vehicle, strict=True) for m in group]


def steady(env: IngestEnv) -> IngestEnv:
    """The environment with an offline clock that stays quiet for the test's messages."""
    settings = env.settings.model_copy(update={"offline_after_seconds": OFFLINE_AFTER_S})
    return dataclasses.replace(env, settings=settings)


class Publisher:
    """Vehicles publishing at QoS 1 through a real paho client."""

    def __init__(self, port: int) -> None:
        self.client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=f"vehicles-{uuid.uuid4().hex[:8]}",
        )
        self.client.max_inflight_messages_set(100)
        self.client.max_queued_messages_set(0)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def publish(
        self,
        messages: list[Message],
        *,
        per_second: float = 0.0,
        on_progress: Callable[[int], None] | None = None,
    ) -> None:
        """Publish in order (at ``per_second`` if given) and return once the broker has
        acknowledged every message."""
        started = time.monotonic()
        sent = []
        for index, (name, payload) in enumerate(messages, start=1):
            sent.append(self.client.publish(name, payload, qos=1))
            if per_second:
                ahead = started + index / per_second - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)
            if on_progress is not None:
                on_progress(index)
        for info in sent:
            info.wait_for_publish(10)
            assert info.is_published(), "the broker did not acknowledge a publication"

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def wait_for_stored(store: FactStore, count: int, timeout_s: float = 15.0) -> int:
    deadline = time.monotonic() + timeout_s
    stored = 0
    while time.monotonic() < deadline:
        stored = store.table_counts()["raw_keys"]
        if stored >= count:
            return stored
        time.sleep(0.05)
    return stored


def reference(env: IngestEnv, path: Path, messages: list[Message]) -> dict[str, Any]:
    """The facts of the same messages ingested in one go, without MQTT."""
    with FactStore(path) as store:
        received = datetime.now(UTC)
        env.pipeline(store).process([RawMessage(t, p, received) for t, p in messages])
        return dump(store)


def installation(folder: Path) -> IngestEnv:
    """A Fleetscope installation of its own: data dir, app store with the site of ``uagv``."""
    folder.mkdir(parents=True, exist_ok=True)
    settings = Settings(
        _env_file=None,
        environment="test",
        data_dir=folder,
        database_url=f"sqlite:///{folder / 'app.sqlite'}",
        offline_after_seconds=OFFLINE_AFTER_S,
    )
    engine = create_engine(settings.database_url)
    Base.metadata.create_all(engine)
    factory = make_session_factory(engine)
    with factory() as session:
        organization = Organization(name=f"Org {folder.name}", created_at=datetime.now(UTC))
        session.add(organization)
        session.flush()
        site = Site(
            organization_id=organization.id,
            name="Plant",
            time_zone="Europe/Berlin",
            shifts=[],
            workflow_rules=[],
            mqtt_interface="uagv",
        )
        session.add(site)
        session.commit()
        return IngestEnv(settings, factory, site.id, site.id)
