"""``Server-Timing: app;dur=<ms>`` on every API response: the time the server spent from
receiving the request to sending the response head (auth, scope, queries, JSON).

Browsers show it in their network panel, and the benchmarks read it, so "server time" means
the same thing everywhere. A pure ASGI middleware: Starlette's ``BaseHTTPMiddleware`` would
cost more than some of the requests it measures.
"""

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class ServerTimingMiddleware:
    def __init__(self, app: ASGIApp, *, path_prefix: str) -> None:
        self._app = app
        self._prefix = path_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith(self._prefix):
            await self._app(scope, receive, send)
            return
        started = time.perf_counter()

        async def send_with_timing(message: Message) -> None:
            if message["type"] == "http.response.start":
                elapsed_ms = (time.perf_counter() - started) * 1000
                headers = list(message.get("headers", []))
                headers.append((b"server-timing", f"app;dur={elapsed_ms:.1f}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self._app(scope, receive, send_with_timing)
