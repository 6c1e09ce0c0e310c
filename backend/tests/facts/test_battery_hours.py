"""The hourly battery rows: written with each batch, equal to the rows recomputed from all the
samples (also when a late sample changes an hour written before, with ties on the lowest and
highest charge, and when a new sample ends the step under 20 % of an earlier hour), filled
by the migration that adds the table, emptied by a rebuild."""

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pytest

from fleetscope.facts import battery_hours, schema
from fleetscope.facts.model import BatterySample
from fleetscope.facts.store import FactStore, StoreBatch

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
ZONES = {1: (1, "UTC"), 2: (1, "UTC")}
COLUMNS = ", ".join(("vehicle_id", "hour_utc", *battery_hours.MEASURE_COLUMNS))


def _rows(connection: duckdb.DuckDBPyConnection, table: str) -> list[tuple[Any, ...]]:
    return connection.execute(
        f"SELECT {COLUMNS} FROM {table} ORDER BY vehicle_id, hour_utc"  # noqa: S608 - constants only
    ).fetchall()


def _recomputed(connection: duckdb.DuckDBPyConnection) -> list[tuple[Any, ...]]:
    """The rows as a fill from all stored samples makes them, in a table of its own."""
    connection.execute(
        f"CREATE TEMP TABLE expected AS SELECT * FROM {battery_hours.TABLE} LIMIT 0"  # noqa: S608 - constants only
    )
    connection.execute(
        battery_hours.fill_sql(cap_us=battery_hours.DEFAULT_CAP_US, target="expected")
    )
    try:
        return _rows(connection, "expected")
    finally:
        connection.execute("DROP TABLE expected")


def _same(stored: list[tuple[Any, ...]], expected: list[tuple[Any, ...]]) -> bool:
    """Equal rows; sums of floats to the last digits (their order of addition differs)."""
    return len(stored) == len(expected) and all(
        a == pytest.approx(b, rel=1e-12) if isinstance(a, float) else a == b
        for row, other in zip(stored, expected, strict=True)
        for a, b in zip(row, other, strict=True)
    )


def _samples(seed: int) -> list[BatterySample]:
    rng = random.Random(seed)
    samples = []
    for vehicle in (1, 2):
        at = T0
        for _ in range(60):
            at += timedelta(seconds=rng.choice((30, 240, 900)), milliseconds=rng.randint(0, 999))
            health = None if rng.random() < 0.2 else round(rng.uniform(90.0, 95.0), 1)
            # Few distinct charges: ties on the lowest and the highest in most hours.
            samples.append(
                BatterySample(vehicle, at, rng.choice((40.0, 45.0, 50.0)), False, 48.0, health)
            )
    return samples


def test_batches_keep_the_rows_equal_to_a_recomputation(tmp_path: Path) -> None:
    samples = _samples(seed=3)
    rng = random.Random(4)
    late = rng.sample(samples, 15)  # arrive after the hours they lie in were written
    on_time = [sample for sample in samples if sample not in late]
    with FactStore(tmp_path / "facts.duckdb") as store:
        for start in range(0, len(on_time), 25):
            store.write_batch(StoreBatch(facts=list(on_time[start : start + 25]), zones=ZONES))
        store.write_batch(StoreBatch(facts=list(late), zones=ZONES))
        connection = store.cursor()
        stored = _rows(connection, battery_hours.TABLE)
        assert _same(stored, _recomputed(connection))
        assert sum(row[6] for row in stored) == sum(s.health is not None for s in samples)
        first = min(samples, key=lambda s: (s.vehicle_id, s.charge, s.at))
        assert stored[0][2:4] == (first.charge, int(first.at.timestamp() * 1e6))


def test_a_new_sample_ends_the_step_under_20_percent_of_the_hour_before(
    tmp_path: Path,
) -> None:
    low = BatterySample(1, T0 - timedelta(seconds=10), 15.0, False, 48.0, None)
    later = BatterySample(1, T0 + timedelta(seconds=20), 30.0, False, 48.0, None)
    with FactStore(tmp_path / "facts.duckdb") as store:
        store.write_batch(StoreBatch(facts=[low], zones=ZONES))
        connection = store.cursor()
        query = f"SELECT hour_utc, low_s FROM {battery_hours.TABLE} ORDER BY 1"  # noqa: S608 - constants only
        # No next sample yet: the step is open (the live status has it), none stored.
        assert connection.execute(query).fetchall() == [(T0 - timedelta(hours=1), 0.0)]
        store.write_batch(StoreBatch(facts=[later], zones=ZONES))
        assert connection.execute(query).fetchall() == [
            (T0 - timedelta(hours=1), 30.0),
            (T0, 0.0),
        ]


def test_the_migration_fills_the_rows_of_samples_stored_before() -> None:
    connection = duckdb.connect()
    connection.execute("SET TimeZone = 'UTC'")
    schema.migrate(connection, migrations=schema.MIGRATIONS[:3])
    for sample in _samples(seed=5):
        connection.execute(
            "INSERT INTO battery_samples VALUES (?, ?, ?, ?, ?, ?)",
            [sample.vehicle_id, sample.at, sample.charge, False, 48.0, sample.health],
        )
    schema.migrate(connection)
    stored = _rows(connection, battery_hours.TABLE)
    assert len(stored) > 10
    assert _same(stored, _recomputed(connection))


def test_a_rebuild_empties_the_rows(tmp_path: Path) -> None:
    with FactStore(tmp_path / "facts.duckdb") as store:
        store.write_batch(StoreBatch(facts=list(_samples(seed=6)), zones=ZONES))
        assert store.table_counts()[battery_hours.TABLE] > 0
        store.reset_derived()
        assert store.table_counts()[battery_hours.TABLE] == 0
