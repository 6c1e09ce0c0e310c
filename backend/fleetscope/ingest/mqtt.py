"""MQTT subscriber (paho-mqtt 2): VDA 5050 topics into the ingest worker.

Subscribes ``{interface}/+/+/+/state|connection|factsheet`` at QoS 1 with a persistent
session (fixed client id, clean session off), so the broker keeps what vehicles publish at
QoS 1 while Fleetscope is away. ``on_message`` only collects the raw bytes; the batch goes
to the worker's bounded queue once the network thread has handled everything received so
far (or ``HANDOFF_SIZE`` messages), so the worker decodes in bulk and the two threads meet
once per batch instead of once per message. Handing over blocks while the queue is full:
paho acknowledges a QoS 1 message only after ``on_message`` returns, so a slow fact store
throttles the broker instead of losing data. paho reconnects by itself with exponential
back-off between ``min`` and ``max`` delay.
"""

import logging
import ssl
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.mqtt_socket import BufferedClient
from fleetscope.ingest.worker import IngestWorker

log = logging.getLogger(__name__)

TOPIC_KINDS = ("state", "connection", "factsheet")
SUBSCRIBE_QOS = 1
# Most messages handed to the worker at once; a busy stream drains every 64 KiB anyway.
HANDOFF_SIZE = 1_000


@dataclass(frozen=True, slots=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool
    username: str | None
    password: str | None


def parse_broker_url(url: str) -> BrokerAddress:
    """``mqtt://[user:password@]host[:port]`` or ``mqtts://...`` (TLS)."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts", "tcp", "ssl") or not parts.hostname:
        raise ValueError(f"mqtt_url {url!r}: expected mqtt://host:port or mqtts://host:port")
    tls = parts.scheme in ("mqtts", "ssl")
    return BrokerAddress(
        host=parts.hostname,
        port=parts.port or (8883 if tls else 1883),
        tls=tls,
        username=parts.username,
        password=parts.password,
    )


def subscriptions(interfaces: Sequence[str]) -> list[tuple[str, int]]:
    unique = sorted({name for name in interfaces if name})
    return [(f"{name}/+/+/+/{kind}", SUBSCRIBE_QOS) for name in unique for kind in TOPIC_KINDS]


class MqttSubscriber:
    def __init__(
        self,
        *,
        url: str,
        client_id: str,
        interfaces: Sequence[str],
        worker: IngestWorker,
        min_reconnect_delay_s: int = 1,
        max_reconnect_delay_s: int = 60,
    ) -> None:
        self.address = parse_broker_url(url)
        self.topics = subscriptions(interfaces)
        self._worker = worker
        self.connected = threading.Event()
        # Set once the broker confirmed the subscriptions: from then on nothing is missed.
        self.subscribed = threading.Event()
        self.received = 0
        self._collected: list[RawMessage] = []
        client = BufferedClient(
            on_drained=self._hand_off,
            on_publish=self._on_publish,
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        if self.address.username:
            client.username_pw_set(self.address.username, self.address.password)
        if self.address.tls:
            client.tls_set(cert_reqs=ssl.CERT_REQUIRED)
        client.reconnect_delay_set(min_reconnect_delay_s, max_reconnect_delay_s)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_subscribe = self._on_subscribe
        self._client = client

    def start(self) -> None:
        """Connect in the background; paho keeps reconnecting until ``stop``."""
        self._client.connect_async(self.address.host, self.address.port, keepalive=30)
        self._client.loop_start()

    def stop(self) -> None:
        """Disconnect; unacknowledged messages stay with the broker for the next session."""
        self._client.disconnect()
        self._client.loop_stop()
        self._hand_off()  # the network thread has ended: what it collected is ours now
        self.connected.clear()
        self.subscribed.clear()

    def _on_connect(
        self, client: mqtt.Client, _userdata: Any, flags: Any, reason: Any, _props: Any
    ) -> None:
        if reason.is_failure:
            log.warning("MQTT broker %s refused the connection: %s", self.address.host, reason)
            return
        log.info(
            "MQTT connected to %s:%d (session present: %s)",
            self.address.host,
            self.address.port,
            getattr(flags, "session_present", False),
        )
        # Subscribing again is harmless with a persistent session and needed without one.
        client.subscribe(self.topics)
        self.connected.set()

    def _on_subscribe(
        self, _client: mqtt.Client, _userdata: Any, _mid: int, reasons: Any, _props: Any
    ) -> None:
        refused = [reason for reason in reasons if reason.is_failure]
        if refused:
            log.error("MQTT broker refused subscriptions %s: %s", self.topics, refused)
            return
        self.subscribed.set()

    def _on_disconnect(
        self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any
    ) -> None:
        self._hand_off()
        self.connected.clear()
        self.subscribed.clear()
        if reason.is_failure:
            log.warning("MQTT connection lost (%s); reconnecting with back-off", reason)

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        """Messages paho decodes itself (QoS 2, a packet split between two reads)."""
        self._on_publish(message.topic, bytes(message.payload))

    def _on_publish(self, topic: str, payload: bytes) -> None:
        self.received += 1
        collected = self._collected
        collected.append(RawMessage(topic, payload, datetime.now(UTC)))
        if len(collected) >= HANDOFF_SIZE:
            self._hand_off()

    def _hand_off(self) -> None:
        """Pass the collected messages to the worker (network thread, or after it ended)."""
        if self._collected:
            batch, self._collected = self._collected, []
            # Blocks while the ingest queue is full: backpressure towards the broker.
            self._worker.submit_nowait_result(batch)
