"""Login, logout, sessions, cookies, CSRF and the login rate limit over HTTP."""

from collections import defaultdict
from datetime import timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from fleetscope.api.deps import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE
from fleetscope.api.main import create_app
from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import User, UserSession, utc_now
from fleetscope.appstore.ratelimit import LoginRateLimiter
from fleetscope.appstore.security import token_digest
from fleetscope.demo.seed import DemoData
from fleetscope.settings import Settings
from tests.core.support import AUTH_FAILED, CUSTOMER, PARTNER, ClientFactory, FakeClock, LoginFn


def _cookie_header(response_headers: list[str], name: str) -> str:
    return next(header for header in response_headers if header.startswith(f"{name}="))


def test_login_returns_the_user_and_sets_both_cookies(client: TestClient, seeded: DemoData) -> None:
    response = client.post("/v2/User/login", json={"email": CUSTOMER, "password": "demo"})

    assert response.status_code == 200
    assert response.json() == {
        "status": True,
        "msg": None,
        "data": {
            "id": seeded.user_ids[CUSTOMER],
            "email": CUSTOMER,
            "role": "customer",
            "organizationId": seeded.organization_ids["Nordlicht Logistik"],
            "displayName": "Customer",
            "language": None,  # none chosen: the app follows the browser
            "passwordTemporary": False,
        },
    }
    cookies = response.headers.get_list("set-cookie")
    session_cookie = _cookie_header(cookies, SESSION_COOKIE).lower()
    csrf_cookie = _cookie_header(cookies, CSRF_COOKIE).lower()
    assert "httponly" in session_cookie
    assert "samesite=lax" in session_cookie
    assert "path=/" in session_cookie
    assert "secure" not in session_cookie  # plain http outside production
    assert "httponly" not in csrf_cookie  # the page must read it to echo it
    assert "samesite=lax" in csrf_cookie


def test_cookies_are_secure_in_production(settings: Settings, seeded: DemoData) -> None:
    production = settings.model_copy(update={"environment": "production"})
    with TestClient(create_app(production)) as client:
        response = client.post("/v2/User/login", json={"email": CUSTOMER, "password": "demo"})
    cookies = response.headers.get_list("set-cookie")
    assert "; secure" in _cookie_header(cookies, SESSION_COOKIE).lower()
    assert "; secure" in _cookie_header(cookies, CSRF_COOKIE).lower()


def test_email_is_case_insensitive(client: TestClient, seeded: DemoData) -> None:
    response = client.post(
        "/v2/User/login", json={"email": "  Customer@Demo.Fleetscope ", "password": "demo"}
    )
    assert response.status_code == 200


def test_wrong_password_and_unknown_email_get_the_same_answer(
    client: TestClient, seeded: DemoData
) -> None:
    expected = {"status": False, "msg": "invalid email or password", "data": None}
    wrong = client.post("/v2/User/login", json={"email": CUSTOMER, "password": "nope"})
    unknown = client.post("/v2/User/login", json={"email": "who@x.io", "password": "demo"})
    assert (wrong.status_code, wrong.json()) == (401, expected)
    assert (unknown.status_code, unknown.json()) == (401, expected)
    assert SESSION_COOKIE not in client.cookies


def test_inactive_user_cannot_log_in(
    client: TestClient, seeded: DemoData, session_factory: SessionFactory
) -> None:
    with session_factory() as session:
        session.execute(update(User).where(User.email == CUSTOMER).values(is_active=False))
        session.commit()
    response = client.post("/v2/User/login", json={"email": CUSTOMER, "password": "demo"})
    assert response.status_code == 401


def test_protected_calls_without_session_say_authentication_failed(client: TestClient) -> None:
    for method, path in (
        ("GET", "/v2/User/me"),
        ("GET", "/v2/User/settings"),
        ("PATCH", "/v2/User/settings"),
        ("GET", "/v2/Vehicles"),
        ("GET", "/v2/Sites"),
        ("POST", "/v2/Events"),
    ):
        response = client.request(method, path, json={})
        assert (response.status_code, response.json()) == (401, AUTH_FAILED), path


@pytest.mark.parametrize("cookie", [None, "forged-or-expired"])
def test_analytics_without_a_session_say_so_before_judging_the_query(
    client: TestClient, cookie: str | None
) -> None:
    """A malformed period is the caller's business only once it is signed in: the client
    recognises an ended session by this answer alone (and opens the login page)."""
    if cookie is not None:
        client.cookies.set(SESSION_COOKIE, cookie)
    document = client.get("/v2/openapi.json").json()
    paths = [path for path in document["paths"] if path.startswith("/v2/Analytics/")]
    assert len(paths) >= 15
    for path in paths:
        url = path.format_map(defaultdict(lambda: "x"))
        for query in ("from=xx", "hours=0", "combined=maybe", "vehicles=1,two", "since=noon"):
            response = client.get(f"{url}?{query}")
            assert (response.status_code, response.json()) == (401, AUTH_FAILED), (url, query)


def test_unknown_session_cookie_is_authentication_failed(client: TestClient) -> None:
    client.cookies.set(SESSION_COOKIE, "forged-token")
    response = client.get("/v2/User/me")
    assert (response.status_code, response.json()) == (401, AUTH_FAILED)


def test_expired_session_is_authentication_failed_and_removed(
    client: TestClient, seeded: DemoData, login: LoginFn, session_factory: SessionFactory
) -> None:
    login(client, CUSTOMER)
    token_hash = token_digest(client.cookies[SESSION_COOKIE])
    with session_factory() as session:
        session.execute(
            update(UserSession)
            .where(UserSession.token_hash == token_hash)
            .values(expires_at=utc_now() - timedelta(seconds=1))
        )
        session.commit()

    response = client.get("/v2/User/me")

    assert (response.status_code, response.json()) == (401, AUTH_FAILED)
    with session_factory() as session:
        assert session.get(UserSession, token_hash) is None


def test_me_answers_while_the_session_lives(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    user = login(client, CUSTOMER)
    response = client.get("/v2/User/me")
    assert response.json() == {"status": True, "msg": None, "data": user}


def test_me_gives_a_page_that_lost_its_csrf_cookie_the_sessions_again(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    """A reload that cut the start-up short once made the page forget the cookie while the
    session held: every change was then refused until the next login."""
    login(client, CUSTOMER)
    csrf = client.headers.pop(CSRF_HEADER)
    assert client.get("/v2/User/me").headers.get_list("set-cookie") == []  # it has it
    client.cookies.delete(CSRF_COOKIE)
    again = client.get("/v2/User/me")
    assert again.status_code == 200
    cookie = _cookie_header(again.headers.get_list("set-cookie"), CSRF_COOKIE)
    assert cookie.startswith(f"{CSRF_COOKIE}={csrf};") and "httponly" not in cookie.lower()
    saved = client.patch(
        "/v2/User/settings",
        json={"onboardingWatched": True},
        headers={CSRF_HEADER: client.cookies[CSRF_COOKIE]},
    )
    assert saved.status_code == 200, saved.text


def test_logout_ends_the_server_session_and_clears_cookies(
    client: TestClient, seeded: DemoData, login: LoginFn, session_factory: SessionFactory
) -> None:
    login(client, CUSTOMER)
    old_token = client.cookies[SESSION_COOKIE]

    response = client.post("/v2/User/logout")

    assert response.json() == {"status": True, "msg": None, "data": None}
    cleared = response.headers.get_list("set-cookie")
    assert "max-age=0" in _cookie_header(cleared, SESSION_COOKIE).lower()
    assert "max-age=0" in _cookie_header(cleared, CSRF_COOKIE).lower()
    with session_factory() as session:
        assert session.get(UserSession, token_digest(old_token)) is None
    # A copy of the old cookie kept by an attacker is worthless now.
    client.cookies.set(SESSION_COOKIE, old_token)
    assert client.get("/v2/User/me").status_code == 401


def test_logout_without_session_only_clears_cookies(client: TestClient) -> None:
    response = client.post("/v2/User/logout")
    assert (response.status_code, response.json()["status"]) == (200, True)


def test_a_new_login_replaces_the_previous_session(
    client: TestClient, seeded: DemoData, login: LoginFn, session_factory: SessionFactory
) -> None:
    login(client, CUSTOMER)
    first = token_digest(client.cookies[SESSION_COOKIE])
    login(client, CUSTOMER)
    with session_factory() as session:
        hashes = set(session.scalars(select(UserSession.token_hash)))
    assert first not in hashes
    assert len(hashes) == 1


def test_sessions_are_stored_as_digests(
    client: TestClient, seeded: DemoData, login: LoginFn, session_factory: SessionFactory
) -> None:
    login(client, CUSTOMER)
    token = client.cookies[SESSION_COOKIE]
    with session_factory() as session:
        stored = session.scalars(select(UserSession.token_hash)).one()
    assert stored == token_digest(token)
    assert token not in stored


def test_state_changing_calls_need_the_csrf_header(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    csrf = client.headers.pop(CSRF_HEADER)
    forbidden = {"status": False, "msg": "missing or invalid CSRF token", "data": None}

    missing = client.patch("/v2/User/settings", json={"onboardingWatched": True})
    wrong = client.patch(
        "/v2/User/settings", json={"onboardingWatched": True}, headers={CSRF_HEADER: "x" + csrf}
    )
    logout = client.post("/v2/User/logout")
    reading = client.get("/v2/User/settings")

    assert (missing.status_code, missing.json()) == (403, forbidden)
    assert (wrong.status_code, wrong.json()) == (403, forbidden)
    assert (logout.status_code, logout.json()) == (403, forbidden)
    assert reading.json()["data"]["onboardingWatched"] is False
    right = client.patch(
        "/v2/User/settings", json={"onboardingWatched": True}, headers={CSRF_HEADER: csrf}
    )
    assert right.json()["data"]["onboardingWatched"] is True


def test_csrf_token_belongs_to_one_session(
    make_client: ClientFactory, seeded: DemoData, login: LoginFn
) -> None:
    alice, bob = make_client(), make_client()
    login(alice, CUSTOMER)
    login(bob, PARTNER)
    response = bob.patch(
        "/v2/User/me", json={"language": "de"}, headers={CSRF_HEADER: alice.cookies[CSRF_COOKIE]}
    )
    assert response.status_code == 403


def _fail(client: TestClient, *, email: str = CUSTOMER) -> int:
    response = client.post("/v2/User/login", json={"email": email, "password": "wrong"})
    return response.status_code


def test_failed_logins_are_limited_per_email_in_a_sliding_minute(
    app: FastAPI, client: TestClient, seeded: DemoData
) -> None:
    clock = FakeClock()
    app.state.login_limiter = LoginRateLimiter(max_failures=3, clock=clock)

    assert [_fail(client) for _ in range(3)] == [401, 401, 401]
    blocked = client.post("/v2/User/login", json={"email": CUSTOMER, "password": "demo"})
    assert blocked.status_code == 429
    assert blocked.json() == {
        "status": False,
        "msg": "too many failed login attempts; try again in 60 seconds",
        "data": None,
    }
    assert blocked.headers["retry-after"] == "60"

    clock.now += 59.5
    assert _fail(client) == 429
    clock.now += 1.0
    ok = client.post("/v2/User/login", json={"email": CUSTOMER, "password": "demo"})
    assert ok.status_code == 200


def test_failed_logins_are_limited_per_client_address(
    app: FastAPI, client: TestClient, seeded: DemoData
) -> None:
    app.state.login_limiter = LoginRateLimiter(max_failures=3, clock=FakeClock())
    statuses = [_fail(client, email=f"guess{n}@demo.fleetscope") for n in range(4)]
    assert statuses == [401, 401, 401, 429]


def test_the_limit_comes_from_settings(settings: Settings) -> None:
    limited = settings.model_copy(update={"login_attempts_per_minute": 2})
    with TestClient(create_app(limited)) as client:
        assert [_fail(client) for _ in range(3)] == [401, 401, 429]
