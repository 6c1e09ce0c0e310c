"""Where simulated messages go: an NDJSON(.gz) file or an MQTT broker (live or accelerated).

NDJSON lines are ``{"topic": "...", "payload": {...}}`` in publish order, the format of
``fleetscope import`` and ``POST /v2/Ingest/vda5050``.
"""

import gzip
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import orjson

from fleetscope.simulator.engine import TimedMessage

_LINES_PER_WRITE = 2000


def ndjson_line(topic: str, payload: bytes) -> bytes:
    """One NDJSON line; the payload bytes are embedded as they are (already JSON)."""
    return b'{"topic":%s,"payload":%s}\n' % (orjson.dumps(topic), payload)


def write_ndjson(messages: Iterable[TimedMessage], path: Path, *, compresslevel: int = 1) -> int:
    """Write ``messages`` to ``path`` (gzip when it ends in ``.gz``); returns the count.

    Compression level 1 by default: the demo writes about a gigabyte of JSON and level 6
    would take several times longer for a file only about 15 % smaller.
    """
    count = 0
    gzipped = path.suffix == ".gz"
    with (
        gzip.open(path, "wb", compresslevel=compresslevel) if gzipped else path.open("wb") as stream
    ):
        batch: list[bytes] = []
        for _at, topic, payload in messages:
            batch.append(ndjson_line(topic, payload))
            if len(batch) >= _LINES_PER_WRITE:
                stream.write(b"".join(batch))
                count += len(batch)
                batch.clear()
        stream.write(b"".join(batch))
        count += len(batch)
    return count


@dataclass(frozen=True, slots=True)
class MqttTarget:
    host: str
    port: int
    username: str | None = None
    password: str | None = None

    @classmethod
    def from_url(cls, url: str) -> "MqttTarget":
        parsed = urlparse(url)
        if parsed.scheme not in ("mqtt", "tcp") or not parsed.hostname:
            raise ValueError(f"MQTT URL must look like mqtt://host:1883, got {url!r}")
        return cls(parsed.hostname, parsed.port or 1883, parsed.username, parsed.password)


@dataclass(frozen=True, slots=True)
class PublishOptions:
    speed: float = 1.0  # simulated seconds per wall-clock second; 0 = as fast as possible
    # Publish each message when the wall clock reaches its timestamp (older ones at once):
    # one run can backfill the past and then continue live. Overrides ``speed``.
    wall_clock: bool = False
    state_qos: int = 0  # VDA 5050 recommends 0; 1 makes a subscriber restart lossless
    connection_qos: int = 1
    client_id: str = "fleetscope-simulator"


def publish_mqtt(
    messages: Iterable[TimedMessage],
    *,
    target: MqttTarget,
    options: PublishOptions,
    clock: Callable[[], float] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Publish in simulated time order, paced by ``options.speed``; returns the count.

    One MQTT client publishes for every vehicle, so real per-vehicle last wills are not
    possible; the simulator publishes the CONNECTIONBROKEN message itself when a vehicle
    drops. ``connection`` and ``factsheet`` messages are retained, as VDA 5050 asks.
    """
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=options.client_id)
    if target.username:
        client.username_pw_set(target.username, target.password)
    client.max_inflight_messages_set(1000)
    client.connect(target.host, target.port, keepalive=30)
    client.loop_start()
    count = 0
    now = clock or (time.time if options.wall_clock else time.monotonic)
    wall_start = now()
    sim_start: int | None = None
    pending = None
    try:
        for at_ms, topic, payload in messages:
            if sim_start is None:
                sim_start = at_ms
            delay = 0.0
            if options.wall_clock:
                delay = at_ms / 1000 - now()
            elif options.speed > 0:
                delay = wall_start + (at_ms - sim_start) / 1000 / options.speed - now()
            if delay > 0:
                sleep(delay)
            # connection and factsheet: QoS 1 and retained, as VDA 5050 asks.
            is_retained = not topic.endswith("/state")
            qos = options.connection_qos if is_retained else options.state_qos
            pending = client.publish(topic, payload, qos=qos, retain=is_retained)
            count += 1
            if count % 500 == 0:
                pending.wait_for_publish()  # bounded memory: never run far ahead of acks
        if pending is not None:
            pending.wait_for_publish()
    finally:
        client.loop_stop()
        client.disconnect()
    return count
