"""A paho client that reads the broker's stream in large chunks and PUBLISH packets fast.

paho-mqtt 2.2 reads every packet with three or four ``recv`` calls (command byte, length
bytes one by one, body), each a system call that releases the interpreter lock, which the
ingest worker then holds for up to a switch interval; and it builds an ``MQTTMessage``,
logs and matches topic filters for every message. With the ingest worker in the same
process, that cost about half the subscriber's CPU time. Here:

- ``BufferedSocket`` serves paho's reads from 64 KiB chunks;
- ``BufferedClient`` takes complete QoS 0 and 1 PUBLISH packets (MQTT 3.1.1) straight from
  the chunk and hands topic and payload to ``on_publish``; the PUBACKs of a chunk's QoS 1
  messages go out together once the chunk is handled (one write instead of two system
  calls each), and before paho handles any packet itself, so they stay in order of
  receipt as MQTT requires. Everything else (other packets, QoS 2, a packet split across
  chunks) goes through paho's own reader on the same buffered stream, so order is kept;
- paho asks a socket with ``pending()`` for bytes it holds before waiting in ``select``:
  at zero, everything received so far went through ``on_publish``, and ``on_drained`` lets
  the subscriber pass its batch on.

Relies on paho's ``_create_socket``, ``_packet_read``, ``_in_packet`` and ``_send_puback``
and its ``pending`` protocol (used for TLS sockets), all present in the pinned 2.2.
"""

import struct
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode

_READ_SIZE = 65_536
_PUBLISH = 0x30
_MAX_LENGTH_BYTES = 4  # MQTT's remaining length has at most four bytes
_PUBACK = struct.Struct(">BBH")  # PUBACK, remaining length 2, packet id

PublishHandler = Callable[[str, bytes], None]


class BufferedSocket:
    """Wraps paho's socket (plain or TLS); every other attribute goes to the socket."""

    def __init__(self, sock: Any, *, on_drained: Callable[[], None]) -> None:
        self._sock = sock
        self._on_drained = on_drained
        self._buffer = b""
        self._offset = 0

    def recv(self, size: int) -> bytes:
        buffer, offset = self._buffer, self._offset
        if offset >= len(buffer):
            buffer = bytes(self._sock.recv(_READ_SIZE))  # errors reach paho as before
            if not buffer:
                return buffer  # the broker closed the connection
            offset = 0
        end = offset + size
        self._buffer = buffer
        self._offset = end if end < len(buffer) else len(buffer)
        return buffer[offset:end]

    def buffered(self) -> int:
        return len(self._buffer) - self._offset

    def pending(self) -> int:
        held = len(self._buffer) - self._offset
        inner = getattr(self._sock, "pending", None)  # TLS: decrypted bytes not yet read
        if inner is not None:
            held += inner()
        if held == 0:
            self._on_drained()
        return held

    def take_publish(self) -> tuple[int, bytes] | None:
        """The first byte and body of a complete QoS 0 or 1 PUBLISH at the front of the
        buffer, consumed; None (nothing consumed) for anything else."""
        buffer, offset = self._buffer, self._offset
        size = len(buffer)
        if offset >= size:
            return None
        command = buffer[offset]
        if command & 0xF0 != _PUBLISH or command & 0x06 == 0x04:  # not PUBLISH, or QoS 2
            return None
        length, multiplier, position = 0, 1, offset + 1
        while True:
            if position >= size or position - offset > _MAX_LENGTH_BYTES:
                return None
            byte = buffer[position]
            position += 1
            length += (byte & 0x7F) * multiplier
            multiplier *= 128
            if not byte & 0x80:
                break
        end = position + length
        if end > size:
            return None
        self._offset = end
        return command, buffer[position:end]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class BufferedClient(mqtt.Client):
    """``mqtt.Client`` on a ``BufferedSocket``; callbacks run in the network thread."""

    def __init__(
        self, *, on_drained: Callable[[], None], on_publish: PublishHandler, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self._drained_handler = on_drained
        self._publish_handler = on_publish
        self._fast_path = self._protocol != mqtt.MQTTv5  # 5.0 adds properties to PUBLISH
        self._unacknowledged: list[int] = []  # QoS 1 packet ids handled, PUBACK not sent

    def _create_socket(self) -> Any:
        return BufferedSocket(super()._create_socket(), on_drained=self._drained_handler)

    def loop_read(self, max_packets: int = 1) -> MQTTErrorCode:
        result = super().loop_read(max_packets)
        # A partial packet at the end of the chunk is kept by paho; the next recv meets an
        # empty buffer and reads the socket, so this stops at the end of what has arrived.
        while result == MQTTErrorCode.MQTT_ERR_SUCCESS and self._holds_more():
            result = super().loop_read(max_packets)
        self._acknowledge()
        return result

    def _acknowledge(self) -> None:
        """Queue the PUBACKs of the QoS 1 messages handed on so far, as one write."""
        if not self._unacknowledged:
            return
        mids, self._unacknowledged = self._unacknowledged, []
        acks = b"".join([_PUBACK.pack(mqtt.PUBACK, 2, mid) for mid in mids])
        self._packet_queue(mqtt.PUBACK, acks, mids[-1], 1)

    def _holds_more(self) -> bool:
        sock: Any = self._sock
        return isinstance(sock, BufferedSocket) and sock.buffered() > 0

    def _packet_read(self) -> MQTTErrorCode:
        sock: Any = self._sock
        if self._fast_path and isinstance(sock, BufferedSocket) and self._in_packet["command"] == 0:
            taken = sock.take_publish()
            if taken is not None:
                return self._deliver(*taken)
        self._acknowledge()  # paho acknowledges what it reads itself at once
        result: MQTTErrorCode = super()._packet_read()
        return result

    def _deliver(self, command: int, body: bytes) -> MQTTErrorCode:
        topic_end = 2 + int.from_bytes(body[:2], "big")
        # An invalid topic still reaches the pipeline, which dead-letters it.
        topic = body[2:topic_end].decode("utf-8", "replace")
        qos = (command >> 1) & 0x03
        mid = int.from_bytes(body[topic_end : topic_end + 2], "big") if qos else 0
        payload = body[topic_end + 2 :] if qos else body[topic_end:]
        lock: threading.Lock = self._msgtime_mutex
        with lock:
            self._last_bytes_received = mqtt.time_func()
        with self._in_callback_mutex:
            self._publish_handler(topic, payload)
        if qos:
            self._unacknowledged.append(mid)
        return MQTTErrorCode.MQTT_ERR_SUCCESS
