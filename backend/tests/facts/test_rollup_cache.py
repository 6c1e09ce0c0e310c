"""Rollup rows merged by the store's writer: totals survive reopening and failed writes."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from fleetscope.facts.model import BatterySample, StateInterval, TrackPoint, VehicleState
from fleetscope.facts.rawlog import FrameKind, RawFrame
from fleetscope.facts.store import FactStore, StoreBatch, StoredKey

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def _batch(store: FactStore, *, minute: int, charge: float, distance: float) -> StoreBatch:
    seq = store.allocate_seq(1)
    at = T0 + timedelta(minutes=minute)
    held = 60.0 if minute else 0.0
    return StoreBatch(
        zones={7: (1, "Europe/Berlin")},
        frames=[RawFrame(FrameKind.MESSAGE, seq, at, 7, "uagv/v2/Acme/S1/state", b"{}")],
        keys=[StoredKey(seq, (7, "state", seq, at))],
        facts=[
            StateInterval(7, VehicleState.WORKING, at, at + timedelta(minutes=1)),
            # The charge before held the minute since the previous sample (none before the
            # first: its hold would start in the hour before).
            BatterySample(7, at, charge, False, None, None, held, held * charge, 0.0),
            TrackPoint(7, at, 0.0, 0.0, "hall", distance),
        ],
        snapshots={7: ({"seq": seq}, seq)},
    )


def _totals(store: FactStore, table: str) -> list[tuple[object, ...]]:
    cursor = store.cursor()
    try:
        return cursor.execute(
            f"SELECT working_s, battery_samples, battery_charge_min, distance_m FROM {table}"  # noqa: S608
        ).fetchall()
    finally:
        cursor.close()


def test_totals_continue_across_batches_and_a_reopened_store(tmp_path: Path) -> None:
    path = tmp_path / "facts.duckdb"
    with FactStore(path) as store:
        store.write_batch(_batch(store, minute=0, charge=80.0, distance=10.0))
        store.write_batch(_batch(store, minute=1, charge=60.0, distance=5.0))
    with FactStore(path) as store:  # a cold cache reads the stored totals first
        store.write_batch(_batch(store, minute=2, charge=70.0, distance=2.5))
        assert _totals(store, "rollup_daily") == [(180.0, 120_000_000, 60.0, 17.5)]
        assert _totals(store, "rollup_hourly") == [(180.0, 120_000_000, 60.0, 17.5)]


def test_a_failed_write_does_not_count_in_later_totals(tmp_path: Path) -> None:
    with FactStore(tmp_path / "facts.duckdb") as store:
        store.write_batch(_batch(store, minute=0, charge=80.0, distance=10.0))
        failing = _batch(store, minute=1, charge=10.0, distance=100.0)
        # A vehicle id that does not fit INTEGER fails the batch after its rollups merged.
        failing.snapshots[2**40] = ({}, 99)
        with pytest.raises(duckdb.Error):
            store.write_batch(failing)
        store.write_batch(_batch(store, minute=2, charge=70.0, distance=2.5))
        assert _totals(store, "rollup_daily") == [(120.0, 60_000_000, 70.0, 12.5)]
