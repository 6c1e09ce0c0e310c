"""Admission control: a bounded number of API requests in progress, a short bounded queue,
and beyond it a quick ``503`` with ``Retry-After`` instead of a server that hangs.

Requests are sorted into lanes, each with a budget of its own, so that one kind of work
cannot starve another: a burst of analytics (DuckDB queries, seconds of CPU in all) leaves
the places of logins, profile and settings calls and HTTP ingestion free. The statusboard
streams have a lane that only counts open streams (they wait on the live hub, not on a
worker thread). Static files of the web app are not admitted here: they are cheap and the
page must load to show the "busy, retrying" state at all.

A request that finds its lane full waits in the lane's queue (first come, first served) for
at most ``wait_s``; a full queue or a wait that runs out answers 503 at once. The waits
cost no worker thread: a queued request is a parked coroutine.

A pure ASGI middleware, like ``ServerTimingMiddleware``: ``BaseHTTPMiddleware`` would cost
more than some of the requests it admits.
"""

import asyncio
from dataclasses import dataclass

import anyio.to_thread
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from fleetscope.api.errors import error_response
from fleetscope.i18n.messages import SERVER_BUSY
from fleetscope.settings import Settings

STREAM_PATHS = frozenset({"/Analytics/Statusboard/stream"})


@dataclass(frozen=True, slots=True)
class LaneLimits:
    in_progress: int
    queue: int
    wait_s: float


class Lane:
    """``in_progress`` places; up to ``queue`` requests wait up to ``wait_s`` for one."""

    def __init__(self, name: str, limits: LaneLimits) -> None:
        self.name = name
        self.limits = limits
        self.waiting = 0
        self.in_progress = 0
        self.admitted = 0
        self.refused = 0
        # Created in the server's event loop at the first request (asyncio binds it there).
        self._places: asyncio.Semaphore | None = None

    async def enter(self) -> bool:
        """True with a place taken (give it back with ``leave``), False when refused."""
        if self._places is None:
            self._places = asyncio.Semaphore(self.limits.in_progress)
        places = self._places
        if not places.locked():
            await places.acquire()  # a free place: returns without waiting
            self._entered()
            return True
        if self.waiting >= self.limits.queue:
            self.refused += 1
            return False
        self.waiting += 1
        try:
            async with asyncio.timeout(self.limits.wait_s):
                await places.acquire()
        except TimeoutError:
            self.refused += 1
            return False
        finally:
            self.waiting -= 1
        self._entered()
        return True

    def _entered(self) -> None:
        self.in_progress += 1
        self.admitted += 1

    def leave(self) -> None:
        if self._places is not None:
            self.in_progress -= 1
            self._places.release()


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
            ingest=Lane("ingest", LaneLimits(settings.ingest_concurrency, queue, wait_s)),
            api=Lane("api", LaneLimits(settings.api_concurrency, queue, wait_s)),
            # An open stream holds its place for hours: nobody queues for one.
            streams=Lane("streams", LaneLimits(settings.max_open_streams, 0, wait_s)),
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
        if not await lane.enter():
            response = busy_response(Request(scope), retry_after_s=self._retry_after_s)
            await response(scope, receive, send)
            return
        try:
            await self._app(scope, receive, send)
        finally:
            lane.leave()


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
