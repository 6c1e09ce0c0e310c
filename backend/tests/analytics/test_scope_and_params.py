"""Tenant scoping and parameter validation of every ``/v2/Analytics/`` resource."""

import pytest
from fastapi.testclient import TestClient

from .conftest import World

RESOURCES = ("Productivity", "ProductivityHistory", "Dashboard", "Statusboard")
PERIOD = {"from": "2026-10-24", "to": "2026-10-26"}


@pytest.mark.parametrize("resource", RESOURCES)
def test_customer2_sees_nothing_of_the_first_organization(
    world: World, customer2: TestClient, resource: str
) -> None:
    response = customer2.get(f"/v2/Analytics/{resource}", params=PERIOD)
    assert response.status_code == 200, response.text
    body = response.text
    data = response.json()["data"]
    muc_vehicles = [v for serial, v in world.demo.vehicle_ids.items() if serial.startswith("MUC")]
    if resource == "Statusboard":
        assert sorted(tile["vehicleId"] for tile in data["vehicles"]) == sorted(muc_vehicles)
    else:
        assert sorted(data["period"]["vehicleIds"]) == sorted(muc_vehicles)
    for ham_id in world.ham_ids:
        assert f'"vehicleId":{ham_id},' not in body
    assert '"name":"AGV ' not in body  # the first organization's vehicle names


@pytest.mark.parametrize("resource", [*RESOURCES, "Statusboard/stream"])
def test_guessed_foreign_ids_are_not_found(
    world: World, customer2: TestClient, resource: str
) -> None:
    for foreign in (world.ham_ids[0], 99_999):
        response = customer2.get(
            f"/v2/Analytics/{resource}",
            params={**PERIOD, "vehicles": f"{world.muc_ids[0]},{foreign}"},
        )
        assert response.status_code == 404, response.text
        assert response.json() == {
            "status": False,
            "msg": f"vehicle {foreign} not found",
            "data": None,
        }


def test_foreign_organization_data_differs_from_own(world: World, customer2: TestClient) -> None:
    data = customer2.get(
        "/v2/Analytics/Productivity", params={**PERIOD, "combined": "true"}
    ).json()["data"]
    muc_orders = sum(1 for o in world.muc_truth.orders if o.outcome == "finished")
    assert data["fleet"]["kpis"]["ordersFinished"] == muc_orders


@pytest.mark.parametrize("resource", [*RESOURCES, "Statusboard/stream"])
def test_not_logged_in_is_401(running: TestClient, resource: str) -> None:
    response = TestClient(running.app).get(f"/v2/Analytics/{resource}", params=PERIOD)
    assert response.status_code == 401
    assert response.json()["msg"] == "authentication failed"


@pytest.mark.parametrize(
    ("params", "status", "names"),
    [
        ({"from": "2026-10-26", "to": "2026-10-24"}, 422, "from"),
        ({"from": "2026-13-01", "to": "2026-10-24"}, 422, "from"),
        ({"from": "yesterday"}, 422, "from"),
        ({"to": "2026-02-30"}, 422, "to"),
        ({"from": "2025-01-01", "to": "2026-10-24"}, 422, "to"),
        ({**PERIOD, "vehicles": "1,abc"}, 422, "vehicles"),
        ({**PERIOD, "vehicles": "1;DROP TABLE orders"}, 422, "vehicles"),
        ({**PERIOD, "vehicles": "-1"}, 422, "vehicles"),
        ({**PERIOD, "vehicles": "99999999999999999999"}, 422, "vehicles"),
        ({**PERIOD, "shift": "breakfast"}, 422, "shift"),
        ({**PERIOD, "shift": "x" * 65}, 422, "shift"),
        ({**PERIOD, "combined": "maybe"}, 422, "combined"),
    ],
)
@pytest.mark.parametrize("resource", RESOURCES)
def test_bad_parameters_are_4xx_naming_the_parameter(
    customer: TestClient, resource: str, params: dict[str, str], status: int, names: str
) -> None:
    response = customer.get(f"/v2/Analytics/{resource}", params=params)
    assert response.status_code == status, response.text
    message = response.json()["msg"]
    assert message.startswith(names), message


def test_a_400_day_period_is_allowed(customer: TestClient) -> None:
    response = customer.get(
        "/v2/Analytics/Dashboard", params={"from": "2025-09-23", "to": "2026-10-27"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["data"]["period"]["days"] == 400
    assert response.json()["data"]["granularity"] == "month"


def test_defaults_come_from_the_saved_settings(world: World, customer: TestClient) -> None:
    saved = {
        "dateSelector": {
            "mode": "custom",
            "from": "2026-10-25",
            "to": "2026-10-26",
            "combined": True,
            "workflowShift": "early",
        },
        "selectedMachines": world.ham_ids[:2],
    }
    response = customer.patch("/v2/User/settings", json=saved)
    assert response.status_code == 200, response.text
    try:
        period = customer.get("/v2/Analytics/Productivity").json()["data"]["period"]
        assert period["from"] == "2026-10-25" and period["to"] == "2026-10-26"
        assert period["shift"] == "early" and period["combined"] is True
        assert period["vehicleIds"] == world.ham_ids[:2]
        explicit = customer.get(
            "/v2/Analytics/Productivity", params={"shift": "all", "combined": "false"}
        ).json()["data"]
        assert explicit["period"]["shift"] == "all"
        assert len(explicit["entries"]) == 2
    finally:
        customer.patch(
            "/v2/User/settings",
            json={
                "selectedMachines": [],
                "dateSelector": {"workflowShift": "all", "combined": False},
            },
        )


def test_openapi_lists_the_resources_and_their_shapes(running: TestClient) -> None:
    document = running.get("/v2/openapi.json").json()
    paths = document["paths"]
    for resource in (*RESOURCES, "Statusboard/stream"):
        operation = paths[f"/v2/Analytics/{resource}"]["get"]
        names = {p["name"] for p in operation["parameters"]}
        assert {"from", "to", "vehicles", "combined", "shift"} <= names
    schemas = document["components"]["schemas"]
    assert {"ProductivityOut", "Kpis", "DashboardOut", "StatusboardOut"} <= set(schemas)
    assert "availability" in schemas["Kpis"]["properties"]
    assert "throughputPerHour" in schemas["Kpis"]["properties"]
