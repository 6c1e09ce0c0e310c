"""All request bodies together are bounded: a request whose body does not fit the budget is
answered 503 with Retry-After before its body is read (api/request_body.py)."""

import asyncio
from typing import Any

import orjson

from fleetscope.api.request_body import RequestBodyMiddleware

INGEST = "/v2/Ingest/vda5050"


async def _ok(scope: Any, receive: Any, send: Any) -> None:
    while (await receive()).get("more_body", False):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


def _middleware() -> RequestBodyMiddleware:
    return RequestBodyMiddleware(
        _ok, limit=100, seconds=5, streamed_paths=[INGEST], streamed_limit=400, budget=500
    )


class Call:
    """One request whose body arrives only when ``finish`` is called."""

    def __init__(self, middleware: RequestBodyMiddleware, *, path: str, length: int | None):
        headers = [(b"content-length", str(length).encode())] if length is not None else []
        if length is None:
            headers.append((b"transfer-encoding", b"chunked"))
        self.scope = {"type": "http", "method": "POST", "path": path, "headers": headers}
        self.arrived = asyncio.Event()
        self.sent: list[dict[str, Any]] = []
        self.task = asyncio.create_task(middleware(self.scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        await self.arrived.wait()
        return {"type": "http.request", "body": b"x", "more_body": False}

    async def _send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    async def finish(self) -> int:
        self.arrived.set()
        await self.task
        status: int = self.sent[0]["status"]
        return status


def test_bodies_beyond_the_budget_are_answered_503_with_retry_after_at_once() -> None:
    async def scenario() -> None:
        middleware = _middleware()
        # 100 + 100 + 100 (API bodies) + 200 (an ingestion batch of declared length): 500.
        held = [Call(middleware, path="/v2/X", length=100) for _ in range(3)]
        held.append(Call(middleware, path=INGEST, length=200))
        await asyncio.sleep(0)
        refused = Call(middleware, path="/v2/X", length=1)
        await asyncio.wait_for(refused.task, 1)  # answered without its body
        start = refused.sent[0]
        headers = dict(start["headers"])
        assert start["status"] == 503
        assert headers[b"retry-after"] == b"5"
        assert orjson.loads(refused.sent[1]["body"])["msg"] == (
            "the server is busy; try again in a moment"
        )
        assert [await call.finish() for call in held] == [200, 200, 200, 200]
        # Answered, they hold nothing: a chunked ingestion batch counts as its limit (400).
        assert await Call(middleware, path=INGEST, length=None).finish() == 200
        assert await Call(middleware, path="/v2/X", length=100).finish() == 200

    asyncio.run(scenario())
