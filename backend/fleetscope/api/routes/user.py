"""The signed-in user: login, logout, profile, saved settings and dashboard layout."""

import math
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import Field

from fleetscope.api.deps import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    AuthenticatedDep,
    CurrentUser,
    LoginLimiterDep,
    SessionDep,
    SettingsDep,
    require_csrf,
)
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import (
    BAD_CREDENTIALS,
    CHANGE_FAILURES,
    JSON_BODY_FAILURES,
    LOGIN_THROTTLED,
    NO_CSRF,
    NOT_SIGNED_IN,
    PASSWORD_THROTTLED,
    READ_FAILURES,
    ApiError,
    failure_responses,
)
from fleetscope.api.json_body import JsonBodyRoute
from fleetscope.appstore.models import utc_now
from fleetscope.appstore.ratelimit import LoginRateLimiter
from fleetscope.appstore.schemas import (
    AppSettingsOut,
    AppSettingsPatch,
    DashboardWidget,
    StoredText,
    StrictCamelModel,
    UserOut,
    UserPatch,
    user_out,
)
from fleetscope.appstore.security import tokens_equal
from fleetscope.appstore.sessions import close_session, open_session, resolve_session
from fleetscope.appstore.settings_service import (
    read_dashboard_layout,
    read_settings,
    save_dashboard_layout,
    update_settings,
)
from fleetscope.appstore.unchanged import UNCHANGED
from fleetscope.appstore.users import (
    authenticate,
    change_own_password,
    check_new_password,
    update_profile,
)
from fleetscope.i18n import Template
from fleetscope.i18n.messages import (
    INVALID_CREDENTIALS,
    TOO_MANY_LOGIN_ATTEMPTS,
    TOO_MANY_PASSWORD_ATTEMPTS,
)
from fleetscope.settings import Settings

router = APIRouter(prefix="/User", tags=["User"], route_class=JsonBodyRoute)


class LoginBody(StrictCamelModel):
    email: StoredText = Field(max_length=320)
    password: str = Field(max_length=1024)


class PasswordChange(StrictCamelModel):
    current_password: str = Field(max_length=1024)
    # No NUL: no keyboard types it, so such a password would lock its user out of the login.
    new_password: StoredText = Field(max_length=1024)


def _admit(limiter: LoginRateLimiter, *, account: str, address: str, refusal: Template) -> None:
    """A 429 with Retry-After while the account or the address has failed too often."""
    wait = limiter.admit(account=account, address=address)
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise ApiError(429, refusal(seconds=seconds), headers={"Retry-After": str(seconds)})


def _client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _cookie_options(*, settings: Settings, max_age: int) -> dict[str, Any]:
    return {"max_age": max_age, "path": "/", "secure": settings.secure_cookies, "samesite": "lax"}


def _set_session_cookies(
    response: Response, *, settings: Settings, token: str, csrf_token: str
) -> None:
    common = _cookie_options(settings=settings, max_age=settings.session_days * 24 * 3600)
    response.set_cookie(SESSION_COOKIE, token, httponly=True, **common)
    # Readable by the page on purpose: the app echoes it in the X-CSRF-Token header.
    response.set_cookie(CSRF_COOKIE, csrf_token, httponly=False, **common)


def _clear_session_cookies(response: Response, *, settings: Settings) -> None:
    for name, http_only in ((SESSION_COOKIE, True), (CSRF_COOKIE, False)):
        response.delete_cookie(
            name, path="/", secure=settings.secure_cookies, httponly=http_only, samesite="lax"
        )


@router.post(
    "/login",
    response_model=Envelope[UserOut],
    responses=failure_responses(BAD_CREDENTIALS, LOGIN_THROTTLED, *JSON_BODY_FAILURES),
)
def login(
    body: LoginBody,
    request: Request,
    response: Response,
    db: SessionDep,
    settings: SettingsDep,
    limiter: LoginLimiterDep,
) -> Envelope[UserOut]:
    # The client address as the server saw it, or as a trusted proxy reported it
    # (settings.trusted_proxies): a client's own X-Forwarded-For never counts.
    account, address = body.email.strip().lower(), _client_address(request)
    _admit(limiter, account=account, address=address, refusal=TOO_MANY_LOGIN_ATTEMPTS)
    user = authenticate(db, email=body.email, password=body.password)
    if user is None:
        raise ApiError(401, INVALID_CREDENTIALS())
    limiter.succeeded(account=account, address=address)
    previous = request.cookies.get(SESSION_COOKIE)
    if previous:
        # A fresh session id on every login: a planted cookie never becomes a live session.
        close_session(db, token=previous)
    issued = open_session(db, user=user, lifetime=timedelta(days=settings.session_days))
    _set_session_cookies(
        response, settings=settings, token=issued.token, csrf_token=issued.csrf_token
    )
    return ok(user_out(user))


@router.post(
    "/password",
    response_model=Envelope[UserOut],
    responses=failure_responses(NOT_SIGNED_IN, NO_CSRF, *JSON_BODY_FAILURES, PASSWORD_THROTTLED),
)
def change_password(
    body: PasswordChange,
    request: Request,
    authenticated: AuthenticatedDep,
    db: SessionDep,
    limiter: LoginLimiterDep,
) -> Envelope[UserOut]:
    """The user's own password instead of the current one (temporary or not). This browser
    stays signed in; every other session of the user ends. Wrong current passwords count as
    failed logins of the account (the same secret is being guessed)."""
    # A new password that would be refused anyway costs no attempt of the account.
    check_new_password(current=body.current_password, new=body.new_password)
    user = authenticated.user
    account, address = user.email, _client_address(request)
    _admit(limiter, account=account, address=address, refusal=TOO_MANY_PASSWORD_ATTEMPTS)
    changed = change_own_password(
        db,
        user=user,
        current=body.current_password,
        new=body.new_password,
        kept_session=authenticated.session,
    )
    limiter.succeeded(account=account, address=address)
    return ok(user_out(changed))


@router.post("/logout", response_model=Envelope[None], responses=failure_responses(NO_CSRF))
def logout(
    request: Request, response: Response, db: SessionDep, settings: SettingsDep
) -> Envelope[None]:
    """Ends the server session; without a live session it only clears the cookies."""
    token = request.cookies.get(SESSION_COOKIE, "")
    resolved = resolve_session(db, token=token)
    if resolved is not None:
        require_csrf(request, resolved[0])
        close_session(db, token=token)
    _clear_session_cookies(response, settings=settings)
    return ok(None)


@router.get("/me", response_model=Envelope[UserOut], responses=READ_FAILURES)
def read_me(
    authenticated: AuthenticatedDep, request: Request, response: Response, settings: SettingsDep
) -> Envelope[UserOut]:
    """The signed-in user; a page that lost its CSRF cookie while the session holds (a reload
    cut its start-up short) gets it again, else every change would be refused until the next
    login."""
    session = authenticated.session
    if not tokens_equal(request.cookies.get(CSRF_COOKIE, ""), session.csrf_token):
        left = math.floor((session.expires_at - utc_now()).total_seconds())
        options = _cookie_options(settings=settings, max_age=max(left, 0))
        response.set_cookie(CSRF_COOKIE, session.csrf_token, httponly=False, **options)
    return ok(user_out(authenticated.user))


@router.patch("/me", response_model=Envelope[UserOut], responses=CHANGE_FAILURES)
def update_me(body: UserPatch, user: CurrentUser, db: SessionDep) -> Envelope[UserOut]:
    """Changes what the body names (a JSON merge patch: ``"language": null`` forgets the
    chosen language, and the app follows the browser again)."""
    updated = update_profile(
        db,
        user=user,
        language=body.language if "language" in body.model_fields_set else UNCHANGED,
        display_name=body.display_name,
    )
    return ok(user_out(updated))


@router.get("/settings", response_model=Envelope[AppSettingsOut], responses=READ_FAILURES)
def read_app_settings(user: CurrentUser, db: SessionDep) -> Envelope[AppSettingsOut]:
    return ok(read_settings(db, user=user))


@router.patch("/settings", response_model=Envelope[AppSettingsOut], responses=CHANGE_FAILURES)
def update_app_settings(
    body: AppSettingsPatch, user: CurrentUser, db: SessionDep
) -> Envelope[AppSettingsOut]:
    return ok(update_settings(db, user=user, patch=body))


@router.get(
    "/dashboard-layout", response_model=Envelope[list[dict[str, Any]]], responses=READ_FAILURES
)
def read_layout(user: CurrentUser, db: SessionDep) -> Envelope[list[dict[str, Any]]]:
    return ok(read_dashboard_layout(db, user=user))


@router.put(
    "/dashboard-layout", response_model=Envelope[list[dict[str, Any]]], responses=CHANGE_FAILURES
)
def save_layout(
    body: list[DashboardWidget], user: CurrentUser, db: SessionDep
) -> Envelope[list[dict[str, Any]]]:
    return ok(save_dashboard_layout(db, user=user, widgets=body))
