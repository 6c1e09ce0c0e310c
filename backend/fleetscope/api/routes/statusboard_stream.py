"""``GET /v2/Analytics/Statusboard/stream``: the statusboard pushed as Server-Sent Events.

The user and scope are resolved with a session of their own that is closed before the
stream starts: an open wall-TV connection must not hold a database connection for hours.
Every ``stream_session_check_seconds`` the stream asks the store, with a short session of
its own again, whether its login session still holds (logout, expiry, deactivation end it)
and whether its parameters still give the vehicles it shows: a vehicle the user no longer
sees (another organization, role or partner link), one retired, registered or back in
service, or another saved selection end it, and the browser opens it again at once with the
tiles the user sees now.
"""

from collections.abc import AsyncIterator

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from fleetscope.analytics.core.params import AnalyticsParams, AnalyticsScope, resolve_scope
from fleetscope.analytics.dashboards.statusboard import (
    live_vehicles,
    read_live,
    statusboard_events,
)
from fleetscope.api.analytics_deps import (
    REPEATABLE_PARAMETERS,
    ParamsDep,
    get_fact_store,
    reading,
)
from fleetscope.api.deps import (
    SESSION_COOKIE,
    SettingsDep,
    authenticate,
    refuse_repeated_parameters,
)
from fleetscope.api.errors import ANALYTICS_FAILURES, ApiError
from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.errors import InvalidInputError, NotFoundError
from fleetscope.appstore.sessions import resolve_session
from fleetscope.facts.model import LiveStatus
from fleetscope.i18n.messages import LIVE_UNAVAILABLE
from fleetscope.ingest.live import LiveHub

router = APIRouter(prefix="/Analytics", tags=["Analytics"], responses=ANALYTICS_FAILURES)


def _resolve(request: Request, params: AnalyticsParams) -> AnalyticsScope:
    factory: SessionFactory = request.app.state.session_factory
    with factory() as db:
        authenticated = authenticate(request, db)
        refuse_repeated_parameters(request, repeatable=REPEATABLE_PARAMETERS)
        return resolve_scope(db, user=authenticated.user, params=params)


def _require_session(request: Request) -> None:
    """401 without a valid session, as a dependency: FastAPI checks the query parameters
    after it, so the caller is told that first (the scope authenticates again, in its own
    store session, as the stream holds none)."""
    factory: SessionFactory = request.app.state.session_factory
    with factory() as db:
        authenticate(request, db)


def _stream_holds(
    factory: SessionFactory, token: str, params: AnalyticsParams, streamed: frozenset[int]
) -> bool:
    """Whether the stream still shows what opening it now would: its login session holds and
    its parameters give the same vehicles in service."""
    with factory() as db:
        if (found := resolve_session(db, token=token)) is None:
            return False
        try:
            scope = resolve_scope(db, user=found[1], params=params)
        except (InvalidInputError, NotFoundError):  # the reconnect's answer says why
            return False
        return streamed == {vehicle.id for vehicle in live_vehicles(scope.vehicles)}


@router.get(
    "/Statusboard/stream",
    dependencies=[Depends(_require_session)],
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"text/event-stream": {}},
            "description": "events `snapshot` (StatusboardOut) and `tile` "
            "({vehicle: StatusTile, counts}); a comment line every 15 s",
        }
    },
)
async def stream_statusboard(
    request: Request, params: ParamsDep, settings: SettingsDep
) -> StreamingResponse:
    scope = await run_in_threadpool(_resolve, request, params)
    store = await get_fact_store(request)
    hub: LiveHub | None = getattr(request.app.state.ingestion, "hub", None)
    if hub is None:
        raise ApiError(503, LIVE_UNAVAILABLE())
    vehicles = live_vehicles(scope.vehicles)
    ids = [vehicle.id for vehicle in vehicles]
    streamed = frozenset(ids)

    def read() -> dict[int, LiveStatus]:
        with reading(store) as cursor:
            return read_live(cursor, ids)

    async def read_statuses() -> dict[int, LiveStatus]:
        return await run_in_threadpool(read)

    factory: SessionFactory = request.app.state.session_factory
    token = request.cookies.get(SESSION_COOKIE, "")

    async def access_holds() -> bool:
        return await run_in_threadpool(_stream_holds, factory, token, params, streamed)

    async def events() -> AsyncIterator[str]:
        async for chunk in statusboard_events(
            hub=hub,
            vehicles=vehicles,
            read_statuses=read_statuses,
            is_disconnected=request.is_disconnected,
            access_holds=access_holds,
            check_access_s=settings.stream_session_check_seconds,
        ):
            yield chunk

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
