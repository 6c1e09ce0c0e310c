"""GET /v2/Admin/Audit: every change, newest first, paged and filtered by action, entity
type, actor and time."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fleetscope.appstore.audit import Actor, record
from fleetscope.appstore.db import SessionFactory
from fleetscope.demo.seed import DemoData
from tests.admin.admin_kit import SUPERUSER, data, refused

pytestmark = pytest.mark.sqlite_only
AUDIT = "/v2/Admin/Audit"


def test_entries_newest_first_paged_and_filtered(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    org = data(client.post("/v2/Admin/Organizations", json={"name": "Kranich"}), 201)["id"]
    client.patch(f"/v2/Admin/Organizations/{org}", json={"name": "Kranich Cargo"})
    site = seeded.site_ids["Munich Hub"]
    client.patch(f"/v2/Admin/Sites/{site}", json={"timeZone": "UTC"})
    with session_factory() as session:
        record(
            session,
            actor=Actor.cli().who,
            via="cli",
            action="user.create",
            entity_type="user",
            entity_id=7,
            before=None,
            after={"email": "x@example.com", "passwordHash": "$argon2...", "token": "fst_x"},
        )
        session.commit()

    page = data(client.get(AUDIT))
    assert (page["total"], page["pages"], page["sort"]) == (4, 1, "-at")
    assert [e["action"] for e in page["items"]] == [
        "user.create",
        "site.update",
        "organization.update",
        "organization.create",
    ]
    cli = page["items"][0]
    # Secrets never reach the log, whatever a caller passes.
    assert (cli["via"], cli["entityId"], cli["after"]) == ("cli", "7", {"email": "x@example.com"})
    web = page["items"][1]
    assert (web["actor"], web["via"], web["entityType"], web["entityId"]) == (
        SUPERUSER,
        "web",
        "site",
        str(site),
    )
    assert (web["before"], web["after"]) == (
        {"id": site, "timeZone": "Europe/Berlin"},
        {"id": site, "timeZone": "UTC"},
    )
    second = data(client.get(AUDIT, params={"pageSize": 3, "page": 2}))
    assert [e["action"] for e in second["items"]] == ["organization.create"]
    by_type = data(client.get(AUDIT, params={"entityType": "organization"}))
    assert [e["action"] for e in by_type["items"]] == ["organization.update", "organization.create"]
    by_action = data(client.get(AUDIT, params={"action": "site.update"}))
    assert by_action["total"] == 1
    by_actor = data(client.get(AUDIT, params={"actor": "SUPERUSER@"}))
    assert by_actor["total"] == 3
    now = datetime.now(UTC)
    future = data(client.get(AUDIT, params={"from": (now + timedelta(hours=1)).isoformat()}))
    assert future["total"] == 0
    past = data(client.get(AUDIT, params={"to": (now - timedelta(hours=1)).isoformat()}))
    assert past["total"] == 0
    window = {
        "from": (now - timedelta(hours=1)).isoformat(),
        "to": (now + timedelta(hours=1)).isoformat(),
    }
    assert data(client.get(AUDIT, params=window))["total"] == 4
    # An instant without a zone is ambiguous: refused by name, never a 500.
    assert "from" in refused(client.get(AUDIT, params={"from": "2026-01-01T00:00:00"}), 422)
    assert "pageSize" in refused(client.get(AUDIT, params={"pageSize": 0}), 422)
