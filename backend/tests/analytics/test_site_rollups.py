"""Site rollups: written with the vehicle rollups they sum, read for a fleet figure over
exactly a site's vehicles, equal to the raw facts, and not used where they would differ."""

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from fleetscope.analytics.core.collect import CollectRequest, Tagged, collect
from fleetscope.analytics.core.periods import DaySpan, Shift, period_windows
from fleetscope.analytics.core.rollups import site_rollup_usable
from fleetscope.analytics.productivity.productivity import add_order_heatmap, empty_heatmap
from fleetscope.facts.model import (
    ActionRecord,
    ErrorEpisode,
    Fact,
    LiveStatus,
    OrderOutcome,
    OrderRun,
    StateInterval,
    TrackPoint,
    VehicleState,
)
from fleetscope.facts.site_rollup import SITE_TABLES, rebuild_site_rollups
from fleetscope.facts.store import FactStore, StoreBatch

from .named_measures import Measures, named
from .test_collect import (
    BERLIN,
    KOLKATA,
    LAST_STATE_END,
    NOWS,
    OFFLINE_AFTER,
    SHIFTS,
    T0,
    _facts,
)

ZONES = {1: (1, "Europe/Berlin"), 2: (1, "Europe/Berlin"), 3: (2, "Asia/Kolkata")}
HALF = T0 + timedelta(days=1, hours=5, minutes=30)  # mid-hour: both batches write that hour


def _when(fact: Fact) -> datetime:
    if isinstance(fact, TrackPoint):
        return fact.at
    assert isinstance(fact, StateInterval | OrderRun | ActionRecord | ErrorEpisode)
    return fact.end


def _write_in_two_batches(store: FactStore, *, first: bool) -> None:
    facts = [fact for vehicle in ZONES for fact in _facts(vehicle)]
    part = [fact for fact in facts if (_when(fact) < HALF) == first]
    # The last message of each vehicle: a "now" before it has facts after it.
    last = LAST_STATE_END
    live = {
        vehicle: LiveStatus(
            vehicle, VehicleState.IDLE, last, last, "", "", 50.0, False, (), None, None, ""
        )
        for vehicle in ZONES
    }
    store.write_batch(StoreBatch(facts=part, zones=dict(ZONES), live=live))


@pytest.fixture(scope="module")
def store() -> Iterator[FactStore]:
    with FactStore(":memory:") as fact_store:
        _write_in_two_batches(fact_store, first=True)
        _write_in_two_batches(fact_store, first=False)
        yield fact_store


def _site_rows(connection: Any) -> dict[str, list[tuple[Any, ...]]]:
    return {
        table: connection.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()  # noqa: S608
        for table, _, _ in (*SITE_TABLES, ("site_rollup_members", "", ""))
    }


def _assert_same(written: list[tuple[Any, ...]], rebuilt: list[tuple[Any, ...]]) -> None:
    assert [row[:2] for row in written] == [row[:2] for row in rebuilt]
    for ours, theirs in zip(written, rebuilt, strict=True):
        assert ours[2:] == pytest.approx(theirs[2:], abs=1e-9, nan_ok=True)


def test_site_rows_written_batch_by_batch_are_the_sums_of_their_vehicles_rows(
    tmp_path: Path,
) -> None:
    path = tmp_path / "facts.duckdb"
    with FactStore(path) as fact_store:
        _write_in_two_batches(fact_store, first=True)
    with FactStore(path) as fact_store:  # the second batch adds to rows the cache never held
        _write_in_two_batches(fact_store, first=False)
        with fact_store.exclusive() as connection:
            written = _site_rows(connection)
            connection.execute("BEGIN TRANSACTION")
            rebuild_site_rollups(connection)
            rebuilt = _site_rows(connection)
            connection.execute("ROLLBACK")
    assert written["site_rollup_members"] == [(1, 1), (1, 2), (2, 3)]
    for table in ("rollup_site_daily", "rollup_site_hourly"):
        assert {row[0] for row in written[table]} == {1, 2}
        _assert_same(
            [(row[0], row[1], *row[2]) for row in written[table]],
            [(row[0], row[1], *row[2]) for row in rebuilt[table]],
        )


def _fleet(
    store: FactStore,
    vehicles: list[int],
    shift: Shift | None,
    now: datetime,
    *,
    rollups: bool,
    span: DaySpan = DaySpan(date(2026, 6, 2), date(2026, 6, 3)),
) -> Measures:
    windows = period_windows(span=span, zone=BERLIN, shift=shift, now=now)
    request = CollectRequest(
        vehicles,
        [Tagged(w, 0) for w in windows],
        by_vehicle=False,
        use_rollups=rollups,
        daily_zone=BERLIN if shift is None else None,
        site_id=1,
    )
    cursor = store.cursor()
    try:
        return named(collect(cursor, request, now=now, offline_after=OFFLINE_AFTER), (0, 0))
    finally:
        cursor.close()


def _assert_equal_measures(fast: Measures, slow: Measures) -> None:
    assert fast.states == pytest.approx(slow.states, abs=1e-6)
    assert (fast.orders_finished, fast.orders_failed, fast.loads_handled) == (
        slow.orders_finished,
        slow.orders_failed,
        slow.loads_handled,
    )
    assert (fast.errors, fast.stop_errors) == (slow.errors, slow.stop_errors)
    assert fast.stop_error_s == pytest.approx(slow.stop_error_s)
    assert fast.distance_m == pytest.approx(slow.distance_m)
    assert fast.orders_finished > 0


@pytest.mark.parametrize("now", NOWS, ids=["mid-period", "after-last-message"])
@pytest.mark.parametrize("shift", SHIFTS, ids=["all", "night", "odd"])
def test_a_sites_fleet_from_its_site_rollups_equals_the_raw_facts(
    store: FactStore, shift: Shift | None, now: datetime
) -> None:
    cursor = store.cursor()
    try:
        assert site_rollup_usable(cursor, site_id=1, vehicle_ids=[1, 2])
    finally:
        cursor.close()
    fast = _fleet(store, [1, 2], shift, now, rollups=True)
    slow = _fleet(store, [1, 2], shift, now, rollups=False)
    _assert_equal_measures(fast, slow)


def test_site_rollups_serve_only_exactly_their_members(tmp_path: Path) -> None:
    with FactStore(tmp_path / "facts.duckdb") as fact_store:
        _write_in_two_batches(fact_store, first=True)
        _write_in_two_batches(fact_store, first=False)
        cursor = fact_store.cursor()
        assert site_rollup_usable(cursor, site_id=1, vehicle_ids=[2, 1])
        assert not site_rollup_usable(cursor, site_id=1, vehicle_ids=[1])  # a part of it
        assert not site_rollup_usable(cursor, site_id=1, vehicle_ids=[1, 2, 3])
        # A vehicle that never reported has no rows anywhere: the site's rows still sum all.
        assert site_rollup_usable(cursor, site_id=2, vehicle_ids=[3, 4])
        assert not site_rollup_usable(cursor, site_id=3, vehicle_ids=[4])  # no rows at all
        # Vehicle 2 moves to site 2: its later hours count there, the earlier ones at site 1.
        later = LAST_STATE_END + timedelta(hours=2)
        fact_store.write_batch(
            StoreBatch(
                facts=[StateInterval(2, VehicleState.IDLE, later, later + timedelta(hours=1))],
                zones={2: (2, "Asia/Kolkata")},
            )
        )
        assert not site_rollup_usable(cursor, site_id=1, vehicle_ids=[1, 2])
        assert not site_rollup_usable(cursor, site_id=2, vehicle_ids=[2, 3])
        cursor.close()
        now = NOWS[0]
        fast = _fleet(fact_store, [1, 2], None, now, rollups=True)
        slow = _fleet(fact_store, [1, 2], None, now, rollups=False)
        _assert_equal_measures(fast, slow)


@pytest.mark.parametrize("shift", SHIFTS, ids=["all", "night", "odd"])
def test_the_order_heatmap_from_the_rollups_equals_the_raw_orders(
    store: FactStore, shift: Shift | None
) -> None:
    now = NOWS[1]
    span = DaySpan(date(2026, 6, 2), date(2026, 6, 3))
    windows = period_windows(span=span, zone=BERLIN, shift=shift, now=now)
    cursor = store.cursor()
    try:
        heatmaps = []
        for use_rollups in (True, False):
            heatmap = empty_heatmap()
            add_order_heatmap(
                cursor,
                heatmap,
                vehicle_ids=[1, 2],
                windows=windows,
                zone=str(BERLIN),
                shift=shift,
                tail_until=now,
                use_rollups=use_rollups,
            )
            heatmaps.append(heatmap)
    finally:
        cursor.close()
    by_vehicle, raw = heatmaps
    assert by_vehicle == raw
    assert sum(map(sum, raw)) > 0


@pytest.mark.parametrize("shift", SHIFTS[:2], ids=["all", "night"])
def test_the_order_heatmap_counts_local_hours_in_a_half_hour_zone(
    store: FactStore, shift: Shift | None
) -> None:
    """Vehicle 3 is in Asia/Kolkata (+05:30): each UTC hour of the rollup holds two local
    half hours, so the heatmap counts every finished order by its own local end, worked out
    here from the facts as written (night shift: after midnight on the evening's weekday)."""
    now = NOWS[1]
    span = DaySpan(date(2026, 6, 2), date(2026, 6, 3))
    windows = period_windows(span=span, zone=KOLKATA, shift=shift, now=now)
    expected = empty_heatmap()
    for fact in _facts(3):
        if not isinstance(fact, OrderRun) or fact.outcome is not OrderOutcome.FINISHED:
            continue
        if any(window.start <= fact.end < window.end for window in windows):
            local = fact.end.astimezone(KOLKATA)
            day = local - timedelta(days=1) if shift and local.time() < shift.start else local
            expected[day.weekday()][local.hour] += 1
    heatmap = empty_heatmap()
    cursor = store.cursor()
    try:
        add_order_heatmap(
            cursor,
            heatmap,
            vehicle_ids=[3],
            windows=windows,
            zone=str(KOLKATA),
            shift=shift,
            tail_until=now,
        )
    finally:
        cursor.close()
    assert sum(map(sum, expected)) > 0
    assert heatmap == expected


@pytest.mark.parametrize("shift", SHIFTS, ids=["all", "night", "odd"])
def test_a_period_without_site_rows_reads_as_empty(store: FactStore, shift: Shift | None) -> None:
    before = DaySpan(date(2026, 1, 5), date(2026, 1, 6))
    for rollups in (True, False):
        measures = _fleet(store, [1, 2], shift, NOWS[1], rollups=rollups, span=before)
        assert measures.covered_s == 0
        assert (measures.orders_finished, measures.errors, measures.distance_m) == (0, 0, 0)
