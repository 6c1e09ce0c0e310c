"""The command line's ``organizations``, ``sites`` and ``users`` groups change the store
through the Administration services and write audit entries as ``cli`` with the OS user."""

import getpass
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import select
from typer.testing import CliRunner, Result

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import AuditEntry, RederiveJob, Site, User, Vehicle
from fleetscope.cli.main import app as cli
from fleetscope.settings import Settings, get_settings

pytestmark = pytest.mark.sqlite_only


@pytest.fixture
def run_cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Result]]:
    monkeypatch.setenv("FLEETSCOPE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("FLEETSCOPE_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    yield lambda *args: CliRunner().invoke(cli, list(args))
    get_settings.cache_clear()


def _ok(result: Result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


def _entries(session_factory: SessionFactory) -> list[AuditEntry]:
    with session_factory() as session:
        return list(session.scalars(select(AuditEntry).order_by(AuditEntry.id)))


def test_cli_changes_write_audit_entries(
    session_factory: SessionFactory, run_cli: Callable[..., Result]
) -> None:
    _ok(run_cli("organizations", "add", "Acme"))
    _ok(run_cli("organizations", "rename", "Acme", "Acme Logistics"))
    _ok(run_cli("sites", "add", "Plant", "--organization", "Acme Logistics"))
    _ok(run_cli("sites", "set-time-zone", "Plant", "Europe/Vienna"))
    _ok(run_cli("sites", "rename", "Plant", "Plant 1"))
    _ok(run_cli("sites", "set-interface", "Plant 1", "acme"))
    _ok(run_cli("sites", "set-workflow-rules", "Plant 1", "^(?P<workflow>[A-Z]+)-"))
    _ok(run_cli("sites", "set-load-actions", "Plant 1", "stack"))
    add = ("users", "add", "ops@acme.example", "--role", "customer")
    _ok(run_cli(*add, "--organization", "Acme Logistics", "--password", "secret-pass-1"))
    _ok(run_cli("users", "set-password", "ops@acme.example", "--password", "secret-pass-2"))
    _ok(run_cli("users", "deactivate", "ops@acme.example"))
    _ok(run_cli("users", "activate", "ops@acme.example"))
    _ok(run_cli("users", "set-role", "ops@acme.example", "support"))
    _ok(run_cli("organizations", "add", "Empty"))
    _ok(run_cli("sites", "add", "Spare", "--organization", "Empty"))
    _ok(
        run_cli(
            "users",
            "add",
            "spare@empty.example",
            "--role",
            "customer",
            "--organization",
            "Empty",
            "--password",
            "secret-pass-3",
        )
    )
    assert _ok(run_cli("sites", "delete", "Spare")).strip() == "deleted site 'Spare'"
    assert _ok(run_cli("users", "delete", "spare@empty.example")).strip() == (
        "deleted user spare@empty.example"
    )
    _ok(run_cli("organizations", "delete", "Empty"))

    entries = _entries(session_factory)
    assert [entry.action for entry in entries] == [
        "organization.create",
        "organization.update",
        "site.create",
        "site.update",
        "site.update",
        "site.update",
        "site.update",
        "site.update",
        "user.create",
        "user.passwordReset",
        "user.deactivate",
        "user.activate",
        "user.update",
        "organization.create",
        "site.create",
        "user.create",
        "site.delete",
        "user.delete",
        "organization.delete",
    ]
    assert {(entry.via, entry.actor, entry.actor_user_id) for entry in entries} == {
        ("cli", getpass.getuser(), None)
    }
    site_id = int(entries[2].entity_id or 0)
    assert [entry.after for entry in entries if entry.action == "site.update"][1:3] == [
        {"id": site_id, "name": "Plant 1"},
        {"id": site_id, "mqttInterface": "acme"},
    ]
    for entry in entries:
        text = f"{entry.before}{entry.after}"
        assert "secret-pass" not in text and "hash" not in text.lower()
    with session_factory() as session:
        site = session.scalars(select(Site)).one()
        assert (site.name, site.time_zone, site.mqtt_interface) == (
            "Plant 1",
            "Europe/Vienna",
            "acme",
        )
        assert site.workflow_rules == ["^(?P<workflow>[A-Z]+)-"]
        user = session.scalars(select(User)).one()
        assert (user.role, user.organization_id, user.is_active) == ("support", None, True)
        # No vehicle yet: nothing to derive again.
        assert session.scalars(select(RederiveJob)).all() == []


def test_cli_refusals_name_the_problem_and_write_nothing(
    session_factory: SessionFactory, run_cli: Callable[..., Result]
) -> None:
    _ok(run_cli("organizations", "add", "Acme"))
    _ok(run_cli("sites", "add", "Plant", "--organization", "Acme"))
    with session_factory() as session:
        site = session.scalars(select(Site)).one()
        session.add(Vehicle(site_id=site.id, manufacturer="M", serial_number="S", name="V"))
        session.commit()
    count = len(_entries(session_factory))
    bad = run_cli("sites", "set-workflow-rules", "Plant", "^PICK")
    assert bad.exit_code == 1
    assert "workflowRules[0]: has no named group (?P<workflow>...)" in bad.stderr
    busy = run_cli("organizations", "delete", "Acme")
    assert busy.exit_code == 1
    assert "organization 'Acme' still has sites (1) and users (0)" in busy.stderr
    occupied = run_cli("sites", "delete", "Plant")
    assert occupied.exit_code == 1
    assert "site 'Plant' still has vehicles (1); move them to another site first" in (
        occupied.stderr
    )
    assert len(_entries(session_factory)) == count
    # With a vehicle, new rules queue its re-derivation for a running server.
    done = _ok(run_cli("sites", "set-workflow-rules", "Plant", "^(?P<workflow>[A-Z]+)-"))
    assert "re-derivation job 1 queued for 1 vehicles" in done
    with session_factory() as session:
        job = session.scalars(select(RederiveJob)).one()
        assert (job.reason, job.created_by) == ("workflowRules", getpass.getuser())
        # The test's server runs a job runner too: it may have taken the job up already.
        assert job.state in {"queued", "running", "done"}


def test_cli_refuses_names_that_differ_in_case_only(
    session_factory: SessionFactory, run_cli: Callable[..., Result]
) -> None:
    _ok(run_cli("organizations", "add", "Acme"))
    _ok(run_cli("organizations", "add", "Other"))
    _ok(run_cli("sites", "add", "Plant", "--organization", "Acme"))
    _ok(run_cli("sites", "add", "Yard", "--organization", "Acme"))
    count = len(_entries(session_factory))
    for args, message in (
        (("organizations", "add", "ACME "), "organization 'Acme' already exists"),
        (("organizations", "rename", "Other", "acme"), "organization 'Acme' already exists"),
        (
            ("sites", "add", "plant", "--organization", "Acme"),
            "site 'Plant' already exists in organization 'Acme'",
        ),
        (
            ("sites", "rename", "Yard", "PLANT"),
            "site 'Plant' already exists in organization 'Acme'",
        ),
    ):
        result = run_cli(*args)
        assert result.exit_code == 1, result.output
        assert message in result.stderr
    assert len(_entries(session_factory)) == count
