"""``fleetscope sites set-load-actions``: a site's own load-handling action types (product.md
section 3, "loads handled"), kept in the app store on SQLite and PostgreSQL."""

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import select
from typer.testing import CliRunner, Result

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import Site
from fleetscope.appstore.organizations import create_organization, create_site
from fleetscope.cli.main import app as cli
from fleetscope.settings import Settings, get_settings


@pytest.fixture
def run_cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Result]]:
    monkeypatch.setenv("FLEETSCOPE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("FLEETSCOPE_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    yield lambda *args: CliRunner().invoke(cli, list(args))
    get_settings.cache_clear()


def _types(session_factory: SessionFactory) -> list[str]:
    with session_factory() as session:
        return list(session.scalars(select(Site.load_action_types)).one())


def test_a_sites_own_load_handling_types(
    session_factory: SessionFactory, run_cli: Callable[..., Result]
) -> None:
    with session_factory() as session:
        create_site(session, organization=create_organization(session, name="Acme"), name="Plant")
    assert _types(session_factory) == []
    done = run_cli("sites", "set-load-actions", "Plant", " stack", "Stack", "shelve", "")
    assert done.exit_code == 0, done.output
    assert "its own types: stack, shelve" in done.stdout
    assert _types(session_factory) == ["stack", "shelve"]  # stripped, repeats dropped
    for args in (("Plant",), ("Plant", "stack", "--clear")):
        refused = run_cli("sites", "set-load-actions", *args)
        assert refused.exit_code == 1
        assert "error: give either action types or --clear" in refused.stderr
    too_long = run_cli("sites", "set-load-actions", "Plant", "x" * 101)
    assert (too_long.exit_code, "is longer than 100" in too_long.stderr) == (1, True)
    assert _types(session_factory) == ["stack", "shelve"]
    assert run_cli("sites", "set-load-actions", "Plant", "--clear").exit_code == 0
    assert _types(session_factory) == []
