"""Request bodies, bounded in size and in the time they take to arrive.

- A body above ``settings.json_max_body_bytes`` is answered 413 before it is read: by its
  Content-Length, or while a chunked body streams in.
- A body must arrive within ``settings.request_body_seconds`` of its request's head; one
  still arriving then is answered 408 and its connection closed.
- The API's bodies (at most 1 MiB) are read whole here, before admission
  (``api/admission.py``): a client that sends slowly holds its own connection, never one of
  the places of a lane. Without this, a dozen connections each sending half a login body
  kept every login out.
- HTTP ingestion streams its larger body (``ingest_max_body_bytes``) in its route, after the
  site's token has been checked, under the same deadline.
- All bodies together are bounded too (``request_bodies_max_bytes``): each request holds its
  Content-Length (without one: its limit) from the moment it is let in until it is answered;
  a request that does not fit is answered 503 with Retry-After before its body is read, so
  400 slow 1 MiB bodies cost at most the budget, not 400 MiB.

A pure ASGI middleware: Starlette's ``BaseHTTPMiddleware`` would buffer the streams.
"""

import asyncio
from collections.abc import Iterable, Sequence

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fleetscope.api.errors import error_response
from fleetscope.i18n.messages import BODY_TOO_LARGE, BODY_TOO_SLOW, SERVER_BUSY
from fleetscope.i18n.text import Text


class BodyTimeout(Exception):
    """The request body was still arriving at its deadline."""


def _declared_length(headers: Iterable[tuple[bytes, bytes]]) -> tuple[int | None, bool]:
    """The Content-Length (None if absent or unreadable) and whether a body may follow."""
    length: int | None = None
    has_body = False
    for name, value in headers:
        if name == b"content-length":
            length = int(value) if value.strip().isdigit() else None
            has_body = length != 0
        elif name == b"transfer-encoding":
            has_body = True
    return length, has_body


def _until(receive: Receive, deadline: float) -> Receive:
    """``receive`` that raises ``BodyTimeout`` while the body is incomplete at ``deadline``
    (loop time); once it is complete, waits as long as ``receive`` does (a streaming answer
    listens for the client's disconnect)."""
    complete = False

    async def timed() -> Message:
        nonlocal complete
        if complete:
            return await receive()
        try:
            async with asyncio.timeout_at(deadline):
                message = await receive()
        except TimeoutError:
            raise BodyTimeout from None
        complete = message["type"] != "http.request" or not message.get("more_body", False)
        return message

    return timed


async def _read_whole(receive: Receive, *, limit: int) -> list[Message] | None:
    """The body's messages up to the one that ends it (or a disconnect); None above
    ``limit`` bytes, the rest unread."""
    received: list[Message] = []
    size = 0
    while True:
        message = await receive()
        received.append(message)
        if message["type"] != "http.request":
            return received
        size += len(message.get("body", b""))
        if size > limit:
            return None
        if not message.get("more_body", False):
            return received


class RequestBodyMiddleware:
    """Bodies of ``streamed_paths`` go on as they arrive (their route bounds their size);
    every other body is read whole first."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limit: int,
        seconds: float,
        streamed_paths: Sequence[str],
        streamed_limit: int,
        budget: int,
    ) -> None:
        self._app = app
        self._limit = limit
        self._seconds = seconds
        self._streamed = frozenset(streamed_paths)
        self._streamed_limit = streamed_limit
        self._budget = budget
        # Bytes the requests in progress may hold; changed only on the event loop's thread.
        self._held = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        length, has_body = _declared_length(scope["headers"])
        if not has_body:
            await self._app(scope, receive, send)
            return
        streamed = scope["path"] in self._streamed
        if not streamed and length is not None and length > self._limit:
            await _refuse(scope, receive, send, BODY_TOO_LARGE(limit=self._limit), 413)
            return
        most = self._streamed_limit if streamed else self._limit
        share = most if length is None else min(length, most)
        if self._held + share > self._budget:
            await _refuse(scope, receive, send, SERVER_BUSY(), 503)
            return
        self._held += share
        try:
            await self._pass_on(scope, receive, send, streamed=streamed)
        finally:
            self._held -= share

    async def _pass_on(self, scope: Scope, receive: Receive, send: Send, *, streamed: bool) -> None:
        timed = _until(receive, asyncio.get_running_loop().time() + self._seconds)
        try:
            if streamed:
                # Its route reads the whole body before it answers: a timeout comes first.
                await self._app(scope, timed, send)
                return
            messages = await _read_whole(timed, limit=self._limit)
        except BodyTimeout:
            seconds = f"{self._seconds:g}"
            await _refuse(scope, receive, send, BODY_TOO_SLOW(seconds=seconds), 408)
            return
        if messages is None:
            await _refuse(scope, receive, send, BODY_TOO_LARGE(limit=self._limit), 413)
            return
        pending = iter(messages)

        async def replay() -> Message:
            return next(pending, None) or await receive()

        await self._app(scope, replay, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, message: Text, status: int) -> None:
    response = error_response(Request(scope), message, status_code=status)
    # The rest of the body is never read: the connection cannot carry another request.
    response.headers["Connection"] = "close"
    await response(scope, receive, send)
