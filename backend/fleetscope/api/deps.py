"""Dependencies of the route handlers, as ``Annotated`` aliases (store session, current user)."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Request
from sqlalchemy.orm import Session

from fleetscope.api.errors import AUTHENTICATION_FAILED, ApiError, request_language
from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.appstore.models import User, UserSession
from fleetscope.appstore.page_views import PageViewBudget
from fleetscope.appstore.ratelimit import LoginRateLimiter
from fleetscope.appstore.security import tokens_equal
from fleetscope.appstore.sessions import resolve_session
from fleetscope.appstore.tenants import can_administer, visible_vehicle_ids
from fleetscope.i18n import Language
from fleetscope.i18n.messages import CSRF_FAILED, NOT_FOUND_PATH, QUERY_PARAMETER_REPEATED
from fleetscope.settings import Settings

SESSION_COOKIE = "fleetscope_session"
CSRF_COOKIE = "fleetscope_csrf"
CSRF_HEADER = "X-CSRF-Token"
STATE_CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# The app store's ids are INTEGER columns, 32-bit signed on PostgreSQL (64-bit on SQLite):
# a larger id in a path is a 422 naming the parameter, never an overflow in the database
# driver (a 500).
MAX_STORE_ID = 2**31 - 1
StoreId = Annotated[int, Path(ge=1, le=MAX_STORE_ID, description="an id of the app store")]


# Dependencies that only read app state are ``async``: FastAPI runs a sync one in a worker
# thread, a hop that costs more than the dependency itself on every request.
async def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_db(request: Request) -> AsyncIterator[Session]:
    # Async although the session does I/O: opening it does none, and closing it hands the
    # connection back with a rollback (microseconds on SQLite, one round trip on
    # PostgreSQL). As a sync generator it would cost two worker-thread hops per request,
    # 0.4-1.1 ms each on this machine (measured), more than the query it serves.
    factory: SessionFactory = request.app.state.session_factory
    with factory() as session:
        yield session


async def get_login_limiter(request: Request) -> LoginRateLimiter:
    limiter: LoginRateLimiter = request.app.state.login_limiter
    return limiter


async def get_page_view_budget(request: Request) -> PageViewBudget:
    budget: PageViewBudget = request.app.state.page_view_budget
    return budget


SettingsDep = Annotated[Settings, Depends(get_app_settings)]
SessionDep = Annotated[Session, Depends(get_db)]
LoginLimiterDep = Annotated[LoginRateLimiter, Depends(get_login_limiter)]
PageViewBudgetDep = Annotated[PageViewBudget, Depends(get_page_view_budget)]
# The language of texts in an answer (Accept-Language), as errors use it.
RequestLanguage = Annotated[Language, Depends(request_language)]


@dataclass(frozen=True)
class Authenticated:
    user: User
    session: UserSession


def require_csrf(request: Request, user_session: UserSession) -> None:
    """State-changing calls made with the session cookie must echo the session's CSRF token."""
    if request.method not in STATE_CHANGING_METHODS:
        return
    header = request.headers.get(CSRF_HEADER, "")
    if not header or not tokens_equal(header, user_session.csrf_token):
        raise ApiError(403, CSRF_FAILED())


def release_connection(db: Session) -> None:
    """End the session's read transaction, so its pooled connection goes back to the pool
    before this worker thread is handed back; the loaded rows stay usable (the factory
    does not expire them on commit), and the next statement takes a connection again.

    Every sync dependency that reads the store calls this last: the handler runs in
    another worker thread, and a request holding a connection while it waits for a thread
    (while the threads wait for connections) is how 40 simultaneous requests deadlocked the
    server until the pool's timeout."""
    db.commit()


def authenticate(request: Request, db: Session, *, csrf: bool = True) -> Authenticated:
    """The request's session and user; the caller releases the connection when done.
    ``csrf=False``: the caller checks the CSRF token itself, after what must come first."""
    resolved = resolve_session(db, token=request.cookies.get(SESSION_COOKIE, ""))
    if resolved is None:
        raise ApiError(401, AUTHENTICATION_FAILED)
    user_session, user = resolved
    if csrf:
        require_csrf(request, user_session)
    return Authenticated(user=user, session=user_session)


def get_authenticated(request: Request, db: SessionDep) -> Authenticated:
    # On a refusal the request ends here, and ``get_db`` gives the connection back.
    authenticated = authenticate(request, db)
    release_connection(db)
    return authenticated


AuthenticatedDep = Annotated[Authenticated, Depends(get_authenticated)]


async def get_current_user(authenticated: AuthenticatedDep) -> User:
    return authenticated.user


CurrentUser = Annotated[User, Depends(get_current_user)]


def get_superuser(request: Request, db: SessionDep) -> User:
    """The Administration API (``/v2/Admin/...``) is for superusers; to everyone else it does
    not exist: the same 404 as a path that does not exist, so a customer, partner, support
    or service user learns nothing about it (product.md section 1, "404, not 403"), with or
    without a CSRF token. The superuser's changes need it like any other."""
    authenticated = authenticate(request, db, csrf=False)
    release_connection(db)
    if not can_administer(authenticated.user):
        raise ApiError(404, NOT_FOUND_PATH(path=request.url.path))
    require_csrf(request, authenticated.session)
    return authenticated.user


SuperUser = Annotated[User, Depends(get_superuser)]


def refuse_repeated_parameters(request: Request, *, repeatable: frozenset[str]) -> None:
    """422 for a query parameter given twice that may not be, rather than reading its last
    value (``page=1&page=2``)."""
    for name in dict.fromkeys(request.query_params.keys()):
        count = len(request.query_params.getlist(name))
        if count > 1 and name not in repeatable:
            raise InvalidInputError(QUERY_PARAMETER_REPEATED(name=name[:40], count=count))


def admin_query(request: Request, _: SuperUser) -> None:
    """The Administration API's query parameters each at most once; after the superuser
    check, so everyone else hears its 401 or 404 whatever the query."""
    refuse_repeated_parameters(request, repeatable=frozenset())


def get_visible_vehicle_ids(db: SessionDep, user: CurrentUser) -> set[int]:
    ids = visible_vehicle_ids(db, user=user)
    release_connection(db)
    return ids


# The vehicles the current user may see: every analytics query filters by these ids.
VisibleVehicleIds = Annotated[set[int], Depends(get_visible_vehicle_ids)]
