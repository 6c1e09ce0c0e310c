"""The Administration API's app-store side on SQLite and on PostgreSQL: migrations 0005 and 0006
(audit log, re-derivation jobs, last login, last token use) up and down with existing rows,
and one round of changes whose audit entries (JSON before/after) and filters read back the
same on both."""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, inspect, text

from fleetscope.demo.seed import DemoData
from tests.admin.admin_kit import SUPERUSER, data, refused
from tests.conftest import migrate_to


def _columns(engine: Engine, table: str) -> set[str]:
    return {column["name"] for column in inspect(engine).get_columns(table)}


def _insert_user(engine: Engine, *, now: datetime) -> None:
    """A user as the migrations before 0005 know it: user 1, ``a@b.de``."""
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (id, email, password_hash, role, display_name, language,"
                " is_active, created_at) VALUES (1, 'a@b.de', 'x', 'support', 'A', 'en',"
                " true, :now)"
            ),
            {"now": now},
        )


def test_migration_0005_up_and_down_keeps_users_and_tokens(empty_engine: Engine) -> None:
    migrate_to(empty_engine, "0004")
    now = datetime.now(UTC)
    _insert_user(empty_engine, now=now)
    migrate_to(empty_engine, "0005")
    tables = set(inspect(empty_engine).get_table_names())
    assert {"audit_log", "rederive_jobs"} <= tables
    assert "last_login_at" in _columns(empty_engine, "users")
    assert "last_used_at" in _columns(empty_engine, "api_tokens")
    with empty_engine.begin() as connection:
        row = connection.execute(text("SELECT email, last_login_at FROM users")).one()
        assert tuple(row) == ("a@b.de", None)
        connection.execute(
            text(
                "INSERT INTO audit_log (at, actor_user_id, actor, via, action, entity_type,"
                " entity_id, before, after) VALUES (:now, 1, 'a@b.de', 'web', 'x.y', 'user',"
                " '1', NULL, :after)"
            ),
            {"now": now, "after": '{"k": [1, 2]}'},
        )
        # The user goes, the entry stays and still names who it was.
        connection.execute(text("DELETE FROM users"))
        kept = connection.execute(text("SELECT actor, actor_user_id FROM audit_log")).one()
        assert tuple(kept) == ("a@b.de", None)
    migrate_to(empty_engine, "0004", down=True)
    tables = set(inspect(empty_engine).get_table_names())
    assert not {"audit_log", "rederive_jobs"} & tables
    assert "last_login_at" not in _columns(empty_engine, "users")
    assert "last_used_at" not in _columns(empty_engine, "api_tokens")
    migrate_to(empty_engine, "head")
    assert "audit_log" in set(inspect(empty_engine).get_table_names())


def test_a_round_of_changes_reads_back_the_same(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    org = data(client.post("/v2/Admin/Organizations", json={"name": "Kranich ÄÖÜ"}), 201)["id"]
    site = data(
        client.post(
            "/v2/Admin/Sites",
            json={"organizationId": org, "name": "Nacht", "timeZone": "Asia/Tokyo"},
        ),
        201,
    )["id"]
    night = {"id": "n", "name": "Nacht", "start": "22:00", "end": "06:00", "weekdays": [6]}
    changed = data(
        client.patch(
            f"/v2/Admin/Sites/{site}",
            json={"shifts": [night], "workflowRules": ["^(?P<workflow>[^-]+)-"]},
        )
    )
    assert changed["job"] is None  # no vehicle at the site yet
    assert changed["site"]["shifts"] == [night]
    user = data(
        client.post(
            "/v2/Admin/Users",
            json={"email": "nacht@kranich.example", "role": "customer", "organizationId": org},
        ),
        201,
    )["user"]
    data(client.patch(f"/v2/Admin/Users/{user['id']}", json={"isActive": False}))
    assert refused(client.delete(f"/v2/Admin/Organizations/{org}"), 409) == (
        "organization 'Kranich ÄÖÜ' still has sites (1) and users (1); move or delete them first"
    )
    found = data(client.get("/v2/Admin/Users", params={"search": "NACHT@"}))
    assert [u["email"] for u in found["items"]] == ["nacht@kranich.example"]
    assert found["items"][0]["isActive"] is False

    audit = data(client.get("/v2/Admin/Audit"))["items"]
    assert [e["action"] for e in audit] == [
        "user.deactivate",
        "user.create",
        "site.update",
        "site.create",
        "organization.create",
    ]
    assert audit[2]["after"] == {
        "id": site,
        "shifts": [night],
        "workflowRules": ["^(?P<workflow>[^-]+)-"],
    }
    assert audit[4]["after"] == {"id": org, "name": "Kranich ÄÖÜ"}
    sites = data(client.get("/v2/Admin/Audit", params={"entityType": "site"}))
    assert sites["total"] == 2


def test_filters_that_no_store_could_take_are_refused_or_clamped(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    data(client.post("/v2/Admin/Organizations", json={"name": "Kranich"}), 201)
    # PostgreSQL's text cannot hold NUL (the driver would fail): a 422 naming the parameter.
    assert "search" in refused(client.get("/v2/Admin/Users", params={"search": "a\x00"}), 422)
    assert "actor" in refused(client.get("/v2/Admin/Audit", params={"actor": "a\x00"}), 422)
    # Instants at the calendar's ends cannot be turned into UTC: clamped, not a 500.
    late = data(client.get("/v2/Admin/Audit", params={"from": "9999-12-31T23:59:59-05:00"}))
    early = data(client.get("/v2/Admin/Audit", params={"to": "0001-01-01T00:00:00+05:00"}))
    assert (late["total"], early["total"]) == (0, 0)
    assert (
        data(client.get("/v2/Admin/Audit", params={"to": "9999-12-31T23:59:59-05:00"}))["total"]
        == 1
    )


@pytest.mark.parametrize(
    ("path", "first", "last"),
    [("/v2/Admin/Audit", "from", "to"), ("/v2/Admin/DeadLetters", "receivedFrom", "receivedTo")],
)
def test_a_time_filter_ending_before_it_starts_is_refused_naming_its_end(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    path: str,
    first: str,
    last: str,
) -> None:
    """Not an empty list that looks like "nothing happened": the range is the mistake."""
    login(client, SUPERUSER)
    reversed_range = {first: "2026-11-28T00:00:00Z", last: "2026-11-01T00:00:00+01:00"}
    assert refused(client.get(path, params=reversed_range), 422) == (
        f"{last}: 2026-11-01T00:00:00+01:00 is before {first} (2026-11-28T00:00:00+00:00)"
    )
    german = client.get(path, params=reversed_range, headers={"Accept-Language": "de"})
    assert german.json()["msg"].startswith(f"{last}: 2026-11-01T00:00:00+01:00 liegt vor {first}")
    # The same instant at both ends is an empty range, not a reversed one.
    same = {first: "2026-11-01T01:00:00+01:00", last: "2026-11-01T00:00:00Z"}
    assert data(client.get(path, params=same))["total"] == 0


def test_migration_0006_keeps_existing_passwords_as_the_users_own(empty_engine: Engine) -> None:
    migrate_to(empty_engine, "0005")
    _insert_user(empty_engine, now=datetime.now(UTC))
    migrate_to(empty_engine, "0006")
    with empty_engine.begin() as connection:
        row = connection.execute(text("SELECT email, password_temporary FROM users")).one()
        assert tuple(row) == ("a@b.de", False)
    migrate_to(empty_engine, "0005", down=True)
    assert "password_temporary" not in _columns(empty_engine, "users")
    with empty_engine.begin() as connection:
        assert connection.execute(text("SELECT email FROM users")).scalar_one() == "a@b.de"


def test_names_of_organizations_and_sites_are_the_same_in_any_case(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    """On both stores, also beyond ASCII (SQLite's lower() leaves "Ä" as it is)."""
    login(client, SUPERUSER)
    orgs, sites = "/v2/Admin/Organizations", "/v2/Admin/Sites"
    assert refused(client.post(orgs, json={"name": "nordlicht logistik"}), 409) == (
        "organization 'Nordlicht Logistik' already exists"
    )
    kranich = data(client.post(orgs, json={"name": "Kranich ÄÖÜ"}), 201)["id"]
    assert refused(client.post(orgs, json={"name": " kranich äöü "}), 409) == (
        "organization 'Kranich ÄÖÜ' already exists"
    )
    german = client.post(orgs, json={"name": "KRANICH ÄÖÜ"}, headers={"Accept-Language": "de"})
    assert refused(german, 409) == "Organisation 'Kranich ÄÖÜ' existiert bereits"
    rename = client.patch(f"{orgs}/{kranich}", json={"name": "ALPENFRACHT ag"})
    assert refused(rename, 409) == "organization 'Alpenfracht AG' already exists"
    # Its own name in another case is a rename.
    assert data(client.patch(f"{orgs}/{kranich}", json={"name": "Kranich äöü"}))["name"] == (
        "Kranich äöü"
    )

    nordlicht = seeded.organization_ids["Nordlicht Logistik"]
    body = {"organizationId": nordlicht, "name": "hamburg dc"}
    assert refused(client.post(sites, json=body), 409) == (
        "site 'Hamburg DC' already exists in organization 'Nordlicht Logistik'"
    )
    luebeck = data(client.post(sites, json={**body, "name": "Lübeck Süd"}), 201)["id"]
    assert refused(client.post(sites, json={**body, "name": "LÜBECK SÜD"}), 409) == (
        "site 'Lübeck Süd' already exists in organization 'Nordlicht Logistik'"
    )
    rename = client.patch(f"{sites}/{luebeck}", json={"name": "HAMBURG DC"})
    assert refused(rename, 409) == (
        "site 'Hamburg DC' already exists in organization 'Nordlicht Logistik'"
    )
    renamed = data(client.patch(f"{sites}/{luebeck}", json={"name": "Lübeck süd"}))
    assert renamed["site"]["name"] == "Lübeck süd"
    # Another organization may have a site of the same name.
    other = {"organizationId": kranich, "name": "HAMBURG DC"}
    assert data(client.post(sites, json=other), 201)["name"] == "HAMBURG DC"
