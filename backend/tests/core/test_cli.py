"""The operator's commands: organizations, sites and users without the demo."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from fleetscope.appstore.db import store_session
from fleetscope.appstore.users import authenticate
from fleetscope.cli import tenants, users
from fleetscope.cli.main import app as main_app
from fleetscope.settings import Settings, get_settings

runner = CliRunner()


@pytest.fixture
def cli_env(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The commands read their settings from the environment, as in production."""
    monkeypatch.setenv("FLEETSCOPE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("FLEETSCOPE_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def _ok(app: typer.Typer, *args: str, stdin: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


def _fails(app: typer.Typer, *args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 1, result.output
    return result.stderr


@pytest.mark.usefixtures("cli_env")
def test_operator_sets_up_an_installation() -> None:
    assert "created organization 'Acme'" in _ok(tenants.organizations_app, "add", "Acme")
    assert "Europe/Lisbon" in _ok(
        tenants.sites_app, "add", "--organization", "Acme", "Porto", "--time-zone", "Europe/Lisbon"
    )
    _ok(
        users.app,
        "add",
        "ops@acme.io",
        "--role",
        "customer",
        "--organization",
        "Acme",
        "--password",
        "s3cret-pass",
        "--language",
        "de",
    )
    _ok(users.app, "add", "int@partner.io", "--role", "partner", stdin="s3cret-pass\ns3cret-pass\n")
    _ok(users.app, "link-partner", "int@partner.io", "Acme")
    _ok(users.app, "set-role", "ops@acme.io", "service")

    listing = _ok(users.app, "list")
    assert "ops@acme.io" in listing and "service" in listing
    assert "(linked) Acme" in listing
    assert "Acme  (1 sites)" in _ok(tenants.organizations_app, "list")
    sites = _ok(tenants.sites_app, "list")
    assert "Acme / Porto  Europe/Lisbon" in sites
    assert "night 22:00-06:00" in sites


@pytest.mark.usefixtures("cli_env")
def test_bad_input_ends_with_a_clear_message_and_exit_code_1() -> None:
    _ok(tenants.organizations_app, "add", "Acme")
    _ok(users.app, "add", "a@acme.io", "--role", "support", "--password", "s3cret-pass")

    assert "organization 'Acme' already exists" in _fails(tenants.organizations_app, "add", "Acme")
    assert "organization 'Nope' not found" in _fails(
        users.app,
        "add",
        "b@acme.io",
        "--role",
        "customer",
        "--organization",
        "Nope",
        "--password",
        "s3cret-pass",
    )
    assert "unknown role 'boss'" in _fails(
        users.app, "add", "b@acme.io", "--role", "boss", "--password", "s3cret-pass"
    )
    assert "already exists" in _fails(
        users.app, "add", "A@acme.io", "--role", "support", "--password", "s3cret-pass"
    )
    assert "at least 8 characters" in _fails(
        users.app, "add", "c@acme.io", "--role", "support", "--password", "short"
    )
    assert "needs an organization" in _fails(users.app, "set-role", "a@acme.io", "customer")
    assert "not a partner" in _fails(users.app, "link-partner", "a@acme.io", "Acme")
    assert "user 'x@acme.io' not found" in _fails(users.app, "set-role", "x@acme.io", "service")
    assert "unknown time zone" in _fails(
        tenants.sites_app, "add", "--organization", "Acme", "Moon", "--time-zone", "Moon/Base"
    )


@pytest.mark.usefixtures("cli_env")
def test_deactivated_user_loses_login_until_activated() -> None:
    _ok(users.app, "add", "a@acme.io", "--role", "support", "--password", "s3cret-pass")
    _ok(users.app, "deactivate", "a@acme.io")
    assert "(inactive)" in _ok(users.app, "list")
    with store_session(get_settings()) as session:
        assert authenticate(session, email="a@acme.io", password="s3cret-pass") is None
    _ok(users.app, "activate", "a@acme.io")
    with store_session(get_settings()) as session:
        assert authenticate(session, email="a@acme.io", password="s3cret-pass") is not None


def test_command_groups_are_registered() -> None:
    listing = _ok(main_app, "--help")
    for command in ("serve", "users", "organizations", "sites"):
        assert command in listing
    assert "--port" in _ok(main_app, "serve", "--help")


@pytest.mark.usefixtures("cli_env")
def test_openapi_prints_the_served_document_and_touches_no_store(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    before = sorted(settings.data_dir.rglob("*"))
    printed = json.loads(_ok(main_app, "openapi"))
    assert printed == client.get("/v2/openapi.json").json()
    written = tmp_path / "openapi.json"
    _ok(main_app, "openapi", "--output", str(written))
    assert json.loads(written.read_text(encoding="utf-8")) == printed
    assert sorted(settings.data_dir.rglob("*")) == before
