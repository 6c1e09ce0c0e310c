"""The FastAPI application: JSON API under ``/v2`` and the built single-page app at ``/``."""

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import duckdb
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from fleetscope import __version__
from fleetscope.api.admission import install_admission, size_worker_threads
from fleetscope.api.compression import ApiCompression
from fleetscope.api.errors import error_response, install_error_handlers
from fleetscope.api.frontend import mount_frontend
from fleetscope.api.routes import api_router
from fleetscope.api.routes.admin import router as admin_router
from fleetscope.api.security import install_web_security
from fleetscope.api.timing import ServerTimingMiddleware
from fleetscope.appstore.db import engine_for, make_session_factory, migrate_engine
from fleetscope.appstore.errors import StoreError
from fleetscope.appstore.page_views import PageViewBudget
from fleetscope.appstore.ratelimit import LoginRateLimiter
from fleetscope.i18n import Text
from fleetscope.i18n.messages import (
    BODY_NOT_PARSABLE,
    METHOD_NOT_ALLOWED,
    NOT_FOUND_PATH,
    QUESTION_TOO_LARGE,
)
from fleetscope.ingest.service import start_ingestion
from fleetscope.settings import Settings, get_settings

API_PREFIX = "/v2"

# FastAPI's detail for a body it cannot decode (not UTF-8, broken JSON framing).
FASTAPI_BODY_PARSE_ERROR = "There was an error parsing the body"


def _install_store_errors(app: FastAPI) -> None:
    @app.exception_handler(StoreError)
    async def _store_error(request: Request, exc: StoreError) -> JSONResponse:
        return error_response(request, exc.message, status_code=exc.status_code)

    @app.exception_handler(duckdb.OutOfMemoryException)
    async def _out_of_memory(request: Request, _exc: duckdb.OutOfMemoryException) -> JSONResponse:
        # The fact store's memory limit bounds the process; a question beyond it is refused
        # with a reason, and nothing else is affected (other requests, ingestion).
        return error_response(request, QUESTION_TOO_LARGE(), status_code=503)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message: Text = str(exc.detail)
        if exc.status_code == 404 and message == "Not Found":
            message = NOT_FOUND_PATH(path=request.url.path)
        elif exc.status_code == 405 and message == "Method Not Allowed":
            message = METHOD_NOT_ALLOWED(method=request.method, path=request.url.path)
        elif exc.status_code == 400 and message == FASTAPI_BODY_PARSE_ERROR:
            message = BODY_NOT_PARSABLE()
        return error_response(request, message, status_code=exc.status_code, headers=exc.headers)


GC_YOUNG_THRESHOLD = 20_000  # allocations between young collections (Python's default: 700)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application for ``settings``; the store is migrated when it starts (idempotent)."""
    settings = settings or get_settings()
    engine = engine_for(settings)

    @asynccontextmanager
    async def lifespan(running: FastAPI) -> AsyncIterator[None]:
        size_worker_threads(settings)
        await run_in_threadpool(migrate_engine, engine)
        running.state.ingestion = await run_in_threadpool(
            start_ingestion, settings, session_factory=running.state.session_factory
        )
        # Analytics responses allocate hundreds of thousands of short-lived objects; every
        # full collection would also walk the long-lived ones of the loaded modules. Freeze
        # those out of the collector's sight and collect the young generation less often.
        gc.collect()
        gc.freeze()
        thresholds = gc.get_threshold()
        gc.set_threshold(GC_YOUNG_THRESHOLD, *thresholds[1:])
        try:
            yield
        finally:
            gc.set_threshold(*thresholds)
            gc.unfreeze()
            await run_in_threadpool(running.state.ingestion.stop)
            engine.dispose()

    app = FastAPI(
        title="Fleetscope",
        version=__version__,
        summary="Analytics for fleets of automated vehicles speaking VDA 5050.",
        lifespan=lifespan,
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,  # served by install_web_security, without third-party scripts
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.session_factory = make_session_factory(engine)
    app.state.login_limiter = LoginRateLimiter(max_failures=settings.login_attempts_per_minute)
    app.state.page_view_budget = PageViewBudget(per_minute=settings.page_views_per_minute)
    # Inside the timing: a request's wait for its place counts as server time.
    install_admission(app, settings=settings, path_prefix=API_PREFIX)
    app.add_middleware(ServerTimingMiddleware, path_prefix=API_PREFIX)
    app.add_middleware(ApiCompression, path_prefix=API_PREFIX)
    install_web_security(app, settings=settings, api_prefix=API_PREFIX)
    install_error_handlers(app)
    _install_store_errors(app)
    app.include_router(api_router, prefix=API_PREFIX)
    app.include_router(admin_router, prefix=API_PREFIX)
    mount_frontend(app, dist=settings.frontend_dist, api_prefix=API_PREFIX)
    return app
