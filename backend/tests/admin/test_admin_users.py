"""Users through /v2/Admin: the paged list, creation with a temporary password (shown once,
it logs in), role and organization rules, deactivation (every session ends at once, login
refused), password reset, the last login, and their audit entries (never a password)."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import User
from fleetscope.demo.seed import DemoData
from tests.admin.admin_kit import SUPERUSER, audit_entries, data, last_audit, refused

pytestmark = pytest.mark.sqlite_only
USERS = "/v2/Admin/Users"


def _no_secret(session_factory: SessionFactory, *secrets: str) -> None:
    for entry in audit_entries(session_factory):
        text = str(entry.before) + str(entry.after)
        assert "password" not in text.lower() and "hash" not in text.lower()
        assert not [secret for secret in secrets if secret in text]


def test_the_paged_list_with_filters(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    page = data(client.get(USERS, params={"pageSize": 4}))
    assert (page["total"], page["pages"], page["page"], page["pageSize"], page["sort"]) == (
        6,
        2,
        1,
        4,
        "email",
    )
    emails = [u["email"] for u in page["items"]]
    assert emails == sorted(emails) and emails[0] == "customer2@demo.fleetscope"
    second = data(client.get(USERS, params={"pageSize": 4, "page": 2}))
    assert [u["email"] for u in second["items"]] == [
        "superuser@demo.fleetscope",
        "support@demo.fleetscope",
    ]
    partner = data(client.get(USERS, params={"role": "partner"}))["items"]
    assert [(u["email"], u["partnerOrganizationIds"], u["organizationId"]) for u in partner] == [
        ("partner@demo.fleetscope", [seeded.organization_ids["Nordlicht Logistik"]], None)
    ]
    alpen = seeded.organization_ids["Alpenfracht AG"]
    in_alpen = data(client.get(USERS, params={"organizationId": alpen}))["items"]
    assert [(u["email"], u["organizationName"]) for u in in_alpen] == [
        ("customer2@demo.fleetscope", "Alpenfracht AG")
    ]
    # Search in email or name, any case; LIKE's wildcards are plain text.
    assert data(client.get(USERS, params={"search": "SUPPORT"}))["total"] == 1
    assert data(client.get(USERS, params={"search": "%"}))["total"] == 0
    assert "pageSize" in refused(client.get(USERS, params={"pageSize": 501}), 422)
    assert "role" in refused(client.get(USERS, params={"role": "admin"}), 422)


def test_create_with_a_temporary_password_that_logs_in(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    make_client: Callable[[], TestClient],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    alpen = seeded.organization_ids["Alpenfracht AG"]
    body = {"email": " Anna@Example.com ", "role": "customer", "organizationId": alpen}
    created = data(client.post(USERS, json={**body, "language": "de"}), 201)
    password = created["temporaryPassword"]
    assert len(password) >= 16
    user = created["user"]
    assert (user["email"], user["role"], user["organizationName"], user["language"]) == (
        "anna@example.com",
        "customer",
        "Alpenfracht AG",
        "de",
    )
    assert (user["displayName"], user["isActive"], user["lastLoginAt"]) == ("anna", True, None)
    entry = last_audit(session_factory)
    assert (entry.action, entry.entity_id, entry.before) == ("user.create", str(user["id"]), None)
    assert entry.after is not None and entry.after["email"] == "anna@example.com"
    _no_secret(session_factory, password)

    anna = make_client()
    assert login(anna, "anna@example.com", password)["email"] == "anna@example.com"
    listed = data(client.get(USERS, params={"search": "anna"}))["items"]
    assert listed[0]["lastLoginAt"] is not None
    # She sees her organization's vehicles only.
    assert {v["siteName"] for v in data(anna.get("/v2/Vehicles"))} == {"Munich Hub"}


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"email": "customer@demo.fleetscope", "role": "support"}, 409, "email: a user with"),
        ({"email": "not-an-email", "role": "support"}, 422, "email: 'not-an-email' is not"),
        ({"email": "a@b.de", "role": "customer"}, 422, "organization: a customer user needs"),
        ({"email": "a@b.de", "role": "boss"}, 422, "role"),
        ({"email": "a@b.de", "role": "support", "language": "fr"}, 422, "language"),
        ({"email": "a@b.de", "role": "support", "organizationId": 4242}, 422, "organizationId"),
    ],
)
def test_create_refusals(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
    body: dict[str, Any],
    status: int,
    message: str,
) -> None:
    login(client, SUPERUSER)
    assert message in refused(client.post(USERS, json=body), status)
    assert audit_entries(session_factory) == []


def test_support_with_an_organization_is_refused(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    body = {
        "email": "a@b.de",
        "role": "support",
        "organizationId": seeded.organization_ids["Alpenfracht AG"],
    }
    assert refused(client.post(USERS, json=body), 422) == (
        "organization: a support user sees every organization and belongs to none"
    )


def test_change_role_organization_language_and_name(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    customer = seeded.user_ids["customer@demo.fleetscope"]
    path = f"{USERS}/{customer}"
    alpen = seeded.organization_ids["Alpenfracht AG"]
    moved = data(client.patch(path, json={"organizationId": alpen, "language": "de"}))
    assert (moved["organizationName"], moved["language"], moved["role"]) == (
        "Alpenfracht AG",
        "de",
        "customer",
    )
    entry = last_audit(session_factory)
    assert (entry.action, entry.before, entry.after) == (
        "user.update",
        {
            "id": customer,
            "organizationId": seeded.organization_ids["Nordlicht Logistik"],
            "language": None,  # the demo users follow their browser until they choose
        },
        {"id": customer, "organizationId": alpen, "language": "de"},
    )
    support = data(client.patch(path, json={"role": "support", "displayName": "Kim"}))
    assert (support["role"], support["organizationId"], support["displayName"]) == (
        "support",
        None,
        "Kim",
    )
    assert support["language"] == "de"  # left out: unchanged
    # null: none chosen, the user's browser decides again.
    assert data(client.patch(path, json={"language": None}))["language"] is None
    entry = last_audit(session_factory)
    assert (entry.before, entry.after) == (
        {"id": customer, "language": "de"},
        {"id": customer, "language": None},
    )
    assert refused(client.patch(path, json={"role": "customer"}), 422) == (
        "organization: a customer user needs an organization"
    )
    assert refused(client.patch(path, json={"displayName": " "}), 422) == (
        "displayName: must not be empty"
    )
    me = seeded.user_ids[SUPERUSER]
    assert refused(client.patch(f"{USERS}/{me}", json={"isActive": False}), 422) == (
        "isActive: you cannot deactivate your own account"
    )
    assert refused(client.patch(f"{USERS}/{me}", json={"role": "support"}), 422) == (
        "role: you cannot take the superuser role from your own account"
    )
    assert refused(client.patch(f"{USERS}/99999", json={"language": "en"}), 404) == (
        "user 99999 not found"
    )


def test_deactivation_ends_every_session_at_once_and_refuses_login(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    make_client: Callable[[], TestClient],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    email = "customer@demo.fleetscope"
    first, second = make_client(), make_client()
    login(first, email)
    login(second, email)
    assert first.get("/v2/Vehicles").status_code == 200
    user = seeded.user_ids[email]
    # JSON's own types only: lax mode read the text "false" as false.
    refusal = refused(client.patch(f"{USERS}/{user}", json={"isActive": "false"}), 422)
    assert refusal == "isActive: Input should be a valid boolean"
    assert first.get("/v2/Vehicles").status_code == 200
    off = data(client.patch(f"{USERS}/{user}", json={"isActive": False}))
    assert off["isActive"] is False
    for session in (first, second):
        assert refused(session.get("/v2/Vehicles"), 401) == "authentication failed"
    again = make_client().post("/v2/User/login", json={"email": email, "password": "demo"})
    assert refused(again, 401) == "invalid email or password"
    entry = last_audit(session_factory)
    assert (entry.action, entry.before, entry.after) == (
        "user.deactivate",
        {"id": user, "isActive": True},
        {"id": user, "isActive": False},
    )
    on = data(client.patch(f"{USERS}/{user}", json={"isActive": True}))
    assert on["isActive"] is True
    assert last_audit(session_factory).action == "user.activate"
    login(make_client(), email)


def test_password_reset(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    make_client: Callable[[], TestClient],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    email = "service@demo.fleetscope"
    running = make_client()
    login(running, email)
    user = seeded.user_ids[email]
    reset = data(client.post(f"{USERS}/{user}/PasswordReset"))
    password = reset["temporaryPassword"]
    assert refused(running.get("/v2/Vehicles"), 401) == "authentication failed"
    old = make_client().post("/v2/User/login", json={"email": email, "password": "demo"})
    assert old.status_code == 401
    login(make_client(), email, password)
    entry = last_audit(session_factory)
    assert (entry.action, entry.after) == ("user.passwordReset", {"id": user, "email": email})
    _no_secret(session_factory, password)
    with session_factory() as session:
        stored = session.get(User, user)
        assert stored is not None and stored.last_login_at is not None
    assert refused(client.post(f"{USERS}/99999/PasswordReset"), 404) == "user 99999 not found"
