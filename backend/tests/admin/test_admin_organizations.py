"""Organizations and partner links through /v2/Admin: create, rename, delete only when
empty, who a partner sees; every change with its audit entry, every refusal naming the
field or the problem (English and German)."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fleetscope.appstore.db import SessionFactory
from fleetscope.demo.seed import DemoData
from tests.admin.admin_kit import SUPERUSER, audit_entries, data, last_audit, refused

pytestmark = pytest.mark.sqlite_only
ORGS = "/v2/Admin/Organizations"


def test_list_create_rename_delete_with_audit_entries(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    listed = data(client.get(ORGS))
    # Nordlicht: Hamburg DC; customer and the partner's link is no membership. Alpenfracht:
    # Munich Hub and customer2.
    assert [(o["name"], o["siteCount"], o["userCount"]) for o in listed] == [
        ("Alpenfracht AG", 1, 1),
        ("Nordlicht Logistik", 1, 1),
    ]
    created = data(client.post(ORGS, json={"name": "  Kranich Cargo "}), 201)
    assert (created["name"], created["siteCount"], created["userCount"]) == ("Kranich Cargo", 0, 0)
    entry = last_audit(session_factory)
    assert (entry.actor, entry.via, entry.action, entry.entity_type, entry.entity_id) == (
        SUPERUSER,
        "web",
        "organization.create",
        "organization",
        str(created["id"]),
    )
    assert entry.actor_user_id == seeded.user_ids[SUPERUSER]
    assert (entry.before, entry.after) == (None, {"id": created["id"], "name": "Kranich Cargo"})

    renamed = data(client.patch(f"{ORGS}/{created['id']}", json={"name": "Kranich Logistik"}))
    assert renamed["name"] == "Kranich Logistik"
    entry = last_audit(session_factory)
    assert (entry.action, entry.before, entry.after) == (
        "organization.update",
        {"id": created["id"], "name": "Kranich Cargo"},
        {"id": created["id"], "name": "Kranich Logistik"},
    )

    assert data(client.delete(f"{ORGS}/{created['id']}")) is None
    entry = last_audit(session_factory)
    assert (entry.action, entry.before, entry.after) == (
        "organization.delete",
        {"id": created["id"], "name": "Kranich Logistik"},
        None,
    )
    assert [o["name"] for o in data(client.get(ORGS))] == ["Alpenfracht AG", "Nordlicht Logistik"]
    assert len(audit_entries(session_factory)) == 3


def test_refusals_name_the_problem_and_write_no_audit_entry(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    nordlicht = seeded.organization_ids["Nordlicht Logistik"]
    assert refused(client.post(ORGS, json={"name": "Nordlicht Logistik"}), 409) == (
        "organization 'Nordlicht Logistik' already exists"
    )
    assert refused(client.post(ORGS, json={"name": "   "}), 422) == "name: must not be empty"
    # Lengths of text in characters (pydantic would say "Value should have at least 1 item").
    assert refused(client.post(ORGS, json={"name": ""}), 422) == (
        "name: String should have at least 1 character"
    )
    assert refused(client.post(ORGS, json={"name": "x" * 201}), 422) == (
        "name: String should have at most 200 characters"
    )
    german = client.post(ORGS, json={"name": "x" * 201}, headers={"Accept-Language": "de"})
    assert refused(german, 422) == "name: darf höchstens 200 Zeichen haben"
    assert "nick" in refused(client.post(ORGS, json={"name": "A", "nick": "B"}), 422)
    rename = client.patch(f"{ORGS}/{nordlicht}", json={"name": "Alpenfracht AG"})
    assert refused(rename, 409) == "organization 'Alpenfracht AG' already exists"
    assert refused(client.patch(f"{ORGS}/99999", json={"name": "X"}), 404) == (
        "organization 99999 not found"
    )
    # Not empty: the message names what is left, in the language of the request.
    delete = client.delete(f"{ORGS}/{nordlicht}")
    assert refused(delete, 409) == (
        "organization 'Nordlicht Logistik' still has sites (1) and users (1); "
        "move or delete them first"
    )
    german = client.delete(f"{ORGS}/{nordlicht}", headers={"Accept-Language": "de"})
    assert refused(german, 409).startswith(
        "Organisation 'Nordlicht Logistik' hat noch Standorte (1) und Benutzer (1)"
    )
    assert audit_entries(session_factory) == []


def test_partner_links(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    make_client: Callable[[], TestClient],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    partner = seeded.user_ids["partner@demo.fleetscope"]
    nordlicht = seeded.organization_ids["Nordlicht Logistik"]
    alpen = seeded.organization_ids["Alpenfracht AG"]
    links = f"/v2/Admin/Users/{partner}/PartnerOrganizations"
    assert data(client.get(links)) == {"organizationIds": [nordlicht]}

    put = client.put(links, json={"organizationIds": [alpen, nordlicht, alpen]})
    assert data(put) == {"organizationIds": sorted([alpen, nordlicht])}
    entry = last_audit(session_factory)
    assert (entry.action, entry.entity_id) == ("user.partnerLinks", str(partner))
    assert entry.before is not None and entry.after is not None
    assert (entry.before["partnerOrganizationIds"], entry.after["partnerOrganizationIds"]) == (
        [nordlicht],
        sorted([alpen, nordlicht]),
    )
    # The partner now sees the vehicles of both organizations.
    partner_client = make_client()
    login(partner_client, "partner@demo.fleetscope")
    sites = {site["name"] for site in data(partner_client.get("/v2/Sites"))}
    assert sites == {"Hamburg DC", "Munich Hub"}

    assert data(client.put(links, json={"organizationIds": []})) == {"organizationIds": []}
    assert data(partner_client.get("/v2/Sites")) == []

    unknown = client.put(links, json={"organizationIds": [nordlicht, 4242]})
    assert refused(unknown, 422) == "organizationIds: organization 4242 does not exist"
    customer = seeded.user_ids["customer@demo.fleetscope"]
    not_partner = client.put(
        f"/v2/Admin/Users/{customer}/PartnerOrganizations", json={"organizationIds": [alpen]}
    )
    assert refused(not_partner, 422) == (
        "organizationIds: user 'customer@demo.fleetscope' is a customer; only partner users "
        "have linked organizations"
    )
    assert data(client.get(f"/v2/Admin/Users/{customer}/PartnerOrganizations")) == {
        "organizationIds": []
    }
    assert refused(client.get("/v2/Admin/Users/99999/PartnerOrganizations"), 404) == (
        "user 99999 not found"
    )
