"""``null`` in a PATCH body of the Administration API: where a field may be empty it empties
it (a site's MQTT interface, a vehicle's battery capacity, a user's organization or
language); where it cannot, it is a 422 naming the field, in the caller's language, and
nothing changes (it read as "left out": `version: null` skipped the check for a newer change,
`workflowRules: null` did not clear the rules)."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fleetscope.appstore.db import SessionFactory
from fleetscope.demo.seed import DemoData
from tests.admin.admin_kit import SUPERUSER, audit_entries, data, refused

pytestmark = pytest.mark.sqlite_only

KEPT = {
    "site": ["name", "timeZone", "shifts", "workflowRules", "loadActionTypes", "version"],
    "vehicle": ["name", "siteId", "retired"],
    "user": ["role", "displayName", "isActive"],
}


def _paths(seeded: DemoData) -> dict[str, str]:
    return {
        "site": f"/v2/Admin/Sites/{seeded.site_ids['Munich Hub']}",
        "vehicle": f"/v2/Admin/Vehicles/{seeded.vehicle_ids['MUC-03']}",
        "user": f"/v2/Admin/Users/{seeded.user_ids['customer@demo.fleetscope']}",
    }


def test_null_for_a_field_that_cannot_be_empty_is_refused_naming_it(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    paths = _paths(seeded)
    site = data(client.get(paths["site"]))
    changes = len(audit_entries(session_factory))
    for kind, fields in KEPT.items():
        for field in fields:
            answer = client.patch(paths[kind], json={field: None})
            assert refused(answer, 422) == (
                f"{field}: Input should not be null: leave the field out to keep its value"
            ), (kind, field)
    german = client.patch(
        paths["site"], json={"workflowRules": None}, headers={"Accept-Language": "de"}
    )
    assert refused(german, 422) == (
        "workflowRules: darf nicht null sein: ohne die Angabe bleibt der Wert, wie er ist"
    )
    assert len(audit_entries(session_factory)) == changes
    assert data(client.get(paths["site"])) == site


def test_null_empties_a_field_that_may_be_empty(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    paths = _paths(seeded)
    site = data(client.patch(paths["site"], json={"mqttInterface": None}))["site"]
    assert site["mqttInterface"] is None
    vehicle = data(client.patch(paths["vehicle"], json={"batteryCapacityWh": None}))["vehicle"]
    assert vehicle["batteryCapacityWh"] is None
    user = data(client.patch(paths["user"], json={"language": None}))
    assert user["language"] is None
