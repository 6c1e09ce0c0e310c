"""Request heads, bounded exactly by ``settings.max_request_head_bytes``.

uvicorn's h11 protocol stops buffering an incomplete head beyond the setting, but it checks
after each socket read, so a head that arrives whole in one or two reads may be up to about
twice as long. This middleware measures the head the server received (request line and
headers as sent) and answers one beyond the setting 431, naming the limit, before anything
else reads it.
"""

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from fleetscope.api.errors import error_response
from fleetscope.i18n.messages import HEAD_TOO_LARGE

_CRLF = 2
_HEADER_SEPARATOR = 2  # ": "


def head_size(scope: Scope) -> int:
    """Bytes of the request line and headers as they came over the wire (h11 keeps every
    header, only lowercasing its name), with the blank line that ends them."""
    target = len(scope.get("raw_path") or scope["path"].encode())
    if scope.get("query_string"):
        target += 1 + len(scope["query_string"])
    line = len(scope["method"]) + 1 + target + 1 + len(f"HTTP/{scope['http_version']}") + _CRLF
    headers = sum(
        len(name) + _HEADER_SEPARATOR + len(value) + _CRLF for name, value in scope["headers"]
    )
    return line + headers + _CRLF


class RequestHeadMiddleware:
    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self._app = app
        self._limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and (size := head_size(scope)) > self._limit:
            message = HEAD_TOO_LARGE(size=size, limit=self._limit)
            response = error_response(Request(scope), message, status_code=431)
            response.headers["Connection"] = "close"  # its body, if any, is never read
            await response(scope, receive, send)
            return
        await self._app(scope, receive, send)
