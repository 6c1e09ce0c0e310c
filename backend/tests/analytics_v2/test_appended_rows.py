"""Fact rows held in memory (``appended_rows``) against the SQL reading of the same rows in
T (``fact_arrays``): two sites in two zones, whole days and night shifts, rows appended out
of time order after the first reading, an older snapshot, an empty table."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import duckdb
import numpy as np
import pytest

from fleetscope.analytics.appended_rows import AppendedRows, RowSource
from fleetscope.analytics.fact_arrays import Arrays, arrays_in_periods
from fleetscope.analytics.fact_rows import Selection, select_periods
from fleetscope.analytics.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.periods import DaySpan, Shift
from fleetscope.analytics.snapshot import read_snapshot
from fleetscope.facts.store import FactStore

DAY = date(2026, 3, 10)
NOW = datetime(2026, 3, 14, 3, 20, tzinfo=UTC)  # inside the last night shift
NIGHT = Shift("night", time(22), time(6), frozenset(range(7)))
ORDERS = RowSource(
    table="orders", at="end_at", columns="f.vehicle_id, epoch_us(f.end_at) AS end_us, f.distance_m"
)


def _insert_orders(cursor: duckdb.DuckDBPyConnection, *, first: datetime, count: int) -> None:
    """An order of vehicle 1, 2 or 3 every 10 minutes from ``first``, its distance its
    number (so that each row can be told apart)."""
    cursor.execute(
        "INSERT INTO orders SELECT 1 + i % 3, 'W-' || i, 'W', done - INTERVAL 90 SECOND, done, "
        "'finished', i, 1, 1, 0, 0, 0 FROM (SELECT range AS i, "
        "?::TIMESTAMPTZ + to_minutes(10 * range + 3) AS done FROM range(?))",
        [first, count],
    )


def _selection(shift: Shift | None) -> Selection:
    scope = AnalyticsScope(
        span=DaySpan(DAY, DAY + timedelta(days=3)),
        combined=False,
        shift_id=shift.id if shift else "all",
        vehicles=[VehicleRef(1, "V1", 1), VehicleRef(2, "V2", 2)],  # vehicle 3 not selected
        sites=[
            SiteGroup(1, ZoneInfo("UTC"), shift, excluded=False, vehicle_ids=[1]),
            SiteGroup(2, ZoneInfo("Asia/Tokyo"), shift, excluded=False, vehicle_ids=[2]),
        ],
    )
    return select_periods(scope, now=NOW)


def _rows(arrays: Arrays) -> list[tuple[int, int, float, int]]:
    names = ("vehicle_id", "end_us", "distance_m", "bucket")
    return sorted(zip(*(arrays[name].tolist() for name in names), strict=True))


def _by_sql(cursor: duckdb.DuckDBPyConnection, selection: Selection) -> Arrays:
    return arrays_in_periods(
        cursor, selection, table=ORDERS.table, at=ORDERS.at, columns=ORDERS.columns
    )


@pytest.mark.parametrize("shift", [None, NIGHT])
def test_held_rows_in_t_are_those_sql_reads(
    fact_store: FactStore, cursor: duckdb.DuckDBPyConnection, shift: Shift | None
) -> None:
    _insert_orders(cursor, first=datetime(2026, 3, 1, tzinfo=UTC), count=14 * 24 * 6)
    held = AppendedRows(fact_store, ORDERS)
    selection = _selection(shift)
    with read_snapshot(cursor):
        found = held.in_periods(cursor, selection)
        expected = _by_sql(cursor, selection)
    assert found is not None
    assert _rows(found) == _rows(expected)
    assert {row[0] for row in _rows(found)} == {1, 2} and {row[3] for row in _rows(found)} == {0, 1}


def test_rows_appended_later_are_merged_in_time_order(
    fact_store: FactStore, cursor: duckdb.DuckDBPyConnection
) -> None:
    """Rows appended after the first reading (here earlier in time than those held) are
    read by the next snapshot that holds them, and take their place in time."""
    _insert_orders(cursor, first=datetime(2026, 3, 8, tzinfo=UTC), count=6 * 24 * 6)
    held = AppendedRows(fact_store, ORDERS)
    selection = _selection(NIGHT)
    with read_snapshot(cursor):
        before = held.in_periods(cursor, selection)
    _insert_orders(cursor, first=datetime(2026, 3, 1, tzinfo=UTC), count=7 * 24 * 6)
    with read_snapshot(cursor):
        after = held.in_periods(cursor, selection)
        expected = _by_sql(cursor, selection)
        with held.current(cursor) as rows:
            assert rows is not None
            assert len(rows.at_us) == 13 * 24 * 6 and bool(np.all(np.diff(rows.at_us) >= 0))
    assert before is not None and after is not None
    assert _rows(after) == _rows(expected) and len(_rows(after)) > len(_rows(before))


def test_a_snapshot_with_fewer_rows_reads_sql(
    fact_store: FactStore, cursor: duckdb.DuckDBPyConnection
) -> None:
    _insert_orders(cursor, first=datetime(2026, 3, 1, tzinfo=UTC), count=14 * 24 * 6)
    held = AppendedRows(fact_store, ORDERS)
    with held.current(cursor) as rows:
        assert rows is not None
    cursor.execute("DELETE FROM orders WHERE vehicle_id = 3")
    assert held.in_periods(cursor, _selection(None)) is None


def test_an_empty_table_reads_sql_and_no_site_gives_no_rows(
    fact_store: FactStore, cursor: duckdb.DuckDBPyConnection
) -> None:
    held = AppendedRows(fact_store, ORDERS)
    assert held.in_periods(cursor, _selection(None)) is None
    _insert_orders(cursor, first=datetime(2026, 3, 1, tzinfo=UTC), count=10)
    found = held.in_periods(cursor, Selection([]))
    assert found is not None
    assert {name: len(values) for name, values in found.items()} == {
        "vehicle_id": 0,
        "end_us": 0,
        "distance_m": 0,
        "bucket": 0,
    }
