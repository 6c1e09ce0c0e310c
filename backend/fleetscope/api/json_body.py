"""JSON request bodies are Unicode text: UTF-8, and no half of a UTF-16 surrogate pair.

Python's JSON parser reads an escaped lone surrogate (``"\\ud800"``), and raw surrogate bytes
(CESU-8), into a ``str`` that no UTF-8 encoder takes. pydantic lets such a string through some
field shapes (optional, constrained, list items, a dashboard widget's free fields); storing
it or answering with it then failed (500), and a JSON column kept it, breaking every later
read. Every route that takes a body reads it through ``JsonBodyRoute``: such a body is
refused as unreadable (400, ``body: could not be read (expected JSON in UTF-8)``) before any
field is validated.
"""

import json
import re
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

# After decoding, a well-formed pair is one character beyond U+FFFF: what is left in this
# range is a half without its other half.
_SURROGATE = re.compile("[\ud800-\udfff]")


class UnpairedSurrogateError(ValueError):
    """A JSON string holds half of a surrogate pair: not Unicode text."""


def holds_unpaired_surrogate(value: object) -> bool:
    """Whether a string anywhere in ``value`` (decoded JSON: keys too) holds a lone surrogate."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            pending += item.keys()
            pending += item.values()
        elif isinstance(item, list):
            pending += item
    return False


def decode_json_body(body: bytes) -> Any:
    """``body`` as JSON: strict UTF-8 (an optional byte order mark), Unicode strings only.
    ``json.JSONDecodeError`` for broken JSON (FastAPI answers 422 naming the body); any other
    ``ValueError`` for text that is not Unicode (FastAPI answers 400)."""
    value = json.loads(body.decode("utf-8-sig"))
    if holds_unpaired_surrogate(value):
        raise UnpairedSurrogateError
    return value


class JsonBodyRequest(Request):
    async def json(self) -> Any:
        return decode_json_body(await self.body())


class JsonBodyRoute(APIRoute):
    """A route whose body is read by ``decode_json_body`` (FastAPI's documented way to
    customise the request a route reads)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            return await handler(JsonBodyRequest(request.scope, request.receive))

        return handle
