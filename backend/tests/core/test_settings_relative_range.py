"""A saved relative range stays relative: stored by name, dropped by a fixed period."""

from typing import Any

from fastapi.testclient import TestClient

from fleetscope.demo.seed import DemoData
from tests.core.support import CUSTOMER, LoginFn


def _patch(client: TestClient, body: Any) -> tuple[int, dict[str, Any]]:
    response = client.patch("/v2/User/settings", json=body)
    return response.status_code, response.json()


def test_a_relative_range_is_saved_by_name_until_a_fixed_period_replaces_it(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    assert "relativeRange" not in client.get("/v2/User/settings").json()["data"]["dateSelector"]

    status, body = _patch(
        client,
        {
            "dateSelector": {
                "mode": "day",
                "from": "2026-11-24",
                "to": "2026-11-24",
                "relativeRange": "yesterday",
            }
        },
    )
    assert status == 200
    assert body["data"]["dateSelector"]["relativeRange"] == "yesterday"
    # Other saved parts leave it alone.
    _patch(client, {"dateSelector": {"combined": True}})
    saved = client.get("/v2/User/settings").json()["data"]["dateSelector"]
    assert saved == {
        "mode": "day",
        "from": "2026-11-24",
        "to": "2026-11-24",
        "combined": True,
        "workflowShift": "all",
        "relativeRange": "yesterday",
    }

    # A fixed period (no name) ends the relative range.
    _patch(client, {"dateSelector": {"mode": "week", "from": "2026-11-16", "to": "2026-11-22"}})
    saved = client.get("/v2/User/settings").json()["data"]["dateSelector"]
    assert "relativeRange" not in saved
    assert (saved["from"], saved["to"]) == ("2026-11-16", "2026-11-22")


def test_an_unknown_relative_range_is_refused_naming_the_field(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    status, body = _patch(client, {"dateSelector": {"relativeRange": "nextWeek"}})
    assert status == 422
    assert body["status"] is False
    assert "relativeRange" in str(body)
    assert "relativeRange" not in client.get("/v2/User/settings").json()["data"]["dateSelector"]
