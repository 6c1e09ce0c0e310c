"""uvicorn's h11 protocol with a deadline for request heads.

uvicorn bounds the size of a request head (``h11_max_incomplete_event_size``) but not the
time it takes to arrive: its keep-alive timeout runs only between requests and stops at the
first byte, and a connection that never sends a byte has no timeout at all. A client sending
its head a byte at a time held its connection for as long as it liked, and a few hundred
such clients would use up the process's file descriptors. Here a head must be complete
within ``head_seconds`` of the moment the connection starts waiting for it (when it opens,
or when the first byte of a kept-alive connection's next request arrives); otherwise the
connection is closed, as a reverse proxy's header timeout would. Bodies have a deadline of
their own (``api/request_body.py``).

Only the asyncio protocol interface is extended (``connection_made``, ``data_received``,
``connection_lost``); whether a head is awaited is read from the h11 connection's state.
"""

import asyncio
from typing import ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


class HeadDeadlineProtocol(H11Protocol):
    head_seconds: ClassVar[float] = 20.0
    head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_deadline()

    def data_received(self, data: bytes) -> None:
        if self.head_timer is None and self._awaiting_head():
            self._arm_head_deadline()  # the first bytes of the next request
        super().data_received(data)
        if not self._awaiting_head():
            self._disarm_head_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_deadline()
        super().connection_lost(exc)

    def _awaiting_head(self) -> bool:
        return self.conn.their_state is h11.IDLE

    def _arm_head_deadline(self) -> None:
        self.head_timer = self.loop.call_later(self.head_seconds, self._head_overdue)

    def _disarm_head_deadline(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_overdue(self) -> None:
        self.head_timer = None
        # A pipelined head may have been read meanwhile, without a byte arriving.
        if self._awaiting_head() and not self.transport.is_closing():
            self.transport.close()


def head_deadline_protocol(seconds: float) -> type[H11Protocol]:
    """The protocol class for uvicorn's ``http`` option, with ``seconds`` for a head."""
    return type("HeadDeadlineProtocol", (HeadDeadlineProtocol,), {"head_seconds": seconds})
