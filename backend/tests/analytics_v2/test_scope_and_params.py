"""Tenant scoping of every processes/failures/battery resource, and bad parameters."""

import pytest
from fastapi.testclient import TestClient

from .conftest import PERIOD, World, get_data, ham_ids

RESOURCES = [
    "Processes",
    "Workflows",
    "Workflows/TRANSPORT_A/Orders",
    "Workflows/TRANSPORT_A/Histogram",
    "Actions",
    "Actions/pick/Failures",
    "Failures",
    "FailureMatrix",
    "FailureMap",
    "ErrorHistory",
    "ErrorHistory.csv",
    "Battery",
    "Battery/Sessions",
]
MUC_DAY = {"from": "2026-10-24", "to": "2026-10-24", "shift": "all"}


@pytest.mark.parametrize("resource", RESOURCES)
def test_foreign_vehicles_are_not_found(resource: str, world: World, customer2: TestClient) -> None:
    response = customer2.get(
        f"/v2/Analytics/{resource}", params={**PERIOD, "vehicles": ham_ids(world)}
    )
    assert response.status_code == 404
    assert response.json() == {
        "status": False,
        "msg": f"vehicle {world.ham_ids[0]} not found",
        "data": None,
    }


@pytest.mark.parametrize(
    "resource",
    ["Workflows/TRANSPORT_A/Orders", "Actions/pick/Failures", "ErrorHistory", "Battery/Sessions"],
)
def test_guessed_vehicle_filter_is_not_found(
    resource: str, world: World, customer2: TestClient
) -> None:
    for page in (1, 2):
        response = customer2.get(
            f"/v2/Analytics/{resource}",
            params={**MUC_DAY, "vehicle": world.ham_ids[1], "page": page},
        )
        assert response.status_code == 404, response.text
        assert str(world.ham_ids[1]) in response.json()["msg"]


def test_second_organization_sees_only_its_own_rows(world: World, customer2: TestClient) -> None:
    processes = get_data(customer2, "Processes", **MUC_DAY, combined="false")
    # Every vehicle of the second organization (the simulated ones among them), no other.
    muc = {entry["vehicleId"] for entry in processes["entries"]}
    assert set(world.muc_ids) <= muc and not muc & set(world.ham_ids)
    assert processes["fleet"]["current"]["outcomes"]["total"] == len(world.muc_truth.orders)
    history = get_data(customer2, "ErrorHistory", **MUC_DAY, pageSize=500)
    assert history["total"] == len(world.muc_truth.error_episodes)
    assert {row["vehicleId"] for row in history["items"]} <= muc
    orders = get_data(customer2, "Workflows/TRANSPORT_A/Orders", **MUC_DAY, pageSize=500)
    assert {row["vehicleId"] for row in orders["items"]} <= muc
    failed = get_data(customer2, "Actions/pick/Failures", **MUC_DAY, pageSize=500)
    assert {row["vehicleId"] for row in failed["items"]} <= muc
    matrix = get_data(customer2, "FailureMatrix", **MUC_DAY)
    assert {cell["vehicleId"] for cell in matrix["cells"]} <= muc
    battery = get_data(customer2, "Battery", **MUC_DAY)
    assert {series["vehicleId"] for series in battery["series"]} == muc
    sessions = get_data(customer2, "Battery/Sessions", **MUC_DAY, pageSize=500)
    assert {row["vehicleId"] for row in sessions["items"]} <= muc
    assert sessions["total"] == battery["fleet"]["current"]["sessions"]["count"]
    csv_text = customer2.get("/v2/Analytics/ErrorHistory.csv", params=MUC_DAY).text
    assert all(int(line.split(",")[0]) in muc for line in csv_text.splitlines()[1:])


@pytest.mark.parametrize(
    ("resource", "params", "status", "names"),
    [
        ("ErrorHistory", {"page": 0}, 422, "page"),
        ("ErrorHistory", {"pageSize": -5}, 422, "pageSize"),
        ("ErrorHistory", {"pageSize": 501}, 422, "pageSize"),
        ("ErrorHistory", {"level": "SEVERE"}, 422, "level"),
        ("ErrorHistory", {"level": ["FATAL", "SEVERE"]}, 422, "level"),
        ("ErrorHistory", {"level": ["FATAL"] * 5}, 422, "level"),
        ("ErrorHistory", {"sort": "password"}, 422, "sort"),
        ("ErrorHistory", {"vehicle": "x"}, 422, "vehicle"),
        ("ErrorHistory", {"sort": "-"}, 422, "sort"),
        ("ErrorHistory", {"page": 1_000_001}, 422, "page"),
        ("ErrorHistory", {"mapId": "hall-1", "cell": "1,2"}, 422, "grid"),
        ("ErrorHistory", {"cell": "1,2", "grid": "0,0,1,4,4"}, 422, "mapId"),
        ("ErrorHistory", {"mapId": "hall-1", "cell": "1,2", "grid": "0,0,0,4,4"}, 422, "grid"),
        ("ErrorHistory", {"mapId": "h", "cell": "1,2", "grid": "0,nan,1,4,4"}, 422, "grid"),
        ("ErrorHistory", {"mapId": "h", "cell": "1,2", "grid": "0,0,1,4.5,4"}, 422, "grid"),
        ("ErrorHistory", {"mapId": "h", "cell": "4,0", "grid": "0,0,1,4,4"}, 422, "cell"),
        ("ErrorHistory", {"mapId": "h", "cell": "-1,0", "grid": "0,0,1,4,4"}, 422, "cell"),
        ("ErrorHistory", {"mapId": "h", "cell": "1", "grid": "0,0,1,4,4"}, 422, "cell"),
        ("FailureMap", {"mapId": "h", "cell": "a,b", "grid": "0,0,1,4,4"}, 422, "cell"),
        ("FailureMatrix", {"errorType": "x" * 201}, 422, "errorType"),
        ("Workflows/O'Brien;--/Orders", {}, 404, "workflow"),
        ("Failures", {"level": "fatal!"}, 422, "level"),
        ("FailureMap", {"errorType": ""}, 422, "errorType"),
        ("Workflows", {"sort": "-nothing"}, 422, "sort"),
        ("Workflows/NO_SUCH_FLOW/Orders", {}, 404, "workflow"),
        ("Workflows/NO_SUCH_FLOW/Histogram", {}, 404, "workflow"),
        ("Workflows/TRANSPORT_A/Orders", {"outcome": "lost"}, 422, "outcome"),
        ("Workflows/TRANSPORT_A/Orders", {"cycleBucket": -1}, 422, "cycleBucket"),
        ("Workflows/TRANSPORT_A/Orders", {"cycleBucket": 10_000}, 422, "cycleBucket"),
        ("Workflows", {"weekday": 7}, 422, "weekday"),
        ("Workflows", {"cycleBucket": 48}, 422, "cycleBucket"),
        ("Workflows/TRANSPORT_A/Orders", {"hour": 24}, 422, "hour"),
        ("Workflows/TRANSPORT_A/Histogram", {"hour": "noon"}, 422, "hour"),
        ("Actions/teleport/Failures", {}, 404, "action type"),
        # VDA 5050's ids are free text: a "/" (sent as %2F) is part of the name, not a path.
        ("Workflows/NO%2FSUCH/Orders", {}, 404, "workflow 'NO/SUCH' not found"),
        ("Workflows/NO%2FSUCH/Histogram", {}, 404, "workflow 'NO/SUCH' not found"),
        ("Actions/tele%2Fport/Failures", {}, 404, "action type 'tele/port' not found"),
        ("Processes", {"from": "2016-01-01", "to": "2026-01-01"}, 422, "to"),
        ("Battery", {"from": "2026-10-26", "to": "2026-10-24"}, 422, "from"),
        ("Battery/Sessions", {"depth": 15}, 422, "depth"),
        ("Battery/Sessions", {"depth": 100}, 422, "depth"),
        ("Battery/Sessions", {"sort": "-charge"}, 422, "sort"),
        # A parameter given twice is refused, not read as its last value (only level repeats).
        ("Productivity", {"from": ["2026-10-26", "2026-10-25"]}, 422, "from: given 2 times"),
        ("Processes", {"shift": ["all", "early", "all"]}, 422, "shift: given 3 times"),
        ("ErrorHistory", {"pageSize": [10, 20]}, 422, "pageSize"),
        ("Workflows", {"sort": ["orders", "-orders"]}, 422, "sort"),
        ("Statusboard/stream", {"shift": ["all", "night"]}, 422, "shift: given 2 times"),
    ],
)
def test_bad_parameters_are_clear_4xx(
    resource: str,
    params: dict[str, object],
    status: int,
    names: str,
    world: World,
    customer: TestClient,
) -> None:
    response = customer.get(
        f"/v2/Analytics/{resource}", params={**PERIOD, "vehicles": ham_ids(world), **params}
    )
    assert response.status_code == status, response.text
    body = response.json()
    assert body["status"] is False and names in body["msg"]


def test_page_beyond_the_end_is_empty_with_the_total(world: World, customer: TestClient) -> None:
    data = get_data(
        customer, "ErrorHistory", **PERIOD, vehicles=ham_ids(world), page=10_000, pageSize=50
    )
    assert data["items"] == [] and data["total"] == len(world.truth.error_episodes)
    assert data["pages"] == (data["total"] + 49) // 50
