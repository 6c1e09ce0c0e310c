"""Saved settings of the shell, the language switch and the dashboard layout."""

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import PartnerLink
from fleetscope.demo.seed import DemoData
from tests.core.support import CUSTOMER, PARTNER, SUPPORT, ClientFactory, LoginFn, envelope_error


def _berlin_today() -> date:
    return datetime.now(ZoneInfo("Europe/Berlin")).date()


def _patch(client: TestClient, body: Any) -> tuple[int, dict[str, Any]]:
    response = client.patch("/v2/User/settings", json=body)
    return response.status_code, response.json()


def test_defaults_are_the_current_calendar_week(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    monday = _berlin_today() - timedelta(days=_berlin_today().weekday())
    response = client.get("/v2/User/settings")
    assert response.json() == {
        "status": True,
        "msg": None,
        "data": {
            "dateSelector": {
                "mode": "week",
                "from": monday.isoformat(),
                "to": (monday + timedelta(days=6)).isoformat(),
                "combined": False,
                "workflowShift": "all",
            },
            "selectedMachines": [],
            "onboardingWatched": False,
        },
    }


def test_each_saved_operation_changes_only_its_part(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    ham1, ham2 = seeded.vehicle_ids["HAM-01"], seeded.vehicle_ids["HAM-02"]

    # save date filter
    _patch(client, {"dateSelector": {"mode": "custom", "from": "2026-03-01", "to": "2026-03-31"}})
    # save date filter plus workflow shift
    _patch(
        client,
        {
            "dateSelector": {
                "mode": "month",
                "from": "2026-02-01",
                "to": "2026-02-28",
                "workflowShift": "late",
            }
        },
    )
    # save combined mode
    _patch(client, {"dateSelector": {"combined": True}})
    # save vehicles plus mode
    _patch(client, {"selectedMachines": [ham2, ham1, ham2], "dateSelector": {"mode": "month"}})
    # mark onboarding as watched
    status, body = _patch(client, {"onboardingWatched": True})

    assert status == 200
    expected = {
        "dateSelector": {
            "mode": "month",
            "from": "2026-02-01",
            "to": "2026-02-28",
            "combined": True,
            "workflowShift": "late",
        },
        "selectedMachines": [ham2, ham1],  # duplicates dropped, order kept
        "onboardingWatched": True,
    }
    assert body["data"] == expected
    assert client.get("/v2/User/settings").json()["data"] == expected


def test_settings_survive_a_new_login(
    make_client: ClientFactory, seeded: DemoData, login: LoginFn
) -> None:
    first, second = make_client(), make_client()
    login(first, CUSTOMER)
    _patch(first, {"onboardingWatched": True, "dateSelector": {"workflowShift": "night"}})
    login(second, CUSTOMER)
    data = second.get("/v2/User/settings").json()["data"]
    assert data["onboardingWatched"] is True
    assert data["dateSelector"]["workflowShift"] == "night"


@pytest.mark.parametrize(
    ("body", "msg"),
    [
        (
            {"dateSelector": {"from": "2026-05-03", "to": "2026-05-01"}},
            "dateSelector: from (2026-05-03) is after to (2026-05-01)",
        ),
        (
            {"dateSelector": {"mode": "decade"}},
            "dateSelector.mode: Input should be 'day', 'week', 'month', 'year' or 'custom'",
        ),
        (
            {"dateSelector": {"from": "yesterday"}},
            "dateSelector.from: Input should be a valid date in the format YYYY-MM-DD",
        ),
        ({"selectedMachines": [999999]}, "selectedMachines: unknown vehicle id 999999"),
        (
            {"selectedMachines": "all"},
            "selectedMachines: Input should be a valid list",
        ),
        (
            {"dateSelector": {"workflowShift": "brunch"}},
            "dateSelector.workflowShift: unknown shift 'brunch'",
        ),
        ({"onboardingWatched": "maybe"}, "onboardingWatched: Input should be a valid boolean"),
        # JSON's own types only: not "yes" for true, 1 for true or true for vehicle 1.
        ({"onboardingWatched": "yes"}, "onboardingWatched: Input should be a valid boolean"),
        (
            {"dateSelector": {"combined": 1}},
            "dateSelector.combined: Input should be a valid boolean",
        ),
        ({"selectedMachines": [True]}, "selectedMachines.0: Input should be a valid integer"),
        ({"selectedMachines": ["1"]}, "selectedMachines.0: Input should be a valid integer"),
        ({"colour": "red"}, "colour: Extra inputs are not permitted"),
    ],
)
def test_invalid_settings_are_rejected_with_the_field_named(
    client: TestClient, seeded: DemoData, login: LoginFn, body: Any, msg: str
) -> None:
    login(client, CUSTOMER)
    before = client.get("/v2/User/settings").json()
    assert _patch(client, body) == (422, envelope_error(msg))
    assert client.get("/v2/User/settings").json() == before


def test_a_from_after_the_saved_to_is_rejected(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    _patch(client, {"dateSelector": {"from": "2026-01-01", "to": "2026-01-31"}})
    status, body = _patch(client, {"dateSelector": {"from": "2026-02-15"}})
    assert status == 422
    assert body["msg"] == "dateSelector: from (2026-02-15) is after to (2026-01-31)"


def test_a_lost_vehicle_disappears_from_the_saved_selection(
    client: TestClient, seeded: DemoData, login: LoginFn, session_factory: SessionFactory
) -> None:
    login(client, PARTNER)
    _patch(client, {"selectedMachines": [seeded.vehicle_ids["HAM-01"]]})
    with session_factory() as session:
        session.execute(delete(PartnerLink))
        session.commit()
    assert client.get("/v2/User/settings").json()["data"]["selectedMachines"] == []


def test_read_only_roles_may_change_their_own_settings_and_language(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, SUPPORT)
    assert _patch(client, {"onboardingWatched": True})[0] == 200
    response = client.patch("/v2/User/me", json={"language": "de"})
    assert response.json()["data"]["language"] == "de"


def test_language_switch_is_saved(client: TestClient, seeded: DemoData, login: LoginFn) -> None:
    login(client, CUSTOMER)
    response = client.patch("/v2/User/me", json={"language": "de", "displayName": " Kim "})
    assert response.status_code == 200
    assert client.get("/v2/User/me").json()["data"] | {"id": 0} == {
        "id": 0,
        "email": CUSTOMER,
        "role": "customer",
        "organizationId": seeded.organization_ids["Nordlicht Logistik"],
        "displayName": "Kim",
        "language": "de",
        "passwordTemporary": False,
    }


def test_a_null_language_follows_the_browser_again(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    """A JSON merge patch: null forgets the choice; a body without the field keeps it."""
    login(client, CUSTOMER)

    def language_after(body: dict[str, Any]) -> str | None:
        response = client.patch("/v2/User/me", json=body)
        assert response.status_code == 200, response.text
        language: str | None = client.get("/v2/User/me").json()["data"]["language"]
        return language

    assert language_after({"language": "de"}) == "de"
    assert language_after({"displayName": "Kim"}) == "de"
    assert language_after({}) == "de"
    assert language_after({"language": None}) is None
    assert language_after({"displayName": "Kim"}) is None
    assert language_after({"language": "en"}) == "en"


@pytest.mark.parametrize(
    ("body", "msg"),
    [
        ({"language": "fr"}, "language: Input should be 'en' or 'de'"),
        ({"displayName": "   "}, "displayName: must not be empty"),
        ({"role": "superuser"}, "role: Extra inputs are not permitted"),
    ],
)
def test_profile_changes_are_validated(
    client: TestClient, seeded: DemoData, login: LoginFn, body: Any, msg: str
) -> None:
    login(client, CUSTOMER)
    response = client.patch("/v2/User/me", json=body)
    assert (response.status_code, response.json()) == (422, envelope_error(msg))


def test_dashboard_layout_round_trip(client: TestClient, seeded: DemoData, login: LoginFn) -> None:
    login(client, CUSTOMER)
    assert client.get("/v2/User/dashboard-layout").json()["data"] == []
    layout = [
        {"id": "a", "kind": "kpi", "kpi": "availability", "x": 0, "y": 0, "w": 2, "h": 1},
        {"id": "b", "kind": "chart", "options": {"series": ["utilization"]}},
    ]
    saved = client.put("/v2/User/dashboard-layout", json=layout)
    assert saved.json() == {"status": True, "msg": None, "data": layout}
    assert client.get("/v2/User/dashboard-layout").json()["data"] == layout


def _nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def test_a_widget_may_nest_its_fields_eight_levels(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    widget = {"id": "a", "kind": "kpi", "x": _nested(7)}  # the widget's fields: the eighth
    response = client.put("/v2/User/dashboard-layout", json=[widget])
    assert response.status_code == 200, response.text
    assert client.get("/v2/User/dashboard-layout").json()["data"] == [widget]


@pytest.mark.parametrize(
    ("body", "msg"),
    [
        ({"id": "a", "kind": "kpi"}, "Input should be a valid list"),
        ([{"id": "a"}], "0.kind: Field required"),
        ([{"id": 7, "kind": "kpi"}], "0.id: Input should be a valid string"),
        (
            [{"id": "a", "kind": "kpi"}, {"id": "a", "kind": "chart"}],
            "widgets: duplicate widget id 'a'",
        ),
        (
            [{"id": f"w{n}", "kind": "kpi"} for n in range(41)],
            "widgets: at most 40 widgets, got 41",
        ),
        # 300 levels answered with a 500 (the JSON encoder refuses more than 255).
        (
            [{"id": "a", "kind": "kpi", "x": _nested(300)}],
            "'a' nests its fields deeper than 8 levels",
        ),
        ([{"id": "a", "kind": "kpi", "x": _nested(8)}], "deeper than 8 levels"),
    ],
)
def test_dashboard_layout_is_validated(
    client: TestClient, seeded: DemoData, login: LoginFn, body: Any, msg: str
) -> None:
    login(client, CUSTOMER)
    response = client.put("/v2/User/dashboard-layout", json=body)
    assert response.status_code == 422
    assert response.json()["msg"].endswith(msg)
