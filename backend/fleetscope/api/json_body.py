"""JSON request bodies are Unicode text: UTF-8, and no half of a UTF-16 surrogate pair; and a
body that cannot be read is refused only after the route's own checks.

Python's JSON parser reads an escaped lone surrogate (``"\\ud800"``), and raw surrogate bytes
(CESU-8), into a ``str`` that no UTF-8 encoder takes. pydantic lets such a string through some
field shapes (optional, constrained, list items, a dashboard widget's free fields); storing
it or answering with it then failed (500), and a JSON column kept it, breaking every later
read. Every route that takes a body reads it through ``JsonBodyRoute``: such a body is
refused as unreadable (400, ``body: could not be read (expected JSON in UTF-8)``) before any
field is validated, broken JSON is a 422 naming the line and column, and a body sent as
another media type a 415 naming it (FastAPI hands such a body on as bytes, which would fail
as "not an object").

FastAPI reads the body before it solves the route's dependencies, so a broken body would be
answered before the session, the CSRF token and the role are checked: a caller without a
session would learn which paths take a body, and one without the role that the
administration API exists. The request therefore hands FastAPI a value no body model
accepts, the dependencies run (401, 403, 404 first), and only then is the body's own
problem told.
"""

import json
import re
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute

from fleetscope.api.errors import ApiError
from fleetscope.i18n.messages import BODY_NOT_JSON, BODY_NOT_PARSABLE

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


class _Unreadable:
    """Stands for a body that could not be read: no body model of these routes accepts it."""


class JsonBodyRequest(Request):
    unreadable: Exception | None = None

    async def json(self) -> Any:
        try:
            return decode_json_body(await self.body())
        except (ValueError, RecursionError) as error:  # json.JSONDecodeError is a ValueError
            self.unreadable = error
            return _Unreadable()


def body_refusal(error: Exception) -> Exception:
    """What a body that could not be read is answered with (``decode_json_body``)."""
    if isinstance(error, json.JSONDecodeError):
        problem = {
            "type": "json_invalid",
            "loc": ("body", error.pos),
            "msg": f"Invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}",
            "input": {},
            "ctx": {"line": error.lineno, "column": error.colno},
        }
        return RequestValidationError([problem])
    return ApiError(400, BODY_NOT_PARSABLE())


def _other_media_type(request: Request) -> str | None:
    """The request's media type when it names one other than JSON (none is read as JSON)."""
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    is_json = media_type == "application/json" or media_type.endswith("+json")
    return None if not media_type or is_json else media_type


class JsonBodyRoute(APIRoute):
    """A route whose body is read by ``decode_json_body`` (FastAPI's documented way to
    customise the request a route reads), refused after the route's dependencies."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            json_request = JsonBodyRequest(request.scope, request.receive)
            try:
                response = await handler(json_request)
            except RequestValidationError as refused:
                if json_request.unreadable is not None:
                    raise body_refusal(json_request.unreadable) from None
                media_type = _other_media_type(request)
                if media_type and any(e["loc"][:1] == ("body",) for e in refused.errors()):
                    raise ApiError(415, BODY_NOT_JSON(content_type=media_type[:60])) from None
                raise
            if json_request.unreadable is not None:
                # A body model that took the stand-in: never answered as if it were read.
                raise body_refusal(json_request.unreadable)
            return response

        return handle
