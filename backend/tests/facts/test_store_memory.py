"""DuckDB's own bounds for the fact store: the settings reach the engine the server reads with."""

from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import create_engine

from fleetscope.appstore.db import make_session_factory
from fleetscope.appstore.models import Base
from fleetscope.ingest.service import start_ingestion
from fleetscope.settings import Settings


def _engine_settings(settings: Settings) -> tuple[str, int]:
    """``memory_limit`` and ``threads`` as a reader of the running server's store sees them."""
    engine = create_engine(settings.resolved_database_url())
    Base.metadata.create_all(engine)
    handle = start_ingestion(settings, session_factory=make_session_factory(engine))
    try:
        cursor = handle.store.cursor()  # what every analytics answer reads with
        try:
            row = cursor.execute(
                "SELECT current_setting('memory_limit'), current_setting('threads')"
            ).fetchone()
        finally:
            cursor.close()
    finally:
        handle.stop()
        engine.dispose()
    assert row is not None
    return str(row[0]), int(row[1])


def test_the_environment_sets_duckdbs_memory_limit_and_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FLEETSCOPE_FACT_STORE_MEMORY_LIMIT", "300MiB")
    monkeypatch.setenv("FLEETSCOPE_FACT_STORE_THREADS", "1")
    settings = Settings(_env_file=None, environment="test", data_dir=tmp_path)
    assert _engine_settings(settings) == ("300.0 MiB", 1)


def test_by_default_the_store_takes_512_mib_and_a_thread_per_core(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, environment="test", data_dir=tmp_path)
    limit, threads = _engine_settings(settings)
    assert limit == "512.0 MiB"
    assert threads >= 1  # DuckDB's default: the machine's cores


@pytest.mark.parametrize("value", ["lots", "512", "-1GB", "1 GBX"])
def test_a_memory_limit_that_is_no_size_is_refused_by_name(value: str) -> None:
    with pytest.raises(ValidationError, match="fact_store_memory_limit"):
        Settings(_env_file=None, fact_store_memory_limit=value)
