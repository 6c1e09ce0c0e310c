"""End to end through a private Mosquitto into the fact store, at QoS 0 and QoS 1.

Publishers on the same machine (``--publishers`` processes, each with the messages of a
share of the vehicles, in order) send ``--messages`` simulated VDA 5050 messages as fast as
they can; one paho client publishes only about 3,800 messages/s at QoS 1 here. Fleetscope's
MQTT subscriber (the server's ingestion: bounded queue, ingest worker, fact store) consumes
them. Prints per QoS the publish rate, the end-to-end rate (first publish to last message
stored), the loss, and the CPU time per message of the subscribing process (all its
threads), which a busy shared machine distorts less than the rates. Asserts nothing.

    .venv/bin/python benchmarks/bench_mqtt.py [--messages 60000] [--qos 0 1] [--publishers 2]
"""

import argparse
import multiprocessing
import socket
import struct
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import paho.mqtt.client as mqtt
from bench_support import one_site_app_store
from paho.mqtt.enums import CallbackAPIVersion

from fleetscope.appstore.db import make_session_factory
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


def _remaining_length(length: int) -> bytes:
    encoded = bytearray()
    while True:
        length, digit = divmod(length, 128)
        encoded.append(digit | (0x80 if length else 0))
        if not length:
            return bytes(encoded)


def _packet(first: int, body: bytes) -> bytes:
    return bytes([first]) + _remaining_length(len(body)) + body


class _RawPublisher:
    """A minimal MQTT 3.1.1 publisher writing packets in 64 KiB writes: the many vehicles of
    a site, without a paho client's cost per message (which would use the CPU the
    subscriber is measured with)."""

    WINDOW = 1_000  # QoS 1 messages in flight

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        client_id = f"bench-vehicles-{uuid.uuid4().hex[:6]}".encode()
        connect = b"\x00\x04MQTT\x04\x02\x00\x3c" + struct.pack(">H", len(client_id)) + client_id
        self.sock.sendall(_packet(0x10, connect))
        self.inbox = b""
        if self._next_packet()[0] >> 4 != 2:
            raise RuntimeError("broker refused the connection")

    def _next_packet(self) -> tuple[int, bytes]:
        while True:
            if len(self.inbox) >= 2:
                length, multiplier, position = 0, 1, 1
                while position < len(self.inbox):
                    byte = self.inbox[position]
                    position += 1
                    length += (byte & 0x7F) * multiplier
                    multiplier *= 128
                    if not byte & 0x80:
                        if len(self.inbox) >= position + length:
                            first, body = self.inbox[0], self.inbox[position : position + length]
                            self.inbox = self.inbox[position + length :]
                            return first, body
                        break
            chunk = self.sock.recv(65_536)
            if not chunk:
                raise ConnectionError("broker closed the connection")
            self.inbox += chunk

    def publish_all(self, messages: list[tuple[str, bytes]], qos: int) -> None:
        pending: list[bytes] = []
        size = in_flight = 0
        for number, (topic, payload) in enumerate(messages):
            encoded = topic.encode()
            head = struct.pack(">H", len(encoded)) + encoded
            if qos:
                head += struct.pack(">H", number % 65_535 + 1)
                in_flight += 1
            packet = _packet(0x30 | qos << 1, head + payload)
            pending.append(packet)
            size += len(packet)
            if size >= 65_536:
                self.sock.sendall(b"".join(pending))
                pending, size = [], 0
            while in_flight >= self.WINDOW:
                self._next_packet()  # a PUBACK
                in_flight -= 1
        self.sock.sendall(b"".join(pending))
        while in_flight:
            self._next_packet()
            in_flight -= 1
        # The broker answers a ping after every earlier packet: all of them arrived.
        self.sock.sendall(b"\xc0\x00")
        while self._next_packet()[0] >> 4 != 13:
            pass
        self.sock.sendall(b"\xe0\x00")
        self.sock.close()


def _publish_raw(
    messages: list[tuple[str, bytes]], port: int, qos: int, results: "multiprocessing.Queue[float]"
) -> None:
    publisher = _RawPublisher(port)
    started = time.perf_counter()
    publisher.publish_all(messages, qos)
    results.put(time.perf_counter() - started)


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


def _shares(messages: list[tuple[str, bytes]], count: int) -> list[list[tuple[str, bytes]]]:
    """Split by vehicle (topic without its last level), keeping each vehicle's order."""
    shares: list[list[tuple[str, bytes]]] = [[] for _ in range(count)]
    owner: dict[str, int] = {}
    for topic, payload in messages:
        vehicle = topic.rsplit("/", 1)[0]
        index = owner.setdefault(vehicle, len(owner) % count)
        shares[index].append((topic, payload))
    return [share for share in shares if share]


def _run(
    broker: PrivateMosquitto,
    messages: list[tuple[str, bytes]],
    qos: int,
    publishers: int,
    publisher_kind: str,
) -> None:
    with tempfile.TemporaryDirectory(prefix="fleetscope-bench-mqtt-") as folder:
        data = Path(folder)
        settings = Settings(
            _env_file=None,
            data_dir=data,
            mqtt_url=broker.url,
            mqtt_client_id=f"fleetscope-bench-{uuid.uuid4().hex[:6]}",
        )
        engine = one_site_app_store(settings.resolved_database_url())
        factory = make_session_factory(engine)
        handle = start_ingestion(settings, session_factory=factory)
        assert handle.mqtt is not None and handle.mqtt.subscribed.wait(10)
        results: multiprocessing.Queue[float] = multiprocessing.Queue()
        processes = [
            multiprocessing.Process(
                target=_publish_raw if publisher_kind == "raw" else _publish,
                args=(share, broker.port, qos, results),
                daemon=True,
            )
            for share in _shares(messages, publishers)
        ]
        try:
            cpu = time.process_time()
            started = time.perf_counter()
            for process in processes:
                process.start()
            published_s = max(results.get(timeout=600) for _ in processes)
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
            cpu = time.process_time() - cpu
        finally:
            for process in processes:
                process.join(10)
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
    print(f"QoS {qos}: subscriber cpu {cpu / max(stored, 1) * 1e6:.1f} µs per message")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=60_000)
    parser.add_argument("--qos", type=int, nargs="+", default=[0, 1], choices=[0, 1])
    parser.add_argument("--publishers", type=int, default=1, help="publishing processes")
    parser.add_argument(
        "--publisher",
        choices=["raw", "paho"],
        default="raw",
        help="raw: packets written in bulk; paho: one paho client per process",
    )
    args = parser.parse_args()
    messages = _messages(args.messages)
    with (
        tempfile.TemporaryDirectory(prefix="fleetscope-mosquitto-") as folder,
        PrivateMosquitto(workdir=Path(folder)) as broker,
    ):
        for qos in args.qos:
            _run(broker, messages, qos, args.publishers, args.publisher)


if __name__ == "__main__":
    main()
