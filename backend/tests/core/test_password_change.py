"""``POST /v2/User/password``: a user replaces their password (an administrator's temporary
one or their own). The current password is checked and guessing it is throttled like a
login; this browser stays signed in and every other session ends; the audit entry names the
user, never a password; the user's ``passwordTemporary`` follows who set the password."""

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import AuditEntry, User
from fleetscope.appstore.ratelimit import LoginRateLimiter
from fleetscope.demo.seed import DemoData
from tests.core.support import (
    AUTH_FAILED,
    CUSTOMER,
    SUPERUSER,
    ClientFactory,
    FakeClock,
    LoginFn,
    envelope_error,
)

PASSWORD = "/v2/User/password"
NEW = "a-longer-secret"


def _change(client: TestClient, current: str, new: str) -> Any:
    return client.post(PASSWORD, json={"currentPassword": current, "newPassword": new})


def test_the_own_password_replaces_the_old_one_and_ends_other_sessions(
    client: TestClient, seeded: DemoData, login: LoginFn, make_client: ClientFactory
) -> None:
    other = make_client()
    login(other, CUSTOMER)
    login(client, CUSTOMER)

    changed = _change(client, "demo", NEW)

    assert changed.status_code == 200
    assert changed.json()["data"]["email"] == CUSTOMER
    assert changed.json()["data"]["passwordTemporary"] is False
    assert client.get("/v2/User/me").status_code == 200  # this browser stays signed in
    assert other.get("/v2/User/me").json() == AUTH_FAILED
    old = make_client().post("/v2/User/login", json={"email": CUSTOMER, "password": "demo"})
    assert old.status_code == 401
    login(make_client(), CUSTOMER, NEW)


def test_an_administrators_password_is_temporary_until_the_user_chooses_one(
    client: TestClient, seeded: DemoData, login: LoginFn, make_client: ClientFactory
) -> None:
    login(client, SUPERUSER)
    assert client.get("/v2/User/me").json()["data"]["passwordTemporary"] is False
    body = {"email": "new.driver@example.com", "role": "support"}
    created = client.post("/v2/Admin/Users", json=body).json()["data"]
    user_id, temporary = created["user"]["id"], created["temporaryPassword"]

    newcomer = make_client()
    assert login(newcomer, body["email"], temporary)["passwordTemporary"] is True
    assert _change(newcomer, temporary, NEW).json()["data"]["passwordTemporary"] is False
    assert newcomer.get("/v2/User/me").json()["data"]["passwordTemporary"] is False

    reset = client.post(f"/v2/Admin/Users/{user_id}/PasswordReset").json()["data"]
    assert login(make_client(), body["email"], reset["temporaryPassword"])["passwordTemporary"]


def test_mistakes_are_422s_naming_the_field_and_change_nothing(
    client: TestClient, seeded: DemoData, login: LoginFn, make_client: ClientFactory
) -> None:
    login(client, CUSTOMER)
    wrong = _change(client, "not-it", NEW)
    short = _change(client, "demo", "short")
    same = client.post(PASSWORD, json={"currentPassword": "demo", "newPassword": "demo"})
    missing = client.post(PASSWORD, json={"currentPassword": "demo"})
    extra = client.post(PASSWORD, json={"currentPassword": "demo", "newPassword": NEW, "x": 1})
    untypable = _change(client, "demo", "\x00" * 8)

    assert (wrong.status_code, wrong.json()) == (
        422,
        envelope_error("currentPassword: this is not your current password"),
    )
    assert short.json() == envelope_error("newPassword: must have at least 8 characters")
    assert same.json()["msg"] == "newPassword: must have at least 8 characters"
    assert [r.status_code for r in (short, same, missing, extra)] == [422] * 4
    assert (untypable.status_code, untypable.json()) == (
        422,
        envelope_error("newPassword: String should not contain the NUL character"),
    )
    assert "newPassword" in missing.json()["msg"]
    assert _change(client, NEW, NEW + "!").status_code == 422
    assert client.get("/v2/User/me").status_code == 200
    login(make_client(), CUSTOMER)  # the password is still "demo"


def test_the_same_password_again_is_refused(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    assert _change(client, "demo", NEW).status_code == 200
    assert _change(client, NEW, NEW).json() == envelope_error(
        "newPassword: must differ from the current password"
    )


def test_german_users_read_the_reasons_in_german(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    client.headers["Accept-Language"] = "de-DE,de;q=0.9"
    assert _change(client, "nope-nope", NEW).json()["msg"] == (
        "currentPassword: das ist nicht Ihr aktuelles Passwort"
    )
    assert _change(client, "demo", "kurz").json()["msg"] == (
        "newPassword: muss mindestens 8 Zeichen haben"
    )


def test_guessing_the_current_password_is_throttled_like_a_login(
    app: FastAPI, client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    app.state.login_limiter = LoginRateLimiter(max_failures=3, clock=FakeClock())
    assert [_change(client, f"guess-{n}", NEW).status_code for n in range(3)] == [422] * 3

    blocked = _change(client, "demo", NEW)

    assert blocked.status_code == 429
    assert blocked.headers["retry-after"] == "60"
    assert blocked.json() == envelope_error(
        "currentPassword: too many wrong attempts; try again in 60 seconds"
    )


def test_it_needs_a_session_and_the_csrf_header(
    client: TestClient, seeded: DemoData, login: LoginFn, make_client: ClientFactory
) -> None:
    assert _change(make_client(), "demo", NEW).json() == AUTH_FAILED
    login(client, CUSTOMER)
    del client.headers["X-CSRF-Token"]
    assert _change(client, "demo", NEW).status_code == 403


def test_the_audit_entry_names_the_user_and_no_secret(
    client: TestClient, seeded: DemoData, login: LoginFn, session_factory: SessionFactory
) -> None:
    login(client, CUSTOMER)
    assert _change(client, "demo", NEW).status_code == 200
    with session_factory() as session:
        user = session.scalars(select(User).where(User.email == CUSTOMER)).one()
        entry = session.scalars(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
        assert entry is not None
        assert (entry.action, entry.actor, entry.via) == ("user.passwordChange", CUSTOMER, "web")
        assert entry.after == {"id": user.id, "email": CUSTOMER}
        assert NEW not in str(entry.after) and "demo" not in str(entry.before)
