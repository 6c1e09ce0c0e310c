"""Every failure leaves as an envelope with a message that names the problem; never a 500 trace.

Messages are rendered in the language of the request (``Accept-Language``, see
``fleetscope.i18n``); error responses say which in ``Content-Language``.
"""

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from fleetscope.api.envelope import Failure, failure_body
from fleetscope.i18n import Language, Text, negotiate_language, render
from fleetscope.i18n.messages import INTERNAL_ERROR
from fleetscope.i18n.validation import describe_validation

log = logging.getLogger(__name__)

AUTHENTICATION_FAILED = "authentication failed"
"""Not translated: the client recognizes an ended session by exactly this text (spec §8)."""


@dataclass(frozen=True, slots=True)
class Failing:
    """One way an operation can fail, for the OpenAPI document: status code and when."""

    status_code: int
    when: str


NOT_SIGNED_IN = Failing(401, f"no live session (msg: {AUTHENTICATION_FAILED!r})")
BAD_CREDENTIALS = Failing(401, "wrong email or password")
BAD_API_TOKEN = Failing(401, "missing, unknown or revoked API token (Authorization: Bearer)")
UNDECODABLE_BODY = Failing(400, "the body is not text in UTF-8 (FastAPI cannot decode it)")
NO_CSRF = Failing(403, "the X-CSRF-Token header is missing or not the session's token")
NOT_FOUND = Failing(
    404, "an id of the path or the query is unknown, or belongs to another organization"
)
OVERSIZED_BODY = Failing(413, "the body is larger than the configured limit")
UNSUPPORTED_ENCODING = Failing(415, "a Content-Encoding other than gzip (or none)")
NOT_JSON = Failing(415, "a body sent with a Content-Type other than application/json")
BAD_GZIP = Failing(400, "Content-Encoding: gzip, but the body is not complete gzip data")
SLOW_BODY = Failing(408, "the body was still arriving at the configured time after the head")
INVALID = Failing(422, "a parameter or the body is invalid; msg names the field and the problem")
LOGIN_THROTTLED = Failing(429, "too many failed logins; Retry-After says when to try again")
PAGE_VIEWS_THROTTLED = Failing(
    429, "more page views in a minute than a user can see; Retry-After says when to send more"
)
PASSWORD_THROTTLED = Failing(
    429, "too many wrong current passwords; Retry-After says when to try again"
)
# Every API call: admission control refuses beyond capacity (api/admission.py).
BUSY = Failing(
    503,
    "the server is at capacity (Retry-After says when to try again), or a part the call "
    "needs (fact store, ingestion, live updates) is not running",
)

# An analytics question beyond the fact store's memory limit (api/main.py's handler).
TOO_LARGE = Failing(
    503,
    "the question needs more memory than the fact store may use: a shorter period or "
    "fewer vehicles",
)


def failure_responses(*failings: Failing) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a router or route that can fail in these ways (and, like every
    API call, with 503): each status code with the failure envelope and its reasons."""
    reasons: dict[int, list[str]] = {}
    for failing in (*failings, BUSY):
        if failing.when not in reasons.setdefault(failing.status_code, []):
            reasons[failing.status_code].append(failing.when)
    return {
        code: {"model": Failure, "description": "; or ".join(whens)}
        for code, whens in sorted(reasons.items())
    }


# What any JSON body can give.
JSON_BODY_FAILURES = (UNDECODABLE_BODY, SLOW_BODY, OVERSIZED_BODY, NOT_JSON, INVALID)
# By dependency: what a signed-in read can give, what a state-changing call with a body
# can give on top, and what the analytics parameters and scope can give.
READ_FAILURES = failure_responses(NOT_SIGNED_IN)
CHANGE_FAILURES = failure_responses(NOT_SIGNED_IN, NO_CSRF, *JSON_BODY_FAILURES)
ANALYTICS_FAILURES = failure_responses(NOT_SIGNED_IN, NOT_FOUND, INVALID, TOO_LARGE)


# Seconds a 503 without a wait of its own asks the caller to wait (the store re-opening,
# ingestion starting, a question too large for the memory it has right now).
DEFAULT_RETRY_AFTER_S = 5


class ApiError(Exception):
    """Raise from logic or routes: becomes an envelope with this status code and message."""

    def __init__(
        self, status_code: int, msg: Text, *, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(str(msg))
        self.status_code = status_code
        self.message = msg
        self.msg = str(msg)
        self.headers = dict(headers or {})


def request_language(request: Request) -> Language:
    return negotiate_language(request.headers.get("accept-language"))


def error_response(
    request: Request,
    message: Text,
    *,
    status_code: int,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """The failure envelope with ``message`` in the language the request asked for. Every
    503 says when to ask again (``Retry-After``, product.md section 6); a caller that names
    its own wait keeps it."""
    language = request_language(request)
    retry = {"Retry-After": str(DEFAULT_RETRY_AFTER_S)} if status_code == 503 else {}
    return JSONResponse(
        failure_body(render(message, language)),
        status_code=status_code,
        headers={**retry, **(headers or {}), "Content-Language": language},
    )


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error_response(
            request, exc.message, status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        language = request_language(request)
        message = describe_validation(exc.errors(), language=language)
        return error_response(request, message, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error_response(
            request, str(exc.detail), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(request, INTERNAL_ERROR(), status_code=500)
