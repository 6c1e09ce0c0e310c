"""Every failure leaves as an envelope with a message that names the problem; never a 500 trace.

Messages are rendered in the language of the request (``Accept-Language``, see
``fleetscope.i18n``); error responses say which in ``Content-Language``.
"""

import logging
from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from fleetscope.api.envelope import failure_body
from fleetscope.i18n import Language, Text, negotiate_language, render
from fleetscope.i18n.messages import INTERNAL_ERROR
from fleetscope.i18n.validation import describe_validation

log = logging.getLogger(__name__)

AUTHENTICATION_FAILED = "authentication failed"
"""Not translated: the client recognizes an ended session by exactly this text (spec §8)."""


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
    """The failure envelope with ``message`` in the language the request asked for."""
    language = request_language(request)
    return JSONResponse(
        failure_body(render(message, language)),
        status_code=status_code,
        headers={**(headers or {}), "Content-Language": language},
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
