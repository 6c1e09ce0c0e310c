"""Deleting users and sites through /v2/Admin, on SQLite and on PostgreSQL (whose ON DELETE
rules are the migrations', not the models'): a user goes with their sessions, settings and
partner links; a site only without vehicles, with its API tokens; and an organization whose
sites and users are gone can then be deleted too."""

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import ApiToken, PartnerLink, UserSession, UserSettings
from fleetscope.demo.seed import DemoData
from tests.admin.admin_kit import SUPERUSER, audit_entries, data, last_audit, refused
from tests.ingest.vda import T0, line, state

PARTNER = "partner@demo.fleetscope"


def _rows(session_factory: SessionFactory, model: Any, *condition: Any) -> int:
    with session_factory() as session:
        return int(session.scalar(select(func.count()).select_from(model).where(*condition)) or 0)


def test_a_deleted_user_loses_sessions_settings_and_links_and_the_audit_keeps_them(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    make_client: Callable[[], TestClient],
    session_factory: SessionFactory,
) -> None:
    partner = make_client()
    login(partner, PARTNER)
    saved = data(partner.patch("/v2/User/settings", json={"onboardingWatched": True}))
    assert saved["onboardingWatched"] is True
    user = seeded.user_ids[PARTNER]
    linked = [seeded.organization_ids["Nordlicht Logistik"]]
    assert _rows(session_factory, UserSettings, UserSettings.user_id == user) == 1
    assert _rows(session_factory, PartnerLink, PartnerLink.user_id == user) == 1

    login(client, SUPERUSER)
    assert data(client.delete(f"/v2/Admin/Users/{user}")) is None

    assert refused(partner.get("/v2/Vehicles"), 401) == "authentication failed"
    again = make_client().post("/v2/User/login", json={"email": PARTNER, "password": "demo"})
    assert refused(again, 401) == "invalid email or password"
    for model in (UserSession, UserSettings, PartnerLink):
        assert _rows(session_factory, model, model.user_id == user) == 0, model
    listed = data(client.get("/v2/Admin/Users", params={"search": "partner@"}))
    assert listed["items"] == []
    entry = last_audit(session_factory)
    assert (entry.action, entry.entity_type, entry.entity_id, entry.actor) == (
        "user.delete",
        "user",
        str(user),
        SUPERUSER,
    )
    assert entry.before is not None and entry.after is None
    assert (entry.before["email"], entry.before["role"]) == (PARTNER, "partner")
    assert entry.before["partnerOrganizationIds"] == linked
    assert refused(client.delete(f"/v2/Admin/Users/{user}"), 404) == f"user {user} not found"


def test_nobody_deletes_their_own_account(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    own = seeded.user_ids[SUPERUSER]
    assert refused(client.delete(f"/v2/Admin/Users/{own}"), 422) == (
        "you cannot delete your own account"
    )
    german = client.delete(f"/v2/Admin/Users/{own}", headers={"Accept-Language": "de"})
    assert refused(german, 422) == "das eigene Konto kann nicht gelöscht werden"
    assert data(client.get("/v2/User/me"))["email"] == SUPERUSER


def test_a_site_with_vehicles_stays_and_says_how_many(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    site = seeded.site_ids["Munich Hub"]
    entries = len(audit_entries(session_factory))
    assert refused(client.delete(f"/v2/Admin/Sites/{site}"), 409) == (
        "site 'Munich Hub' still has vehicles (4); move them to another site first"
    )
    german = client.delete(f"/v2/Admin/Sites/{site}", headers={"Accept-Language": "de"})
    assert refused(german, 409) == (
        "Standort 'Munich Hub' hat noch Fahrzeuge (4); diese zuerst an einen anderen Standort "
        "verschieben"
    )
    assert data(client.get(f"/v2/Admin/Sites/{site}"))["vehicleCount"] == 4
    assert len(audit_entries(session_factory)) == entries  # nothing changed, nothing recorded


def test_an_organization_is_emptied_site_and_user_first_then_deleted(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    org = data(client.post("/v2/Admin/Organizations", json={"name": "Kranich"}), 201)["id"]
    body = {"organizationId": org, "name": "Linz", "mqttInterface": "linz"}
    site = data(client.post("/v2/Admin/Sites", json=body), 201)["id"]
    token = data(client.post(f"/v2/Admin/Sites/{site}/Tokens", json={"name": "t"}), 201)["token"]
    body = {"email": "k@kranich.example", "role": "customer", "organizationId": org}
    user = data(client.post("/v2/Admin/Users", json=body), 201)["user"]["id"]
    assert refused(client.delete(f"/v2/Admin/Organizations/{org}"), 409).startswith(
        "organization 'Kranich' still has sites (1) and users (1)"
    )

    assert data(client.delete(f"/v2/Admin/Sites/{site}")) is None
    assert refused(client.get(f"/v2/Admin/Sites/{site}"), 404) == f"site {site} not found"
    assert _rows(session_factory, ApiToken, ApiToken.site_id == site) == 0
    message = line("AGV-1", "state", state("AGV-1", 1, T0), interface="linz")
    sent = client.post(
        "/v2/Ingest/vda5050", content=message, headers={"Authorization": f"Bearer {token}"}
    )
    assert sent.status_code == 401, sent.text  # the site's token went with it
    entry = last_audit(session_factory)
    assert (entry.action, entry.entity_id, entry.after) == ("site.delete", str(site), None)
    assert entry.before is not None
    assert (entry.before["name"], entry.before["mqttInterface"], entry.before["apiTokens"]) == (
        "Linz",
        "linz",
        1,
    )

    assert data(client.delete(f"/v2/Admin/Users/{user}")) is None
    assert data(client.delete(f"/v2/Admin/Organizations/{org}")) is None
    actions = [entry.action for entry in audit_entries(session_factory)]
    assert actions[-3:] == ["site.delete", "user.delete", "organization.delete"]
