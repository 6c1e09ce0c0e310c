"""The orders in memory (``sorted_runs``, ``order_runs``, ``fact_index``) against
``summarize_orders``, the SQL path of every figure: periods with and without shifts off the
full hour, two sites, per vehicle, combined and per workflow; then the index kept up to date
as orders are appended, and the cases it hands back to SQL."""

import math
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from analytics_v2.inserts import insert_rows
from fleetscope.analytics import workflow_orders as workflow_orders_module
from fleetscope.analytics.fact_index import FactIndex
from fleetscope.analytics.fact_rows import CURRENT, PREVIOUS, Selection, SiteSlice, rows_in_periods
from fleetscope.analytics.order_runs import (
    ORDERS_BY_VEHICLE,
    ORDERS_BY_WORKFLOW,
    count_workflow_orders,
    longest_workflow_orders,
    summarize_runs,
    summarize_workflows,
)
from fleetscope.analytics.order_summary import ORDER_COLUMNS, Key, OrderSummary, summarize_orders
from fleetscope.analytics.paging import PageRequest
from fleetscope.analytics.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.periods import DaySpan, Window
from fleetscope.analytics.run_buckets import buckets_of
from fleetscope.analytics.snapshot import read_snapshot
from fleetscope.analytics.sorted_runs import RunSource, SortedRuns
from fleetscope.analytics.workflow_orders import workflow_orders
from fleetscope.facts.store import FactStore

START = datetime(2026, 3, 1, tzinfo=UTC)
DAYS = 6
WORKFLOWS = ["PICK", "DROP", "CHARGE", "PICK"]  # PICK the most frequent


ORDER_TYPES = ["INTEGER", "VARCHAR", "VARCHAR", "TIMESTAMPTZ", "TIMESTAMPTZ", "VARCHAR"]
ORDER_TYPES += ["DOUBLE", "INTEGER", "INTEGER", "DOUBLE", "DOUBLE", "INTEGER"]


@pytest.fixture
def store() -> Iterator[FactStore]:
    with FactStore(":memory:") as opened:
        yield opened


def _append(store: FactStore, rng: random.Random, vehicles: list[int], count: int) -> None:
    rows = []
    for number in range(count):
        end = START + timedelta(seconds=rng.uniform(0, DAYS * 86400))
        # Millisecond jitter, and whole minutes so that equal cycle times occur.
        cycle = rng.choice(
            [
                timedelta(minutes=rng.randrange(1, 9)),
                timedelta(milliseconds=int(rng.lognormvariate(12.5, 0.9))),
            ]
        )
        outcome = rng.choice(["finished"] * 6 + ["failed", "cancelled", "aborted"])
        rows.append(
            (
                rng.choice(vehicles),
                f"o{rng.random()}-{number}",
                rng.choice(WORKFLOWS),
                end - cycle,
                end,
                outcome,
                0.0,  # distance, nodes traversed and total
                0,
                0,
                rng.choice([0.0, rng.uniform(0, 90)]),
                rng.uniform(0, 30),
                0,  # errors
            )
        )
    insert_rows(store, "orders", ORDER_TYPES, rows)


def _days(first: int, last: int) -> Window:
    return Window(START + timedelta(days=first), START + timedelta(days=last))


def _shift(first_day: int, days: int) -> list[Window]:
    """05:30-14:15 on each day: windows off the full hour."""
    return [
        Window(
            START + timedelta(days=day, hours=5, minutes=30),
            START + timedelta(days=day, hours=14, minutes=15),
        )
        for day in range(first_day, first_day + days)
    ]


SELECTIONS = {
    "period-and-previous": Selection(
        [SiteSlice([1, 2, 3, 4], [(_days(0, 3), PREVIOUS), (_days(3, 6), CURRENT)])]
    ),
    "shift-off-the-hour": Selection(
        [
            SiteSlice(
                [1, 2, 3, 4],
                [(w, PREVIOUS) for w in _shift(0, 3)] + [(w, CURRENT) for w in _shift(3, 3)],
            )
        ]
    ),
    "every-vehicle-in-shifts": Selection(  # one site holds every vehicle: sums by hour
        [
            SiteSlice(
                [1, 2, 3, 4, 9],
                [(w, PREVIOUS) for w in _shift(0, 3)] + [(w, CURRENT) for w in _shift(3, 3)],
            )
        ]
    ),
    "two-sites": Selection(
        [
            SiteSlice([1, 3], [(_days(1, 3), PREVIOUS), (_days(3, 5), CURRENT)]),
            SiteSlice([2], [(w, CURRENT) for w in _shift(2, 4)]),
        ]
    ),
}


def _same(
    found: dict[Key, OrderSummary], expected: dict[Key, OrderSummary], *, sums: bool = True
) -> None:
    """Equal figures; without ``sums`` (the workflow table) counts and cycle times only."""
    assert found.keys() == expected.keys()
    for key, summary in expected.items():
        other = found[key]
        assert other.outcomes == summary.outcomes, key
        assert other.cycle == summary.cycle, key  # percentiles, maximum, histogram: exact
        if not sums:
            continue
        assert other.cycle_sum_us == summary.cycle_sum_us, key
        # Sums of floats, added in another order.
        assert math.isclose(other.paused_s, summary.paused_s, rel_tol=1e-12, abs_tol=1e-9)
        assert math.isclose(other.waiting_s, summary.waiting_s, rel_tol=1e-12, abs_tol=1e-9)


def _by_sql(
    store: FactStore, selection: Selection, *, by_vehicle: bool = False, key: str | None = None
) -> dict[Key, OrderSummary]:
    cursor = store.cursor()
    try:
        rows = rows_in_periods(selection, table="orders", at="end_at", columns=ORDER_COLUMNS)
        if key == "workflow":
            every = ("SELECT DISTINCT workflow FROM orders", [])
            return summarize_orders(cursor, rows, key=key, candidates=every)
        if key is not None:  # one workflow
            return summarize_orders(cursor, rows, key=None, where=("workflow = ?", [key]))
        return summarize_orders(
            cursor, rows, key="vehicle_id" if by_vehicle else None, fleet=by_vehicle
        )
    finally:
        cursor.close()


def _read(store: FactStore, source: RunSource) -> SortedRuns:
    cursor = store.cursor()
    try:
        runs = SortedRuns.read(cursor, source)
    finally:
        cursor.close()
    assert runs is not None
    return runs


@pytest.mark.parametrize("by_vehicle", [True, False], ids=["per-vehicle", "combined"])
@pytest.mark.parametrize("name", list(SELECTIONS))
@pytest.mark.usefixtures("marking")
def test_the_runs_give_the_figures_of_sql(store: FactStore, name: str, by_vehicle: bool) -> None:
    _append(store, random.Random(name), [1, 2, 3, 4, 9], 3000)
    runs = _read(store, ORDERS_BY_VEHICLE)
    assert len(runs.keys) == 3000
    selection = SELECTIONS[name]
    expected = _by_sql(store, selection, by_vehicle=by_vehicle)
    assert expected  # the case has orders in T
    _same(summarize_runs(runs, selection, by_vehicle=by_vehicle), expected)


@pytest.mark.parametrize("name", list(SELECTIONS))
@pytest.mark.usefixtures("marking")
def test_the_workflow_runs_give_the_figures_of_sql(store: FactStore, name: str) -> None:
    _append(store, random.Random(f"w{name}"), [1, 2, 3, 4, 9], 3000)
    runs = _read(store, ORDERS_BY_WORKFLOW)
    assert set(runs.names) == set(WORKFLOWS)
    selection = SELECTIONS[name]
    table = _by_sql(store, selection, key="workflow")
    assert {workflow for workflow, _ in table} == set(WORKFLOWS)
    _same(summarize_workflows(runs, selection), table, sums=False)
    for workflow in ["DROP", "NEVER"]:
        expected = _by_sql(store, selection, key=workflow)
        _same(summarize_workflows(runs, selection, workflow=workflow), expected)


@pytest.mark.parametrize("outcome", [None, "failed"])
@pytest.mark.usefixtures("marking")
def test_a_workflows_orders_are_counted_as_sql_counts_them(
    store: FactStore, outcome: str | None
) -> None:
    _append(store, random.Random(8), [1, 2, 3, 4, 9], 2000)
    runs = _read(store, ORDERS_BY_WORKFLOW)
    for selection in SELECTIONS.values():
        rows_sql, parameters = rows_in_periods(
            selection, table="orders", at="end_at", columns="f.workflow, f.outcome"
        )
        cursor = store.cursor()
        expected = cursor.execute(
            f"SELECT count(*) FROM ({rows_sql}) WHERE bucket = {CURRENT} AND workflow = 'DROP' "  # noqa: S608
            "AND outcome = coalesce(?, outcome)",
            [*parameters, outcome],
        ).fetchall()[0][0]
        cursor.close()
        assert expected > 0
        placed = buckets_of(runs, selection)
        found = count_workflow_orders(runs, placed, workflow="DROP", outcome=outcome)
        assert found == expected
    assert count_workflow_orders(runs, placed, workflow="NEVER", outcome=None) == 0


@pytest.mark.parametrize("outcome", [None, "failed"])
@pytest.mark.usefixtures("marking")
def test_the_longest_orders_of_a_workflow_are_those_sql_ranks_first(
    store: FactStore, outcome: str | None
) -> None:
    """Whole minutes make equal cycle times: every order tied with the last one counted is
    kept too, as any of them may belong to the page."""
    _append(store, random.Random(11), [1, 2, 3, 4, 9], 2500)
    runs = _read(store, ORDERS_BY_WORKFLOW)
    assert runs.rowids is not None and len(set(runs.rowids.tolist())) == 2500
    cursor = store.cursor()
    for name, selection in SELECTIONS.items():
        rows_sql, parameters = rows_in_periods(
            selection,
            table="orders",
            at="end_at",
            columns="f.rowid AS row_id, f.workflow, f.outcome, "
            "epoch_us(f.end_at) - epoch_us(f.start_at) AS cycle_us",
        )
        rows = cursor.execute(
            f"SELECT row_id, cycle_us FROM ({rows_sql}) WHERE bucket = {CURRENT} "  # noqa: S608
            "AND workflow = 'PICK' AND outcome = coalesce(?, outcome)",
            [*parameters, outcome],
        ).fetchall()
        cycles = sorted(cycle for _, cycle in rows)
        for count in (1, 7, 40, len(rows), len(rows) + 3):
            for longest in (True, False):
                found = longest_workflow_orders(
                    runs,
                    buckets_of(runs, selection),
                    workflow="PICK",
                    outcome=outcome,
                    count=count,
                    longest=longest,
                )
                assert found is not None
                if count >= len(rows):
                    expected = {row_id for row_id, _ in rows}
                elif longest:
                    edge = cycles[-count]
                    expected = {row_id for row_id, cycle in rows if cycle >= edge}
                else:
                    edge = cycles[count - 1]
                    expected = {row_id for row_id, cycle in rows if cycle <= edge}
                assert sorted(found.tolist()) == sorted(expected), (name, count, longest)
                assert len(found) >= min(count, len(rows))
    cursor.close()
    placed = buckets_of(runs, selection)
    never = longest_workflow_orders(
        runs, placed, workflow="NEVER", outcome=None, count=5, longest=True
    )
    assert never is not None and len(never) == 0
    by_vehicle = _read(store, ORDERS_BY_VEHICLE)  # keeps no rowids
    found = longest_workflow_orders(
        by_vehicle,
        buckets_of(by_vehicle, selection),
        workflow="PICK",
        outcome=None,
        count=5,
        longest=True,
    )
    assert found is None


def _scope(days: int) -> AnalyticsScope:
    """The first ``days`` days, all vehicles of one site in UTC."""
    vehicle_ids = [1, 2, 3, 4, 9]
    return AnalyticsScope(
        span=DaySpan(START.date(), START.date() + timedelta(days=days - 1)),
        combined=False,
        shift_id="all",
        vehicles=[VehicleRef(v, f"V{v}", 1) for v in vehicle_ids],
        sites=[SiteGroup(1, ZoneInfo("UTC"), None, excluded=False, vehicle_ids=vehicle_ids)],
    )


def _orders_page(
    store: FactStore,
    index: FactIndex | None,
    *,
    days: int,
    outcome: Any,
    vehicle: int | None,
    number: int,
    sort: str,
) -> Any:
    cursor = store.cursor()
    try:
        with read_snapshot(cursor):
            return workflow_orders(
                cursor,
                _scope(days),
                now=START + timedelta(days=DAYS + 1),
                workflow="PICK",
                page=PageRequest(page=number, page_size=20, sort=sort),
                outcome=outcome,
                vehicle_id=vehicle,
                index=index,
            )
    finally:
        cursor.close()


@pytest.mark.parametrize("sort", ["-duration", "duration"])
@pytest.mark.usefixtures("marking")
def test_pages_by_duration_from_the_orders_in_memory_are_the_pages_of_sql(
    store: FactStore, monkeypatch: pytest.MonkeyPatch, sort: str
) -> None:
    _append(store, random.Random(5), [1, 2, 3, 4, 9], 2500)
    index = FactIndex(store)
    narrowed: list[int] = []
    original = workflow_orders_module.longest_workflow_orders

    def counted(*args: Any, **kwargs: Any) -> Any:
        found = original(*args, **kwargs)
        narrowed.append(len(found))
        return found

    monkeypatch.setattr(workflow_orders_module, "longest_workflow_orders", counted)
    for days, outcome, vehicle in [(DAYS, None, None), (DAYS, "failed", None), (4, None, 2)]:
        request = {"days": days, "outcome": outcome, "vehicle": vehicle, "sort": sort}
        first = _orders_page(store, None, number=1, **request)
        assert first.pages > 6
        for number in [1, 2, first.pages // 2, first.pages - 1, first.pages, first.pages + 1]:
            by_sql = _orders_page(store, None, number=number, **request)
            assert _orders_page(store, index, number=number, **request) == by_sql, request
    assert len(narrowed) >= 12 and min(narrowed) > 0  # read back by rowid


def test_no_orders_and_no_orders_in_t(store: FactStore) -> None:
    runs = _read(store, ORDERS_BY_VEHICLE)
    assert len(runs.keys) == 0
    assert summarize_runs(runs, SELECTIONS["two-sites"], by_vehicle=True) == {}
    assert summarize_workflows(_read(store, ORDERS_BY_WORKFLOW), SELECTIONS["two-sites"]) == {}
    _append(store, random.Random(1), [7], 50)  # a vehicle none of the sites holds
    runs = _read(store, ORDERS_BY_VEHICLE)
    assert summarize_runs(runs, SELECTIONS["two-sites"], by_vehicle=True) == {}


def test_orders_the_packing_cannot_hold_are_left_to_sql(store: FactStore) -> None:
    _append(store, random.Random(2), [2**21], 10)
    cursor = store.cursor()
    assert SortedRuns.read(cursor, ORDERS_BY_VEHICLE) is None
    cursor.close()


def test_new_workflows_and_vehicles_are_merged_with_the_codes_kept(store: FactStore) -> None:
    rng = random.Random(5)
    _append(store, rng, [1, 2], 400)
    cursor = store.cursor()
    runs = SortedRuns.read(cursor, ORDERS_BY_WORKFLOW)
    assert runs is not None and runs.vehicles is not None
    _append(store, rng, [3, 2_000_000], 100)  # a new vehicle with a large id
    cursor.execute("UPDATE orders SET workflow = 'LATE' WHERE rowid >= 450")
    newer = SortedRuns.read(cursor, ORDERS_BY_WORKFLOW, after=runs)
    assert newer is not None and newer.names[: len(runs.names)] == runs.names
    assert "LATE" in newer.names
    merged = runs.merged(newer)
    selection = Selection([SiteSlice([1, 2, 3, 2_000_000], [(_days(0, 6), CURRENT)])])
    table = _by_sql(store, selection, key="workflow")
    _same(summarize_workflows(merged, selection), table, sums=False)
    one_site = Selection([SiteSlice([2, 2_000_000], [(w, CURRENT) for w in _shift(0, 6)])])
    _same(
        summarize_workflows(merged, one_site, workflow="LATE"),
        _by_sql(store, one_site, key="LATE"),
    )
    cursor.close()


@pytest.mark.parametrize(
    "source", [ORDERS_BY_VEHICLE, ORDERS_BY_WORKFLOW], ids=["by-vehicle", "by-name"]
)
@pytest.mark.parametrize("late", [False, True], ids=["after", "before-the-first"])
def test_a_merge_gives_the_arrays_of_a_fresh_read(
    store: FactStore, source: RunSource, late: bool
) -> None:
    rng = random.Random(f"{late}")
    _append(store, rng, [1, 2, 3], 800)
    cursor = store.cursor()
    runs = SortedRuns.read(cursor, source)
    _append(store, rng, [2, 4], 200)  # a new vehicle; CHARGE orders and others
    if late:  # an order ending before any other: the hours are counted anew
        cursor.execute(
            "UPDATE orders SET start_at = start_at - INTERVAL 30 DAY, "
            "end_at = end_at - INTERVAL 30 DAY WHERE rowid = 900"
        )
    assert runs is not None
    newer = SortedRuns.read(cursor, source, after=runs)
    fresh = SortedRuns.read(cursor, source)
    cursor.close()
    assert newer is not None and fresh is not None
    merged = runs.merged(newer)
    assert (
        (merged.next_rowid, merged.table_rows)
        == (fresh.next_rowid, fresh.table_rows)
        == (
            1000,
            1000,
        )
    )
    for name in ("keys", "end_us", "end_hour", "run_codes", "run_starts", "run_ends"):
        assert np.array_equal(getattr(merged, name), getattr(fresh, name)), name
    for name in ("hour_prefix", "vehicles_seen", "weights"):
        assert np.array_equal(getattr(merged, name), getattr(fresh, name)), name
    assert np.array_equal(merged.hour_order.rows(), fresh.hour_order.rows())
    assert merged.first_hour == fresh.first_hour
    assert (merged.vehicles is None) == (fresh.vehicles is None)
    if fresh.vehicles is not None:
        assert np.array_equal(merged.vehicles, fresh.vehicles)
    assert (merged.rowids is None) == (fresh.rowids is None) == (source.name is None)
    if fresh.rowids is not None:
        assert np.array_equal(merged.rowids, fresh.rowids)
    assert np.allclose(merged.totals, fresh.totals, rtol=1e-12)


def _index_answer(index: FactIndex, store: FactStore) -> dict[Key, OrderSummary] | None:
    cursor = store.cursor()
    selection = SELECTIONS["shift-off-the-hour"]
    try:
        with read_snapshot(cursor):
            runs = index.runs(cursor, ORDERS_BY_VEHICLE, selection)
            return None if runs is None else summarize_runs(runs, selection, by_vehicle=True)
    finally:
        cursor.close()


def test_the_index_follows_appended_orders_and_older_snapshots_read_sql(
    store: FactStore,
) -> None:
    rng = random.Random(3)
    _append(store, rng, [1, 2, 3, 4], 2000)
    index = FactIndex(store)
    selection = SELECTIONS["shift-off-the-hour"]
    first = _index_answer(index, store)
    assert first is not None
    _same(first, _by_sql(store, selection, by_vehicle=True))

    older = store.cursor()
    with read_snapshot(older):
        older.execute("SELECT count(*) FROM orders").fetchall()  # the snapshot begins
        _append(store, rng, [1, 2, 3, 4], 300)  # late orders, anywhere in time
        merged = _index_answer(index, store)
        assert merged is not None
        _same(merged, _by_sql(store, selection, by_vehicle=True))
        assert merged != first
        # The index now holds more orders than this snapshot: SQL reads them.
        assert index.runs(older, ORDERS_BY_VEHICLE, selection) is None
    older.close()

    store.reset_derived()  # a rebuild: the index is read anew
    assert _index_answer(index, store) is None  # no orders: nothing to index
    _append(store, rng, [1, 2], 500)
    rebuilt = _index_answer(index, store)
    assert rebuilt is not None
    _same(rebuilt, _by_sql(store, selection, by_vehicle=True))


def test_a_short_t_is_read_from_current_runs_only(store: FactStore) -> None:
    """A short T neither builds the runs nor merges newer rows into them (SQL costs less);
    runs current for the snapshot answer it."""
    _append(store, random.Random(4), [1, 2], 1000)
    index = FactIndex(store)
    short = Selection([SiteSlice([1, 2], [(_days(5, 6), CURRENT)])])
    cursor = store.cursor()
    with read_snapshot(cursor):
        assert index.runs(cursor, ORDERS_BY_VEHICLE, short) is None
        built = index.runs(cursor, ORDERS_BY_VEHICLE, SELECTIONS["period-and-previous"])
        assert built is not None
        assert index.runs(cursor, ORDERS_BY_VEHICLE, short) is built
        _same(summarize_runs(built, short, by_vehicle=True), _by_sql(store, short, by_vehicle=True))
    cursor.close()
    _append(store, random.Random(5), [1, 2], 10)
    cursor = store.cursor()
    with read_snapshot(cursor):
        assert index.runs(cursor, ORDERS_BY_VEHICLE, short) is None  # behind: no merge
        assert index.runs(cursor, ORDERS_BY_VEHICLE, SELECTIONS["period-and-previous"])
        assert index.runs(cursor, ORDERS_BY_VEHICLE, short) is not None  # merged meanwhile
    cursor.close()


def test_the_warm_up_builds_each_source_before_answers_ask(store: FactStore) -> None:
    _append(store, random.Random(6), [1, 2, 3, 4], 500)
    index = FactIndex(store)
    index.start_warm_up([ORDERS_BY_VEHICLE, ORDERS_BY_WORKFLOW])
    assert index.wait_until_warm(timeout=30)
    selection = SELECTIONS["period-and-previous"]
    cursor = store.cursor()
    with read_snapshot(cursor):
        first = index.runs(cursor, ORDERS_BY_WORKFLOW, selection)
        assert first is not None and first is index.runs(cursor, ORDERS_BY_WORKFLOW, selection)
        assert index.runs(cursor, ORDERS_BY_VEHICLE, selection) is not None
    cursor.close()
    index.stop()
