"""Envelope and error shapes, OpenAPI, events, start-up migrations and the frontend mount."""

from pathlib import Path

import duckdb
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select

from fleetscope.api.main import create_app
from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import PageView
from fleetscope.demo.seed import DemoData
from fleetscope.settings import Settings
from tests.core.support import CUSTOMER, PARTNER, LoginFn, envelope_error


def test_unknown_api_path_is_a_404_envelope(client: TestClient) -> None:
    response = client.get("/v2/Nothing/here")
    assert (response.status_code, response.json()) == (
        404,
        envelope_error("not found: /v2/Nothing/here"),
    )


def test_wrong_method_is_a_405_envelope(client: TestClient) -> None:
    response = client.delete("/v2/Vehicles")
    assert response.status_code == 405
    assert response.json() == envelope_error("method DELETE not allowed on /v2/Vehicles")


def test_malformed_json_is_a_422_envelope(client: TestClient) -> None:
    response = client.post(
        "/v2/User/login", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["status"] is False
    assert response.json()["data"] is None
    assert "JSON" in response.json()["msg"]


def test_missing_login_field_names_the_field(client: TestClient) -> None:
    response = client.post("/v2/User/login", json={"email": "a@b.c"})
    assert (response.status_code, response.json()) == (
        422,
        envelope_error("password: Field required"),
    )


def test_openapi_and_docs_are_served_under_v2(client: TestClient) -> None:
    spec = client.get("/v2/openapi.json").json()
    assert spec["info"]["title"] == "Fleetscope"
    assert {"/v2/User/login", "/v2/User/logout", "/v2/User/settings", "/v2/Vehicles"} <= set(
        spec["paths"]
    )
    settings_schema = spec["components"]["schemas"]["AppSettingsOut"]["properties"]
    assert set(settings_schema) == {"dateSelector", "selectedMachines", "onboardingWatched"}
    assert "swagger" in client.get("/v2/docs").text.lower()


def test_page_view_is_stored_with_role_and_path_only(
    client: TestClient, seeded: DemoData, login: LoginFn, session_factory: SessionFactory
) -> None:
    login(client, PARTNER)
    # The client sends its role as the spec says; a forged one does not change what is stored.
    body = {"event": "page_view", "path": "/failures/history?vehicle=HAM-01", "role": "superuser"}
    response = client.post("/v2/Events", json=body)
    assert response.json() == {"status": True, "msg": None, "data": None}
    with session_factory() as session:
        views = session.scalars(select(PageView)).all()
        columns = {
            column["name"] for column in inspect(session.get_bind()).get_columns("page_views")
        }
    assert [(view.role, view.path) for view in views] == [("partner", "/failures/history")]
    assert columns == {"id", "at", "role", "path"}  # nothing that identifies a person


def test_only_page_view_events_are_accepted(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    response = client.post("/v2/Events", json={"event": "click", "path": "/x"})
    assert response.status_code == 422
    assert response.json()["msg"] == "event: Input should be 'page_view'"


def test_start_up_migrations_are_idempotent(settings: Settings) -> None:
    for _ in range(2):
        with TestClient(create_app(settings)) as client:
            assert client.get("/v2/User/me").status_code == 401


def test_missing_frontend_build_gives_a_clear_message(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 503
    assert response.headers["content-type"].startswith("text/plain")
    assert "web app is not built" in response.text
    assert "npm run build" in response.text


def test_built_frontend_is_served_after_the_api(settings: Settings, tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>Fleetscope</title>")
    (dist / "assets" / "app.js").write_text("console.log('ok')")
    with TestClient(create_app(settings.model_copy(update={"frontend_dist": dist}))) as client:
        assert "<title>Fleetscope</title>" in client.get("/").text
        assert client.get("/assets/app.js").text == "console.log('ok')"
        assert client.get("/v2/User/me").json() == envelope_error("authentication failed")
        missing = client.get("/v2/Unknown")
        assert (missing.status_code, missing.json()["status"]) == (404, False)


def test_a_question_beyond_the_fact_stores_memory_is_a_503_naming_it(app: FastAPI) -> None:
    """DuckDB's memory limit bounds the process: an answer that would need more is refused
    with the reason (in the asked language), not a 500, and the server goes on answering."""

    @app.get("/v2/Analytics/TooLarge")
    def too_large() -> None:
        raise duckdb.OutOfMemoryException("failed to allocate data of size 8.0 MiB")

    with TestClient(app) as client:
        response = client.get("/v2/Analytics/TooLarge")
        assert response.status_code == 503
        assert response.json() == envelope_error(
            "this question needs more memory than the server may use; choose a shorter "
            "period or fewer vehicles"
        )
        german = client.get("/v2/Analytics/TooLarge", headers={"Accept-Language": "de"})
        assert "mehr Speicher" in german.json()["msg"]
        assert client.get("/v2/Nothing/here").status_code == 404
        # The analytics resources document it.
        documented = client.get("/v2/openapi.json").json()["paths"]["/v2/Analytics/Actions"]
        assert "more memory" in documented["get"]["responses"]["503"]["description"]
