"""MQTT subscriber (paho-mqtt 2, MQTT 5): VDA 5050 topics into the ingest worker.

Subscribes ``{interface}/+/+/+/state|connection|factsheet`` at QoS 1 with a persistent
session (the installation's client id, clean start off, a session expiry interval), so the
broker keeps what vehicles publish at QoS 1 while Fleetscope is away.

Nothing is acknowledged before it is stored: paho runs with manual acknowledgement, each
message goes to the worker's bounded queue with a callback, and its PUBACK is sent only once
the batch holding it is committed to the fact store (a dead letter is stored too). The
worker answers jobs in the order they were queued, so PUBACKs keep the order of receipt
that MQTT requires. Whatever is not acknowledged stays with the broker, which delivers it
again on the next connection of the same session; the pipeline recognises what was stored
already as a duplicate. Unacknowledged messages are bounded by the Receive Maximum sent on
CONNECT (at most the worker's queue bound): the broker sends no more until some are acked.

If a batch fails (the fact store cannot write), no later message of that connection may be
acknowledged either (that would break the order), so the subscriber disconnects and comes
back after a back-off that doubles up to ``max_reconnect_delay_s``; the broker then delivers
every unacknowledged message again, in order. paho itself reconnects after a lost connection
with exponential back-off between ``min`` and ``max`` delay.
"""

import contextlib
import logging
import ssl
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from fleetscope.i18n.refusals import TOPIC_NOT_UTF8
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.worker import IngestWorker

log = logging.getLogger(__name__)

TOPIC_KINDS = ("state", "connection", "factsheet")
SUBSCRIBE_QOS = 1
KEEPALIVE_S = 30
# MQTT's largest Receive Maximum (a two-byte integer).
MAX_RECEIVE_MAXIMUM = 65_535
# How long the broker keeps the session (and queues QoS 1 messages) while Fleetscope is away.
SESSION_EXPIRY_S = 7 * 24 * 3600


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


class _Connection:
    """One network connection to the broker; packet ids are acknowledged only on their own."""

    __slots__ = ("acknowledging",)

    def __init__(self) -> None:
        self.acknowledging = True


def _ignore(_error: BaseException | None) -> None:
    """QoS 0: nothing to acknowledge, and the broker keeps nothing to deliver again."""


class MqttSubscriber:
    def __init__(
        self,
        *,
        url: str,
        client_id: str,
        interfaces: Sequence[str],
        worker: IngestWorker,
        receive_maximum: int = MAX_RECEIVE_MAXIMUM,
        session_expiry_s: int = SESSION_EXPIRY_S,
        min_reconnect_delay_s: int = 1,
        max_reconnect_delay_s: int = 60,
        hold_ticks_s: float = 0.0,
    ) -> None:
        self.address = parse_broker_url(url)
        self.client_id = client_id
        self.topics = subscriptions(interfaces)
        self._worker = worker
        self._receive_maximum = max(1, min(receive_maximum, MAX_RECEIVE_MAXIMUM))
        self._session_expiry_s = session_expiry_s
        self._min_retry_s = min_reconnect_delay_s
        self._max_retry_s = max_reconnect_delay_s
        self._hold_ticks_s = hold_ticks_s
        self.connected = threading.Event()
        # Set once the broker confirmed the subscriptions: from then on nothing is missed.
        self.subscribed = threading.Event()
        self.received = 0
        # Guards the connection, the back-off and stopping (network, worker and timer threads).
        self._lock = threading.Lock()
        self._connection: _Connection | None = None
        self._intake_open = True
        self._stopping = False
        self._retry: threading.Timer | None = None
        self._retry_delay_s = float(min_reconnect_delay_s)
        client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=client_id,
            protocol=mqtt.MQTTv5,
            manual_ack=True,
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
        properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        properties.SessionExpiryInterval = self._session_expiry_s
        properties.ReceiveMaximum = self._receive_maximum
        self._client.connect_async(
            self.address.host,
            self.address.port,
            keepalive=KEEPALIVE_S,
            clean_start=False,
            properties=properties,
        )
        self._client.loop_start()

    def follow(self, interfaces: Sequence[str]) -> None:
        """Subscribe to the topics of the interfaces added since, unsubscribe from those
        gone. Not connected: the next connection subscribes to them all."""
        topics = subscriptions(interfaces)
        with self._lock:
            before = {topic for topic, _ in self.topics}
            self.topics = topics
            connected = self._connection is not None
        added = [(topic, qos) for topic, qos in topics if topic not in before]
        gone = sorted(before - {topic for topic, _ in topics})
        if not connected:
            return
        if added:
            log.info("MQTT subscribing %s", ", ".join(topic for topic, _ in added))
            self._client.subscribe(added)
        if gone:
            log.info("MQTT unsubscribing %s", ", ".join(gone))
            self._client.unsubscribe(gone)

    def close_intake(self) -> None:
        """Hand nothing more to the worker; what arrives from now on stays with the broker.

        Called before the worker drains at shutdown, so the PUBACKs of the drained messages
        still go out on this connection."""
        self._intake_open = False

    def stop(self) -> None:
        """Disconnect; unacknowledged messages stay with the broker for the next session."""
        self.close_intake()
        with self._lock:
            self._stopping = True
            retry, self._retry = self._retry, None
        if retry is not None:
            retry.cancel()
            retry.join()
        # Queued behind any PUBACKs still waiting: the network thread writes those first.
        self._client.disconnect()
        self._client.loop_stop()
        self.connected.clear()
        self.subscribed.clear()

    # --- paho callbacks (network thread) -------------------------------------------------

    def _on_connect(
        self, client: mqtt.Client, _userdata: Any, flags: Any, reason: Any, _props: Any
    ) -> None:
        if reason.is_failure:
            log.warning("MQTT broker %s refused the connection: %s", self.address.host, reason)
            return
        with self._lock:
            self._connection = _Connection()
        # The broker now delivers what it kept while Fleetscope was away: vehicles are not
        # judged silent before it had the time.
        self._worker.hold_ticks(self._hold_ticks_s)
        log.info(
            "MQTT connected to %s:%d as %s (session present: %s)",
            self.address.host,
            self.address.port,
            self.client_id,
            getattr(flags, "session_present", False),
        )
        # Subscribing again is harmless with a persistent session and needed without one.
        with self._lock:
            topics = list(self.topics)
        client.subscribe(topics)
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
        # Before paho reconnects (and drops unsent packets): no PUBACK of this connection
        # may reach the next one, where the broker may have given its packet id to another
        # message.
        with self._lock:
            self._connection = None
        self.connected.clear()
        self.subscribed.clear()
        if reason.is_failure:
            log.warning("MQTT connection lost (%s); reconnecting with back-off", reason)

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        if not self._intake_open:
            return  # not acknowledged: the broker delivers it to the next session
        self.received += 1
        payload = message.payload
        if not isinstance(payload, bytes):
            payload = bytes(payload)
        try:
            raw = RawMessage(message.topic, payload, datetime.now(UTC))
        except UnicodeDecodeError:
            # Brokers refuse such topics; should one pass, it is stored as a dead letter.
            raw = RawMessage("", payload, datetime.now(UTC), error=TOPIC_NOT_UTF8())
        on_done = _ignore
        if message.qos:
            on_done = partial(self._settle, self._connection, message.mid)
        # Ingestion stopping: not acknowledged, so the broker delivers it again next time.
        with contextlib.suppress(RuntimeError):
            # Blocks while the ingest queue is full: backpressure towards the broker.
            self._worker.submit_then((raw,), on_done=on_done)

    # --- the worker's answers (worker thread) --------------------------------------------

    def _settle(
        self, connection: _Connection | None, mid: int, error: BaseException | None
    ) -> None:
        """Acknowledge a committed message; after a failed batch, have everything redelivered."""
        with self._lock:
            if connection is None or connection is not self._connection:
                return  # received on a connection that is gone: the broker delivers it again
            if not connection.acknowledging:
                return
            if error is None:
                self._client.ack(mid, SUBSCRIBE_QOS)
                self._retry_delay_s = float(self._min_retry_s)
                return
            connection.acknowledging = False
            if self._stopping or self._retry is not None:
                return
            delay = self._retry_delay_s
            self._retry_delay_s = min(delay * 2, float(self._max_retry_s))
            self._retry = threading.Timer(delay, self._reconnect)
            self._retry.daemon = True
            self._retry.start()
        log.warning(
            "ingest batch failed: MQTT messages stay unacknowledged; reconnecting in %.0f s "
            "so the broker delivers them again",
            delay,
        )
        self._client.disconnect()

    def _reconnect(self) -> None:
        """Timer thread: the network thread ended with the disconnect; start a new one."""
        self._client.loop_stop()
        with self._lock:
            self._retry = None
            if self._stopping:
                return
            self.start()
