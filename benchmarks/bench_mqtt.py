"""End to end through a private Mosquitto into the fact store, at QoS 0 and QoS 1.

A publisher on the same machine sends ``--messages`` simulated VDA 5050 messages as fast as
it can; Fleetscope's MQTT subscriber (the server's ingestion: bounded queue, ingest worker,
fact store) consumes them. Prints per QoS the publish rate, the end-to-end rate (first
publish to last message stored) and the loss. Asserts nothing.

    .venv/bin/python benchmarks/bench_mqtt.py [--messages 60000] [--qos 0 1]
"""

import argparse
import multiprocessing
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from sqlalchemy import create_engine

from fleetscope.appstore.db import make_session_factory
from fleetscope.appstore.models import Base, Organization, Site
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.ingest.service import start_ingestion
from fleetscope.settings import Settings
from fleetscope.simulator import default_scenario, simulate

SETTLE_S = 3.0  # no new message for this long after publishing ends: the rest is lost


def _messages(count: int) -> list[tuple[str, bytes]]:
    # Timestamps end now, so the offline clock does not turn the stream into offline facts.
    days = max(1, round(count / 58_000 + 0.5))
    start = datetime.now(UTC) - timedelta(days=days)
    run = simulate(
        default_scenario(vehicles=12), seed=11, start=start, duration=timedelta(days=days)
    )
    messages = []
    for message in run.messages():
        messages.append(message)
        if len(messages) == count:
            break
    return messages


def _publish(
    messages: list[tuple[str, bytes]], port: int, qos: int, results: "multiprocessing.Queue[float]"
) -> None:
    """The vehicles: a separate process, as on a real site (no shared interpreter lock)."""
    publisher = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2,
        client_id=f"bench-vehicles-{uuid.uuid4().hex[:6]}",
    )
    publisher.max_inflight_messages_set(1000)
    publisher.max_queued_messages_set(0)
    publisher.connect("127.0.0.1", port)
    publisher.loop_start()
    started = time.perf_counter()
    last = None
    for topic, payload in messages:
        last = publisher.publish(topic, payload, qos=qos)
    if last is not None:
        last.wait_for_publish(600)
    results.put(time.perf_counter() - started)
    publisher.disconnect()
    publisher.loop_stop()


def _run(broker: PrivateMosquitto, messages: list[tuple[str, bytes]], qos: int) -> None:
    with tempfile.TemporaryDirectory(prefix="fleetscope-bench-mqtt-") as folder:
        data = Path(folder)
        settings = Settings(
            _env_file=None,
            data_dir=data,
            mqtt_url=broker.url,
            mqtt_client_id=f"fleetscope-bench-{uuid.uuid4().hex[:6]}",
        )
        engine = create_engine(settings.resolved_database_url())
        Base.metadata.create_all(engine)
        factory = make_session_factory(engine)
        with factory() as session:
            organization = Organization(name="Bench", created_at=datetime.now(UTC))
            session.add(organization)
            session.flush()
            session.add(
                Site(
                    organization_id=organization.id,
                    name="Bench",
                    time_zone="Europe/Berlin",
                    shifts=[],
                    workflow_rules=[],
                    mqtt_interface="uagv",
                )
            )
            session.commit()
        handle = start_ingestion(settings, session_factory=factory)
        assert handle.mqtt is not None and handle.mqtt.subscribed.wait(10)
        results: multiprocessing.Queue[float] = multiprocessing.Queue()
        publisher = multiprocessing.Process(
            target=_publish, args=(messages, broker.port, qos, results), daemon=True
        )
        try:
            started = time.perf_counter()
            publisher.start()
            published_s = results.get(timeout=600)
            subscriber = handle.mqtt
            received, changed_at = -1, time.perf_counter()
            # Done when everything is stored, or nothing more arrives and the queue is empty.
            while handle.worker.processed < len(messages):
                time.sleep(0.05)
                if subscriber.received != received:
                    received, changed_at = subscriber.received, time.perf_counter()
                idle = time.perf_counter() - changed_at > SETTLE_S
                if idle and handle.worker.processed >= received:
                    break
            stored = handle.worker.processed
            elapsed = time.perf_counter() - started
        finally:
            publisher.join(10)
            handle.stop()
            engine.dispose()
    lost = len(messages) - stored
    print(
        f"QoS {qos}: published {len(messages):,} in {published_s:.1f} s "
        f"({len(messages) / published_s:,.0f} msg/s)"
    )
    print(
        f"QoS {qos}: stored {stored:,} in {elapsed:.1f} s ({stored / elapsed:,.0f} msg/s "
        f"end to end), lost {lost:,} ({100 * lost / len(messages):.2f} %)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=60_000)
    parser.add_argument("--qos", type=int, nargs="+", default=[0, 1], choices=[0, 1])
    args = parser.parse_args()
    messages = _messages(args.messages)
    with (
        tempfile.TemporaryDirectory(prefix="fleetscope-mosquitto-") as folder,
        PrivateMosquitto(workdir=Path(folder)) as broker,
    ):
        for qos in args.qos:
            _run(broker, messages, qos)


if __name__ == "__main__":
    main()
