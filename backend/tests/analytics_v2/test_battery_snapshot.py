"""The battery answer reads one snapshot: samples committed while it runs show neither in
the charge line nor in the figures, and the next answer shows them in both."""

from datetime import UTC, datetime, time, timedelta

import duckdb

from fleetscope.analytics.battery.battery import battery
from fleetscope.analytics.core.sql import read_snapshot

from .test_fact_rows import DAY, NOW, _scope

START = datetime.combine(DAY, time(8), UTC)
OFFLINE_AFTER = timedelta(seconds=65)


def _insert(cursor: duckdb.DuckDBPyConnection, samples: list[tuple[int, float]]) -> None:
    cursor.executemany(
        "INSERT INTO battery_samples (vehicle_id, sampled_at, charge, charging, voltage, health) "
        "VALUES (1, ?, ?, false, 48.0, 90.0)",
        [(START + timedelta(seconds=s), charge) for s, charge in samples],
    )


def test_samples_committed_during_an_answer_are_not_half_seen(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    _insert(cursor, [(0, 60.0), (60, 55.0), (120, 50.0), (3600, 45.0)])
    scope = _scope(None, days=1)
    expected = battery(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, capacities={})
    with read_snapshot(cursor):
        cursor.execute("SELECT count(*) FROM battery_samples").fetchone()  # the snapshot starts
        writer = cursor.cursor()
        _insert(writer, [(90, 5.0)])  # a new lowest charge, committed by another connection
        writer.close()
        answer = battery(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, capacities={})

    # The answer's snapshot holds four samples: the line and the figures both show those.
    assert answer == expected
    assert min(charge for _, charge in answer.series[0]["points"]) == 45.0
    assert answer.entries[0]["current"]["below_low_seconds"] == 0
    # A new answer sees the fifth sample everywhere.
    fresh = battery(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, capacities={})
    assert min(charge for _, charge in fresh.series[0]["points"]) == 5.0
    assert fresh.entries[0]["current"]["below_low_seconds"] == 30
