"""Who reaches the Administration API (issue 25): the superuser; every other role gets the
404 of a path that does not exist, a request without a session 401, and a change without
the session's CSRF token 403."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fleetscope.api.deps import CSRF_HEADER
from fleetscope.demo.seed import DemoData
from tests.admin.admin_kit import OTHER_ROLES, SUPERUSER, data, refused

pytestmark = pytest.mark.sqlite_only


def _operations(seeded: DemoData) -> list[tuple[str, str, dict[str, Any] | None]]:
    org = seeded.organization_ids["Nordlicht Logistik"]
    site = seeded.site_ids["Hamburg DC"]
    vehicle = seeded.vehicle_ids["HAM-01"]
    user = seeded.user_ids["customer@demo.fleetscope"]
    partner = seeded.user_ids["partner@demo.fleetscope"]
    return [
        ("GET", "/v2/Admin/Organizations", None),
        ("POST", "/v2/Admin/Organizations", {"name": "New"}),
        ("PATCH", f"/v2/Admin/Organizations/{org}", {"name": "Renamed"}),
        ("DELETE", f"/v2/Admin/Organizations/{org}", None),
        ("GET", f"/v2/Admin/Users/{partner}/PartnerOrganizations", None),
        ("PUT", f"/v2/Admin/Users/{partner}/PartnerOrganizations", {"organizationIds": [org]}),
        ("GET", "/v2/Admin/TimeZones", None),
        ("GET", "/v2/Admin/Sites", None),
        ("GET", f"/v2/Admin/Sites/{site}", None),
        ("POST", "/v2/Admin/Sites", {"organizationId": org, "name": "New", "timeZone": "UTC"}),
        ("PATCH", f"/v2/Admin/Sites/{site}", {"name": "Renamed"}),
        ("POST", f"/v2/Admin/Sites/{site}/WorkflowPreview", {"workflowRules": []}),
        ("GET", "/v2/Admin/Vehicles", None),
        ("PATCH", f"/v2/Admin/Vehicles/{vehicle}", {"name": "Renamed"}),
        ("GET", "/v2/Admin/Users", None),
        ("POST", "/v2/Admin/Users", {"email": "x@example.com", "role": "support"}),
        ("PATCH", f"/v2/Admin/Users/{user}", {"displayName": "Renamed"}),
        ("POST", f"/v2/Admin/Users/{user}/PasswordReset", None),
        ("GET", "/v2/Admin/Audit", None),
    ]


@pytest.mark.parametrize("email", OTHER_ROLES)
def test_every_other_role_gets_the_404_of_a_missing_path(
    client: TestClient, seeded: DemoData, login: Callable[..., Any], email: str
) -> None:
    login(client, email)
    for method, path, body in _operations(seeded):
        response = client.request(method, path, json=body)
        assert refused(response, 404) == f"not found: {path}", (method, path)
    # Without the CSRF token too: a change is not refused for its token first.
    del client.headers[CSRF_HEADER]
    for method, path, body in _operations(seeded):
        response = client.request(method, path, json=body)
        assert refused(response, 404) == f"not found: {path}", (method, path)
    # Exactly what a path that does not exist answers: nothing tells the admin API apart.
    missing = client.get("/v2/Admin/Nothing")
    assert refused(missing, 404) == "not found: /v2/Admin/Nothing"


def test_without_a_session_every_operation_is_401(client: TestClient, seeded: DemoData) -> None:
    for method, path, body in _operations(seeded):
        response = client.request(method, path, json=body)
        assert refused(response, 401) == "authentication failed", (method, path)


def test_changes_need_the_csrf_token(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    del client.headers[CSRF_HEADER]
    for method, path, body in _operations(seeded):
        response = client.request(method, path, json=body)
        if method == "GET":
            assert response.status_code == 200, (path, response.text)
        else:
            assert refused(response, 403) == "missing or invalid CSRF token", (method, path)
    # Nothing changed: the organization still has its name.
    client.headers[CSRF_HEADER] = "wrong"
    names = [org["name"] for org in data(client.get("/v2/Admin/Organizations"))]
    assert names == ["Alpenfracht AG", "Nordlicht Logistik"]


def test_a_query_parameter_given_twice_is_refused_not_read_as_its_last_value(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    twice = {
        "/v2/Admin/Users": "role=customer&role=partner",
        "/v2/Admin/DeadLetters": "page=1&page=2",
    }
    for path, query in twice.items():
        assert refused(client.get(f"{path}?{query}"), 401) == "authentication failed"
    login(client, "customer@demo.fleetscope")
    for path, query in twice.items():
        assert refused(client.get(f"{path}?{query}"), 404) == f"not found: {path}"
    login(client, SUPERUSER)
    name = {"/v2/Admin/Users": "role", "/v2/Admin/DeadLetters": "page"}
    for path, query in twice.items():
        assert (
            refused(client.get(f"{path}?{query}"), 422)
            == f"{name[path]}: given 2 times, expected once"
        )


def test_the_openapi_document_describes_the_administration_api(client: TestClient) -> None:
    document = client.get("/v2/openapi.json").json()
    paths = document["paths"]
    for path in (
        "/v2/Admin/Organizations/{organizationId}",
        "/v2/Admin/Sites/{siteId}/WorkflowPreview",
        "/v2/Admin/Vehicles/{vehicleId}",
        "/v2/Admin/Users/{userId}/PasswordReset",
        "/v2/Admin/Audit",
    ):
        assert path in paths
        for operation in paths[path].values():
            assert operation["tags"] == ["Administration"]
            assert "404" in operation["responses"] and "401" in operation["responses"]
