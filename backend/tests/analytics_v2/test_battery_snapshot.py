"""The battery answer reads its period's samples on a second cursor, which has a snapshot of
its own (``snapshot.read_beside``). Samples committed between that snapshot and the
answer's must not show in the charge line while the figures from the answer's snapshot
miss them."""

from datetime import UTC, datetime, time, timedelta

import duckdb
import pytest

import fleetscope.analytics.snapshot as snapshot_module
from fleetscope.analytics.battery import battery
from fleetscope.analytics.snapshot import read_snapshot
from fleetscope.facts.store import reader_beside

from .test_fact_rows import DAY, NOW, _scope

START = datetime.combine(DAY, time(8), UTC)
OFFLINE_AFTER = timedelta(seconds=65)


def _insert(cursor: duckdb.DuckDBPyConnection, samples: list[tuple[int, float]]) -> None:
    cursor.executemany(
        "INSERT INTO battery_samples (vehicle_id, sampled_at, charge, charging, voltage, health) "
        "VALUES (1, ?, ?, false, 48.0, 90.0)",
        [(START + timedelta(seconds=s), charge) for s, charge in samples],
    )


def test_samples_committed_between_the_two_snapshots_are_not_half_seen(
    cursor: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    _insert(cursor, [(0, 60.0), (60, 55.0), (120, 50.0), (3600, 45.0)])
    scope = _scope(None, days=1)
    expected = battery(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, capacities={})

    def beside_after_a_commit(answer: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
        writer = answer.cursor()
        _insert(writer, [(90, 5.0)])  # a new lowest charge, committed by another connection
        writer.close()
        return reader_beside(answer)

    monkeypatch.setattr(snapshot_module, "reader_beside", beside_after_a_commit)
    with read_snapshot(cursor):
        cursor.execute("SELECT count(*) FROM battery_samples").fetchone()  # the snapshot starts
        answer = battery(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, capacities={})

    # The answer's snapshot holds four samples: the line and the figures both show those.
    assert answer == expected
    assert min(charge for _, charge in answer.series[0]["points"]) == 45.0
    assert answer.entries[0]["current"]["below_low_seconds"] == 0
    # A new answer sees the fifth sample everywhere.
    monkeypatch.undo()
    fresh = battery(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, capacities={})
    assert min(charge for _, charge in fresh.series[0]["points"]) == 5.0
    assert fresh.entries[0]["current"]["below_low_seconds"] == 30
