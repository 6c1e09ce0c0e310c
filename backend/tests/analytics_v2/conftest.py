"""The seeded fleet of the productivity tests (``tests/analytics/conftest.py``), reused.

Four Hamburg vehicles (VDA 5050 2.0, 2.1, 1.1 and 3.0) of the demo's first organization run
2026-10-24 .. 2026-10-26 (Europe/Berlin) through the real pipeline; two Munich vehicles of
the second organization one day. The simulator's truth is the reference.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from analytics.conftest import (  # noqa: F401 - fixtures re-exported for this folder
    START,
    World,
    app,
    customer,
    customer2,
    running,
    world,
)
from fastapi.testclient import TestClient

from fleetscope.facts.store import FactStore

PERIOD = {"from": "2026-10-24", "to": "2026-10-26", "shift": "all"}


@pytest.fixture
def fact_store(tmp_path: Path) -> Iterator[FactStore]:
    """An empty fact store of its own, for tests that write facts by hand."""
    store = FactStore(tmp_path / "facts.duckdb")
    yield store
    store.close()


@pytest.fixture
def cursor(fact_store: FactStore) -> Iterator[duckdb.DuckDBPyConnection]:
    """A reader of ``fact_store``."""
    cursor = fact_store.cursor()
    yield cursor
    cursor.close()


def ham_ids(fleet: World) -> str:
    return ",".join(str(i) for i in fleet.ham_ids)


def get_data(client: TestClient, resource: str, **params: Any) -> Any:
    response = client.get(f"/v2/Analytics/{resource}", params=params)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] is True
    return body["data"]


def quantile_cont(values: list[float], quantile: float) -> float:
    """Linear interpolation between the closest ranks (DuckDB's ``quantile_cont``)."""
    ordered = sorted(values)
    position = quantile * (len(ordered) - 1)
    lower = int(position)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (position - lower)


def close(actual: float | None, expected: float, *, seconds: float = 1.0) -> bool:
    """Within 1 s or 0.5 %, whichever is wider (the issue's tolerance for times)."""
    return actual is not None and abs(actual - expected) <= max(seconds, 0.005 * abs(expected))
