"""One answer reads one snapshot: a batch committed between its statements is not seen.

The clock's offline tick closes a silent vehicle's open state: before it, the open state
comes from ``live_status``; after it, from the rollups. An answer that read the live
statuses before the tick and the rollups after it would count that time twice.
"""

from collections.abc import Iterator
from datetime import date, datetime, timedelta

import duckdb
import pytest

import fleetscope.analytics.core.collect as collect_module
from fleetscope.analytics.core.collect import CollectRequest, Tagged, collect
from fleetscope.analytics.core.periods import DaySpan, period_windows
from fleetscope.analytics.core.sql import read_snapshot
from fleetscope.facts.model import LiveStatus, StateInterval, VehicleState
from fleetscope.facts.store import FactStore, StoreBatch

from .named_measures import Measures, named
from .test_collect import BERLIN, LAST_STATE_END, OFFLINE_AFTER, STATE_COUNT, _facts

NOW = LAST_STATE_END + timedelta(hours=1)
OFFLINE_AT = LAST_STATE_END + OFFLINE_AFTER


def _live(state: VehicleState, since: datetime) -> LiveStatus:
    return LiveStatus(1, state, since, LAST_STATE_END, "", "", 50.0, False, (), None, None, "")


@pytest.fixture
def store() -> Iterator[FactStore]:
    with FactStore(":memory:") as fact_store:
        fact_store.write_batch(
            StoreBatch(
                facts=_facts(1),
                zones={1: (1, "Europe/Berlin")},
                live={1: _live(VehicleState.IDLE, LAST_STATE_END)},
            )
        )
        yield fact_store


def _tick(store: FactStore) -> None:
    """What the clock writes once the vehicle has been silent for ``OFFLINE_AFTER``."""
    store.write_batch(
        StoreBatch(
            facts=[StateInterval(1, VehicleState.IDLE, LAST_STATE_END, OFFLINE_AT)],
            live={1: _live(VehicleState.OFFLINE, OFFLINE_AT)},
            snapshots={1: ({"clock": "ticked"}, 0)},  # a batch without one writes nothing
        )
    )


def _measures(store: FactStore) -> Measures:
    windows = period_windows(
        span=DaySpan(date(2026, 6, 2), date(2026, 6, 4)), zone=BERLIN, shift=None, now=NOW
    )
    request = CollectRequest(
        [1], [Tagged(w, 0) for w in windows], by_vehicle=True, daily_zone=BERLIN
    )
    cursor = store.cursor()
    try:
        with read_snapshot(cursor):
            return named(collect(cursor, request, now=NOW, offline_after=OFFLINE_AFTER), (1, 0))
    finally:
        cursor.close()


def test_a_tick_committed_between_the_reads_of_one_answer_is_not_seen(
    store: FactStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _measures(store)
    read_status = collect_module.vehicle_status

    def status_then_tick(cursor: duckdb.DuckDBPyConnection, request: CollectRequest) -> object:
        status = read_status(cursor, request)
        _tick(store)  # commits while the answer is half read
        return status

    monkeypatch.setattr(collect_module, "vehicle_status", status_then_tick)
    during = _measures(store)
    assert store.table_counts()["state_intervals"] == STATE_COUNT + 1  # the tick did land
    monkeypatch.setattr(collect_module, "vehicle_status", read_status)
    after = _measures(store)
    assert during.states == pytest.approx(before.states)
    # And the two ways of telling the time after the last message agree.
    assert after.states == pytest.approx(before.states)
    assert before.states["offline"] == pytest.approx((NOW - OFFLINE_AT).total_seconds())


def test_a_closing_snapshot_ends_with_its_cursor() -> None:
    """The API's snapshots end by closing their cursor (no ``ROLLBACK`` statement)."""
    with FactStore(":memory:") as fact_store:
        cursor = fact_store.cursor()
        with read_snapshot(cursor, closing=True):
            assert cursor.execute("SELECT count(*) FROM battery_samples").fetchall() == [(0,)]
        with pytest.raises(duckdb.ConnectionException):
            cursor.execute("SELECT 1")
        cursor.close()  # closing again is harmless (``reading`` does)
        reader = fact_store.cursor()
        with read_snapshot(reader):  # the store reads on
            assert reader.execute("SELECT count(*) FROM battery_samples").fetchall() == [(0,)]
        reader.close()
