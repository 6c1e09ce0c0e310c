"""Ingestion inside the server: fact store, pipeline, worker thread, live hub, MQTT subscriber.

``api.main``'s lifespan calls ``start_ingestion(settings, session_factory=...)`` on start
and ``handle.stop()`` on shutdown. The handle is kept at ``app.state.ingestion``.
"""

import logging
from dataclasses import dataclass

from fleetscope.appstore.db import SessionFactory
from fleetscope.facts.store import FactStore
from fleetscope.ingest.client_id import resolve_client_id
from fleetscope.ingest.interfaces import InterfaceWatcher, followed_interfaces
from fleetscope.ingest.limits import IngestLimits
from fleetscope.ingest.live import LiveHub
from fleetscope.ingest.mqtt import MAX_RECEIVE_MAXIMUM, MqttSubscriber, parse_broker_url
from fleetscope.ingest.pipeline import IngestPipeline
from fleetscope.ingest.rederive import RederiveRunner
from fleetscope.ingest.registry import VehicleRegistry
from fleetscope.ingest.worker import IngestWorker
from fleetscope.settings import Settings

log = logging.getLogger(__name__)


@dataclass
class IngestionHandle:
    store: FactStore
    pipeline: IngestPipeline
    worker: IngestWorker
    hub: LiveHub
    mqtt: MqttSubscriber | None = None
    interfaces: InterfaceWatcher | None = None
    rederive: RederiveRunner | None = None

    def sites_changed(self) -> None:
        """A site was created or changed: follow its MQTT interface now."""
        if self.interfaces is not None:
            self.interfaces.wake()

    def stop(self) -> None:
        """Stop taking messages, write everything already queued, close the store. A
        re-derivation in progress stops first and runs again at the next start."""
        if self.rederive is not None:
            self.rederive.stop()
        if self.interfaces is not None:
            self.interfaces.stop()
        if self.mqtt is not None:
            # Still connected while the worker drains: the drained messages are acknowledged.
            self.mqtt.close_intake()
        self.worker.stop()
        if self.mqtt is not None:
            self.mqtt.stop()
        self.store.close()


def build_pipeline(
    settings: Settings,
    *,
    session_factory: SessionFactory,
    store: FactStore,
    hub: LiveHub | None = None,
    default_site_id: int | None = None,
) -> IngestPipeline:
    registry = VehicleRegistry(
        session_factory=session_factory,
        default_site_id=default_site_id,
        max_vehicles_per_site=settings.max_vehicles_per_site,
    )
    return IngestPipeline(
        store=store,
        registry=registry,
        offline_after_s=settings.offline_after_seconds,
        limits=IngestLimits.from_settings(settings),
        hub=hub,
    )


def start_ingestion(
    settings: Settings,
    *,
    session_factory: SessionFactory,
    default_site_id: int | None = None,
    start_mqtt: bool = True,
) -> IngestionHandle:
    """Open the fact store and start the ingest worker (and MQTT when ``mqtt_url`` is set)."""
    store = FactStore(
        settings.resolved_facts_path(),
        offline_after_s=settings.offline_after_seconds,
        memory_limit=settings.fact_store_memory_limit,
        threads=settings.fact_store_threads or None,
    )
    hub = LiveHub()
    pipeline = build_pipeline(
        settings,
        session_factory=session_factory,
        store=store,
        hub=hub,
        default_site_id=default_site_id,
    )
    # Clock ticks must reach vehicles that went silent while the server was down.
    pipeline.restore_all(store.snapshot_vehicle_ids())
    hub.publish(pipeline.live_statuses())
    worker = IngestWorker(pipeline)
    # Senders' retries after the server was away (HTTP gateways, the broker) come first.
    worker.hold_ticks(settings.offline_after_seconds)
    worker.start()
    handle = IngestionHandle(store=store, pipeline=pipeline, worker=worker, hub=hub)
    handle.rederive = RederiveRunner(
        store=store,
        worker=worker,
        pipeline=pipeline,
        session_factory=session_factory,
        offline_after_s=settings.offline_after_seconds,
    )
    handle.rederive.start()
    if settings.mqtt_url and start_mqtt:
        interfaces = followed_interfaces(session_factory, default_interface=settings.mqtt_interface)
        client_id = resolve_client_id(
            configured=settings.mqtt_client_id, data_dir=settings.data_dir
        )
        handle.mqtt = MqttSubscriber(
            url=settings.mqtt_url,
            client_id=client_id,
            interfaces=interfaces,
            worker=worker,
            # Unacknowledged messages (queued, or in the batch being written) never exceed
            # the queue bound, so MQTT alone never has to block paho's network thread.
            receive_maximum=min(MAX_RECEIVE_MAXIMUM, worker.max_queued_messages),
            hold_ticks_s=settings.offline_after_seconds,
        )
        handle.mqtt.start()
        handle.interfaces = InterfaceWatcher(
            subscriber=handle.mqtt,
            registry=pipeline.registry,
            session_factory=session_factory,
            default_interface=settings.mqtt_interface,
        )
        handle.interfaces.start()
        log.info(
            "MQTT ingestion from %s on %s as client id %s",
            parse_broker_url(settings.mqtt_url).host,
            ", ".join(sorted(set(interfaces))),
            client_id,
        )
    return handle
