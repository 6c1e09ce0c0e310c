"""Admission control: a bounded number of API requests in progress, a short bounded queue,
and beyond it a quick ``503`` with ``Retry-After`` instead of a server that hangs.

Requests are sorted into lanes, each with a budget of its own, so that one kind of work
cannot starve another: a burst of analytics (DuckDB queries, seconds of CPU in all) leaves
the places of logins, profile and settings calls and HTTP ingestion free. The statusboard
streams have a lane that only counts open streams (they wait on the live hub, not on a
worker thread). Static files of the web app are not admitted here: they are cheap and the
page must load to show the "busy, retrying" state at all.

A request that finds its lane full waits in the lane's queue for at most ``wait_s``; a full
queue or a wait that runs out answers 503 at once. The waits cost no worker thread: a queued
request is a parked coroutine. The queue is fair between callers (``Lane``): one user's
burst of a hundred requests, or one token's parallel batches, delays another caller by a
request or two, not by the whole burst, and does not leave it only 503s. One caller may hold
at most ``max_open_streams_per_caller`` statusboard streams.

A pure ASGI middleware, like ``ServerTimingMiddleware``: ``BaseHTTPMiddleware`` would cost
more than some of the requests it admits.
"""

import asyncio
from collections import Counter, deque
from dataclasses import dataclass

import anyio.to_thread
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from fleetscope.api.deps import SESSION_COOKIE
from fleetscope.api.errors import error_response
from fleetscope.i18n.messages import SERVER_BUSY
from fleetscope.settings import Settings

STREAM_PATHS = frozenset({"/Analytics/Statusboard/stream"})


@dataclass(frozen=True, slots=True)
class LaneLimits:
    in_progress: int
    queue: int
    wait_s: float
    # Places one caller may hold at once; its further requests wait for one of its own to
    # end (in a lane without a queue they are refused). None: all the lane's places.
    per_caller: int | None = None


@dataclass(eq=False, slots=True)
class _Waiter:
    caller: str
    arrival: int
    admitted: "asyncio.Future[bool]"


class Lane:
    """``in_progress`` places; up to ``queue`` requests wait up to ``wait_s`` for one.

    Fair between callers (a login session, an API token, else an address): a freed place
    goes to the waiting caller that holds the fewest places, first come first served among
    equals, and a caller arriving at a full queue takes the newest place of the caller with
    the most requests waiting and in progress, whose request is then refused. A caller alone
    still has every place and the whole queue (up to ``per_caller`` places where that is
    set): nothing is held back while the lane has room.
    """

    def __init__(self, name: str, limits: LaneLimits) -> None:
        self.name = name
        self.limits = limits
        self.waiting = 0
        self.in_progress = 0
        self.admitted = 0
        self.refused = 0
        self._held: Counter[str] = Counter()
        self._queues: dict[str, deque[_Waiter]] = {}
        self._arrivals = 0

    async def enter(self, *, caller: str) -> bool:
        """True with a place taken (give it back with ``leave``), False when refused."""
        if self.in_progress < self.limits.in_progress and self._may_hold_more(caller):
            self._admit(caller)
            return True
        if self.waiting >= self.limits.queue and not self._make_room_for(caller):
            self.refused += 1
            return False
        waiter = self._queue(caller)
        try:
            async with asyncio.timeout(self.limits.wait_s):
                return await waiter.admitted
        except TimeoutError:
            if _decided(waiter):  # admitted or refused in the instant the wait ran out
                return waiter.admitted.result()
            self._forget(waiter)
            self.refused += 1
            return False
        except asyncio.CancelledError:  # the client went away while waiting
            if _decided(waiter) and waiter.admitted.result():
                self.leave(caller=caller)
            self._forget(waiter)
            raise

    def leave(self, *, caller: str) -> None:
        self.in_progress -= 1
        self._held[caller] -= 1
        if self._held[caller] <= 0:
            del self._held[caller]
        while turns := [waiting for waiting in self._queues if self._may_hold_more(waiting)]:
            waiter = self._pop(min(turns, key=self._next_in_turn))
            if not waiter.admitted.done():  # else its wait ended and is being cleaned up
                self._admit(waiter.caller)
                waiter.admitted.set_result(True)
                return

    def _may_hold_more(self, caller: str) -> bool:
        cap = self.limits.per_caller
        return cap is None or self._held[caller] < cap

    def _admit(self, caller: str) -> None:
        self.in_progress += 1
        self.admitted += 1
        self._held[caller] += 1

    def _queue(self, caller: str) -> _Waiter:
        self._arrivals += 1
        waiter = _Waiter(caller, self._arrivals, asyncio.get_running_loop().create_future())
        self._queues.setdefault(caller, deque()).append(waiter)
        self.waiting += 1
        return waiter

    def _next_in_turn(self, caller: str) -> tuple[int, int]:
        return self._held[caller], self._queues[caller][0].arrival

    def _share(self, caller: str) -> int:
        return self._held[caller] + len(self._queues.get(caller, ()))

    def _make_room_for(self, caller: str) -> bool:
        """Refuses the newest waiting request of the caller with the largest share, if that
        share exceeds the newcomer's by more than the one request it is about to add."""
        largest = max(self._queues, key=self._share, default=None)
        if largest is None or self._share(largest) <= self._share(caller) + 1:
            return False
        waiter = self._pop(largest, newest=True)
        if not waiter.admitted.done():
            self.refused += 1
            waiter.admitted.set_result(False)
        return True

    def _pop(self, caller: str, *, newest: bool = False) -> _Waiter:
        """The caller's next waiter in turn (or its newest) taken out of the queue."""
        queue = self._queues[caller]
        waiter = queue.pop() if newest else queue.popleft()
        if not queue:
            del self._queues[caller]
        self.waiting -= 1
        return waiter

    def _forget(self, waiter: _Waiter) -> None:
        queue = self._queues.get(waiter.caller)
        if queue is not None and waiter in queue:
            queue.remove(waiter)
            self.waiting -= 1
            if not queue:
                del self._queues[waiter.caller]


def _decided(waiter: _Waiter) -> bool:
    return waiter.admitted.done() and not waiter.admitted.cancelled()


@dataclass(frozen=True, slots=True)
class Lanes:
    analytics: Lane
    ingest: Lane
    api: Lane
    streams: Lane

    @classmethod
    def from_settings(cls, settings: Settings) -> "Lanes":
        queue, wait_s = settings.admission_queue, settings.admission_wait_seconds
        return cls(
            analytics=Lane("analytics", LaneLimits(settings.analytics_concurrency, queue, wait_s)),
            # A token's uploads may arrive slowly (up to request_body_seconds each): one place
            # is always left to the other tokens.
            ingest=Lane(
                "ingest",
                LaneLimits(
                    settings.ingest_concurrency,
                    queue,
                    wait_s,
                    per_caller=max(1, settings.ingest_concurrency - 1),
                ),
            ),
            api=Lane("api", LaneLimits(settings.api_concurrency, queue, wait_s)),
            # An open stream holds its place for hours: nobody queues for one.
            streams=Lane(
                "streams",
                LaneLimits(
                    settings.max_open_streams,
                    0,
                    wait_s,
                    per_caller=settings.max_open_streams_per_caller,
                ),
            ),
        )

    def for_path(self, path: str) -> Lane:
        """The lane of an API path (without the API prefix)."""
        if path in STREAM_PATHS:
            return self.streams
        if path.startswith("/Analytics/"):
            return self.analytics
        if path.startswith("/Ingest/"):
            return self.ingest
        return self.api


class AdmissionMiddleware:
    def __init__(self, app: ASGIApp, *, path_prefix: str, lanes: Lanes, retry_after_s: int) -> None:
        self._app = app
        self._prefix = path_prefix
        self._lanes = lanes
        self._retry_after_s = retry_after_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", "")) if scope["type"] == "http" else ""
        if not path.startswith(self._prefix + "/"):
            await self._app(scope, receive, send)
            return
        lane = self._lanes.for_path(path[len(self._prefix) :])
        caller = caller_of(scope)
        if not await lane.enter(caller=caller):
            response = busy_response(Request(scope), retry_after_s=self._retry_after_s)
            await response(scope, receive, send)
            return
        try:
            await self._app(scope, receive, send)
        finally:
            lane.leave(caller=caller)


def caller_of(scope: Scope) -> str:
    """Whom a request is fair to: its login session, else its API token, else its address.
    Not authenticated here (the routes do that): a made-up cookie only makes its sender a
    caller of its own."""
    request = Request(scope)
    if session := request.cookies.get(SESSION_COOKIE):
        return f"session {session}"
    if authorization := request.headers.get("Authorization"):
        return f"token {authorization}"
    return f"address {request.client.host if request.client else ''}"


def busy_response(request: Request, *, retry_after_s: int) -> JSONResponse:
    return error_response(
        request, SERVER_BUSY(), status_code=503, headers={"Retry-After": str(retry_after_s)}
    )


def size_worker_threads(settings: Settings) -> None:
    """The worker threads of sync handlers and dependencies (anyio's default limiter, 40
    tokens unless set); call from the running event loop. The app store's pool is sized
    to match (``appstore.db.pool_capacity``)."""
    anyio.to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads


def install_admission(app: FastAPI, *, settings: Settings, path_prefix: str) -> Lanes:
    """Admission for the API under ``path_prefix``; the lanes are returned (and kept in
    ``app.state.admission``) for their counters."""
    lanes = Lanes.from_settings(settings)
    app.state.admission = lanes
    app.add_middleware(
        AdmissionMiddleware,
        path_prefix=path_prefix,
        lanes=lanes,
        retry_after_s=settings.retry_after_seconds,
    )

    @app.exception_handler(PoolTimeoutError)
    async def _pool_timeout(request: Request, _exc: PoolTimeoutError) -> JSONResponse:
        # The pool is sized so that no one waits for a connection; should a wait still run
        # out, the caller is told to retry, as when the server is busy, not given a 500.
        return busy_response(request, retry_after_s=settings.retry_after_seconds)

    return lanes
