"""Every failure leaves as an envelope with a message that names the problem; never a 500 trace."""

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from fleetscope.api.envelope import failure_body

log = logging.getLogger(__name__)

AUTHENTICATION_FAILED = "authentication failed"


class ApiError(Exception):
    """Raise from logic or routes: becomes an envelope with this status code and message."""

    def __init__(self, status_code: int, msg: str) -> None:
        super().__init__(msg)
        self.status_code = status_code
        self.msg = msg


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what} not found")


def _describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors():
        location = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "query"))
        parts.append(f"{location or 'request'}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(failure_body(exc.msg), status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(failure_body(_describe_validation(exc)), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            failure_body(str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse(failure_body("internal error"), status_code=500)
