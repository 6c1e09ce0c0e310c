"""The hourly rollups in memory (``rollup_grid``) against the rollups read by SQL: the
measures of Battery and of the failure analysis, per vehicle and together, whole days and
night shifts in two zones, now inside the period; the grids follow the facts written after
they were built, and a snapshot older than a grid reads SQL."""

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from fleetscope.analytics.collect import CollectRequest, Tagged, collect
from fleetscope.analytics.measure_table import COLUMNS, MeasureTable
from fleetscope.analytics.periods import DaySpan, Shift, Window, period_windows
from fleetscope.analytics.rollup_grid import GRID_MEASURES, RollupHours
from fleetscope.analytics.snapshot import read_snapshot
from fleetscope.facts.model import (
    BatterySample,
    ErrorEpisode,
    Fact,
    LiveStatus,
    OrderOutcome,
    OrderRun,
    StateInterval,
    VehicleState,
)
from fleetscope.facts.store import FactStore, StoreBatch

T0 = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)
OFFLINE_AFTER = timedelta(seconds=65)
STATES = (VehicleState.WORKING, VehicleState.IDLE, VehicleState.CHARGING, VehicleState.ERROR)
ZONES = {1: ZoneInfo("Europe/Berlin"), 2: ZoneInfo("Asia/Kolkata"), 3: ZoneInfo("Europe/Berlin")}
NIGHT = Shift("night", time(22), time(6), frozenset(range(7)))
SPAN = DaySpan(date(2026, 6, 2), date(2026, 6, 4))
STATE_TIMES = frozenset(f"{state.value}_s" for state in VehicleState)
CHARGE = STATE_TIMES | {"battery_samples", "battery_charge_sum", "battery_charge_min"}
FAILURES = STATE_TIMES | {"stop_errors", "stop_error_s", "orders_finished", "orders_failed"}


def _facts(vehicle_id: int, *, first: datetime, hours: int) -> list[Fact]:
    """11-minute states, a battery sample every 4 minutes (charge 18-97 %), an order
    every 25 minutes (every third failed) and a stopping error every 70."""
    facts: list[Fact] = []
    at, end = first, first + timedelta(hours=hours)
    index = 0
    while at < end:
        facts.append(StateInterval(vehicle_id, STATES[index % 4], at, at + timedelta(minutes=11)))
        at += timedelta(minutes=11)
        index += 1
    for minute in range(0, 60 * hours, 4):
        charge = 18.0 + (minute * 7 + vehicle_id * 13) % 80
        # Each sample closes 4 minutes held at 1 point more (the rollups sum the hold).
        at = first + timedelta(minutes=minute)
        facts.append(
            BatterySample(
                vehicle_id, at, charge, False, None, None, 240.0, 240.0 * (charge + 1), 1.0
            )
        )
    for index, minute in enumerate(range(5, 60 * hours, 25)):
        start = first + timedelta(minutes=minute)
        outcome = OrderOutcome.FAILED if index % 3 == 0 else OrderOutcome.FINISHED
        stop = start + timedelta(minutes=9)
        facts.append(
            OrderRun(vehicle_id, f"T-{index}", "T", start, stop, outcome, 4.0, 3, 3, 0, 0, 0)
        )
    for minute in range(30, 60 * hours, 70):
        start = first + timedelta(minutes=minute)
        stop = start + timedelta(seconds=100 + minute % 50)
        facts.append(
            ErrorEpisode(vehicle_id, "e", "FATAL", "", "{}", start, stop, None, None, "m", "")
        )
    return facts


def _write(store: FactStore, *, first: datetime, hours: int) -> None:
    last = first + timedelta(hours=hours)
    live = {
        v: LiveStatus(v, VehicleState.IDLE, last, last, "", "", 50.0, False, (), None, None, "")
        for v in ZONES
    }
    facts = [fact for v in ZONES for fact in _facts(v, first=first, hours=hours)]
    zones = {v: (v, str(zone)) for v, zone in ZONES.items()}
    store.write_batch(StoreBatch(facts=facts, zones=zones, live=live))


@pytest.fixture
def store() -> Iterator[FactStore]:
    with FactStore(":memory:") as fact_store:
        _write(fact_store, first=T0, hours=60)
        yield fact_store


def _table(
    store: FactStore,
    *,
    zone: ZoneInfo,
    shift: Shift | None,
    now: datetime,
    by_vehicle: bool,
    hours: RollupHours | None,
    only: frozenset[str] = CHARGE,
) -> MeasureTable:
    windows = [
        Tagged(window, bucket)
        for bucket, span in enumerate((SPAN, SPAN.previous()))
        for window in period_windows(span=span, zone=zone, shift=shift, now=now)
    ]
    request = CollectRequest(
        [1, 2, 4],  # vehicle 4 has no facts; vehicle 3 is not selected
        windows,
        by_vehicle=by_vehicle,
        with_cycles=False,
        daily_zone=zone if shift is None else None,
        only=only,
        hours=hours,
    )
    cursor = store.cursor()
    try:
        with read_snapshot(cursor):
            return collect(cursor, request, now=now, offline_after=OFFLINE_AFTER)
    finally:
        cursor.close()


def _grid_columns(table: MeasureTable) -> dict[tuple[int, int], list[float]]:
    picked = [COLUMNS.index(name) for name in sorted(GRID_MEASURES)]
    keys = sorted(table.keys())
    return dict(zip(keys, table.rows(keys)[:, picked].tolist(), strict=True))


def _same(found: MeasureTable, expected: MeasureTable) -> None:
    got, wanted = _grid_columns(found), _grid_columns(expected)
    assert set(got) == set(wanted) and wanted
    for key, values in wanted.items():
        assert np.allclose(got[key], values, equal_nan=True), key


def _forget_rollups(store: FactStore) -> None:
    """The rollups gone: what is read afterwards comes from the grid (or the raw facts)."""
    cursor = store.cursor()
    cursor.execute("DELETE FROM rollup_hourly")
    cursor.execute("DELETE FROM rollup_daily")
    cursor.close()


@pytest.mark.parametrize("only", [CHARGE, FAILURES], ids=["battery", "failures"])
@pytest.mark.parametrize("by_vehicle", [True, False], ids=["per-vehicle", "together"])
@pytest.mark.parametrize("shift", [None, NIGHT], ids=["days", "night"])
@pytest.mark.parametrize("zone", [ZONES[1], ZONES[2]], ids=["berlin", "kolkata"])
def test_the_grids_read_what_the_rollups_hold(
    store: FactStore,
    zone: ZoneInfo,
    shift: Shift | None,
    by_vehicle: bool,
    only: frozenset[str],
) -> None:
    """Now inside the period, after the last fact: the hour up to now is whole; Kolkata's
    half hours are pieces read from the raw facts."""
    now = T0 + timedelta(hours=60, minutes=17)
    options = {"zone": zone, "shift": shift, "now": now, "by_vehicle": by_vehicle, "only": only}
    expected = _table(store, hours=None, **options)  # type: ignore[arg-type]
    hours = RollupHours(store)
    _table(store, hours=hours, **options)  # type: ignore[arg-type]
    _forget_rollups(store)
    found = _table(store, hours=hours, **options)  # type: ignore[arg-type]
    _same(found, expected)
    # Every measure asked for that these facts have (not all states) was found.
    measured = sorted(only - STATE_TIMES | {"working_s", "error_s"})
    sums = found.rows(sorted(found.keys()))[:, [COLUMNS.index(name) for name in measured]]
    assert (sums > 0).any(axis=0).all()
    assert {vehicle for vehicle, _ in _grid_columns(found)} == ({1, 2} if by_vehicle else {0})


def test_the_grid_follows_facts_written_after_it(store: FactStore) -> None:
    now = T0 + timedelta(hours=90, minutes=17)
    hours = RollupHours(store)
    before = _table(store, zone=ZONES[1], shift=NIGHT, now=now, by_vehicle=True, hours=hours)
    _write(store, first=T0 + timedelta(hours=60), hours=30)
    expected = _table(store, zone=ZONES[1], shift=NIGHT, now=now, by_vehicle=True, hours=None)
    assert _grid_columns(expected) != _grid_columns(before)
    _table(store, zone=ZONES[1], shift=NIGHT, now=now, by_vehicle=True, hours=hours)
    _forget_rollups(store)
    after = _table(store, zone=ZONES[1], shift=NIGHT, now=now, by_vehicle=True, hours=hours)
    _same(after, expected)


def test_a_snapshot_older_than_the_grids_reads_sql(store: FactStore) -> None:
    hours = RollupHours(store)
    ranges = {0: [Window(T0, T0 + timedelta(hours=10))]}
    older = store.cursor()
    with read_snapshot(older):
        assert older.execute("SELECT count(*) FROM state_intervals").fetchall()[0][0] > 0
        _write(store, first=T0 + timedelta(hours=60), hours=5)
        newer = store.cursor()
        with read_snapshot(newer):
            found = hours.sums(newer, [1, 2], ranges, by_vehicle=True, only=FAILURES)
            assert found is not None and len(found) == 3  # states, stops, orders
        newer.close()
        assert hours.sums(older, [1, 2], ranges, by_vehicle=True, only=FAILURES) is None
    older.close()
