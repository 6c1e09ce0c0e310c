"""Like-for-like comparison (product.md section 3) with the clock fixed: the previous period
is clipped at the same elapsed time, charts leave out future buckets and mark running ones.

A hand-made fleet (two Berlin vehicles, a 30-minute cycle of 20 min working and 10 min idle
from midnight, an order per cycle ending at minute 20, an error episode every 6 hours at
minute 5, FATAL and WARNING in turn) runs from Sunday 15 November 2026 to Wednesday
25 November 15:10, the fixed now. The simulated fleet of ``conftest`` gives the truth of a
partial day across the end of daylight-saving time.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fleetscope.analytics.core.comparison import previous_until
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan, Shift
from fleetscope.analytics.dashboards.dashboard import dashboard
from fleetscope.analytics.failures.failures import ErrorFilter, failures
from fleetscope.analytics.processes.orders import processes
from fleetscope.analytics.processes.workflows import workflows
from fleetscope.analytics.productivity.history import productivity_history
from fleetscope.analytics.productivity.productivity import productivity
from fleetscope.api.analytics_deps import reading
from fleetscope.facts.model import (
    ErrorEpisode,
    Fact,
    LiveStatus,
    OrderOutcome,
    OrderRun,
    StateInterval,
    VehicleState,
)
from fleetscope.facts.store import FactStore, StoreBatch

from .conftest import BERLIN, World, first_vehicle_state_seconds

OFFLINE_AFTER = timedelta(seconds=65)
FIRST = datetime(2026, 11, 15, tzinfo=BERLIN)  # Sunday 00:00
NOW = datetime(2026, 11, 25, 15, 10, tzinfo=BERLIN)  # Wednesday 15:10 (CET, 14:10 UTC)
THIS_WEEK = DaySpan(date(2026, 11, 23), date(2026, 11, 29))
CYCLE = timedelta(minutes=30)
WORK = timedelta(minutes=20)
VEHICLES = (1, 2)
LATE = Shift("late", time(14), time(22), frozenset(range(7)))
NIGHT = Shift("night", time(22), time(6), frozenset(range(7)))


def at(day: int, hour: int, minute: int = 0) -> datetime:
    """Berlin wall-clock time on November ``day`` as UTC."""
    return datetime(2026, 11, day, hour, minute, tzinfo=BERLIN).astimezone(UTC)


# --- where the previous period ends ------------------------------------------------------


@pytest.mark.parametrize(
    ("span", "now", "expected"),
    [
        # This week so far (Wednesday 15:10) against last week's Monday to Wednesday 15:10.
        (THIS_WEEK, NOW, datetime(2026, 11, 18, 15, 10, tzinfo=BERLIN)),
        # Today so far against yesterday up to the same time.
        (DaySpan(date(2026, 11, 25), date(2026, 11, 25)), NOW, at(24, 15, 10)),
        # November (30 days) on its 25th day: the 30 days before (2 to 31 October) on their
        # 25th day, 26 October, at 15:10 (after the change to CET: 14:10 UTC).
        (
            DaySpan(date(2026, 11, 1), date(2026, 11, 30)),
            NOW,
            datetime(2026, 10, 26, 14, 10, tzinfo=UTC),
        ),
        # The day after the change to winter time at 15:10: the day of the change (25 hours)
        # up to its 15:10 on the wall clock, 16 h 10 min of real time.
        (
            DaySpan(date(2026, 10, 26), date(2026, 10, 26)),
            datetime(2026, 10, 26, 15, 10, tzinfo=BERLIN),
            datetime(2026, 10, 25, 14, 10, tzinfo=UTC),
        ),
        # A period that has ended: the whole previous period.
        (DaySpan(date(2026, 11, 16), date(2026, 11, 22)), NOW, at(16, 0)),
        # A period in the future: an empty previous period (at its start).
        (DaySpan(date(2026, 11, 30), date(2026, 12, 6)), NOW, at(23, 0)),
    ],
)
def test_previous_period_ends_at_the_same_elapsed_time(
    span: DaySpan, now: datetime, expected: datetime
) -> None:
    assert previous_until(span, zone=BERLIN, now=now) == expected


# --- the hand-made fleet -----------------------------------------------------------------


def _pattern(vehicle_id: int, until: datetime) -> list[Fact]:
    facts: list[Fact] = []
    start = FIRST.astimezone(UTC)
    while start < until:
        work_end = min(start + WORK, until)
        facts.append(StateInterval(vehicle_id, VehicleState.WORKING, start, work_end))
        if start + WORK < until:
            idle_end = min(start + CYCLE, until)
            facts.append(StateInterval(vehicle_id, VehicleState.IDLE, start + WORK, idle_end))
        if start + WORK <= until:
            facts.append(
                OrderRun(
                    vehicle_id,
                    f"O-{start:%m%d%H%M}",
                    "W",
                    start,
                    start + WORK,
                    OrderOutcome.FINISHED,
                    10.0,
                    2,
                    2,
                    0,
                    0,
                    0,
                )
            )
        local = start.astimezone(BERLIN)
        if local.minute == 0 and local.hour % 6 == 0:
            level = "FATAL" if local.hour % 12 == 0 else "WARNING"
            error_start = start + timedelta(minutes=5)
            facts.append(
                ErrorEpisode(
                    vehicle_id,
                    "bumper",
                    level,
                    "",
                    "{}",
                    error_start,
                    error_start + timedelta(minutes=5),
                    None,
                    None,
                    "m",
                    "",
                )
            )
        start += CYCLE
    return facts


@pytest.fixture(scope="module")
def store() -> Iterator[FactStore]:
    until = NOW.astimezone(UTC)
    with FactStore(":memory:") as fact_store:
        live = {
            v: LiveStatus(
                v, VehicleState.WORKING, until, until, "", "", 50.0, False, (), None, None, ""
            )
            for v in VEHICLES
        }
        fact_store.write_batch(
            StoreBatch(
                facts=[fact for v in VEHICLES for fact in _pattern(v, until)],
                zones={v: (1, "Europe/Berlin") for v in VEHICLES},
                live=live,
            )
        )
        yield fact_store


def _scope(span: DaySpan, shift: Shift | None, *, combined: bool = True) -> AnalyticsScope:
    return AnalyticsScope(
        span=span,
        combined=combined,
        shift_id=shift.id if shift else "all",
        vehicles=[VehicleRef(v, f"V{v}", 1) for v in VEHICLES],
        sites=[SiteGroup(1, BERLIN, shift, excluded=False, vehicle_ids=list(VEHICLES))],
    )


def _expected(windows: list[tuple[datetime, datetime]]) -> dict[str, float]:
    """The pattern's figures for the fleet in ``windows``, counted from its definition."""
    totals = dict.fromkeys(("seconds", "working", "idle", "orders", "errors", "fatal"), 0.0)
    for start, end in windows:
        totals["seconds"] += len(VEHICLES) * (end - start).total_seconds()
        minute = FIRST.astimezone(UTC)
        while minute < end:
            local = minute.astimezone(BERLIN)
            if minute >= start:
                in_cycle = (local.minute % 30) < 20
                totals["working" if in_cycle else "idle"] += len(VEHICLES) * 60
                if local.minute % 30 == 20:
                    totals["orders"] += len(VEHICLES)  # an order ends at minute 20
                if local.minute == 5 and local.hour % 6 == 0:
                    totals["errors"] += len(VEHICLES)
                    totals["fatal"] += len(VEHICLES) * (local.hour % 12 == 0)
            minute += timedelta(minutes=1)
    return totals


def _assert_figures(
    entry: dict[str, Any], key: str, states: str, expected: dict[str, float]
) -> None:
    kpis = entry[key]
    assert kpis["periodSeconds"] == expected["seconds"]
    assert entry[states]["working"] == expected["working"]
    assert entry[states]["idle"] == expected["idle"]
    assert kpis["ordersFinished"] == expected["orders"]
    assert kpis["errors"] == expected["errors"]
    assert kpis["stopErrors"] == expected["fatal"]


def test_partial_week_against_last_week_so_far(store: FactStore) -> None:
    with reading(store) as cursor:
        data = productivity(
            cursor, _scope(THIS_WEEK, None), now=NOW, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
    # Monday 00:00 to Wednesday 15:10 on both sides: 63 h 10 min per vehicle; 126 cycles
    # and 10 minutes of working, 126 finished orders, 11 errors of which 6 FATAL each.
    hand = {
        "seconds": 2 * 227_400,
        "working": 2 * (126 * 20 + 10) * 60,
        "idle": 2 * 126 * 10 * 60,
        "orders": 2 * 126,
        "errors": 2 * 11,
        "fatal": 2 * 6,
    }
    assert _expected([(at(23, 0), at(25, 15, 10))]) == hand
    assert _expected([(at(16, 0), at(18, 15, 10))]) == hand
    fleet = data["fleet"]
    _assert_figures(fleet, "kpis", "states", hand)
    _assert_figures(fleet, "previous", "previousStates", hand)
    # The processes pages read the orders themselves (rows of T, not rollups).
    with reading(store) as cursor:
        orders = processes(cursor, _scope(THIS_WEEK, None), now=NOW).fleet
        table = workflows(
            cursor, _scope(THIS_WEEK, None), now=NOW, offline_after=OFFLINE_AFTER, sort=None
        )
    assert (orders.current.outcomes.finished, orders.previous.outcomes.finished) == (252, 252)
    assert orders.previous.cycle.p50_seconds == 20 * 60
    assert [(w.orders, w.previous_orders) for w in table.workflows] == [(252, 252)]
    assert data["period"] | {"vehicleIds": None} == {
        "from": "2026-11-23",
        "to": "2026-11-29",
        "previousFrom": "2026-11-16",
        "previousTo": "2026-11-22",
        "start": "2026-11-22T23:00:00Z",
        "end": "2026-11-25T14:10:00Z",
        "previousStart": "2026-11-15T23:00:00Z",
        "previousEnd": "2026-11-18T14:10:00Z",
        "running": True,
        "days": 7,
        "shift": "all",
        "combined": True,
        "vehicleIds": None,
    }


def test_partial_day_with_the_late_shift(store: FactStore) -> None:
    """Today's late shift so far (14:00-15:10) against yesterday's 14:00-15:10."""
    today = DaySpan(date(2026, 11, 25), date(2026, 11, 25))
    with reading(store) as cursor:
        data = productivity(
            cursor, _scope(today, LATE, combined=False), now=NOW, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
    hand = {"seconds": 2 * 70 * 60, "working": 2 * 50 * 60, "idle": 2 * 20 * 60}
    hand |= {"orders": 2 * 2, "errors": 0, "fatal": 0}
    assert _expected([(at(25, 14), at(25, 15, 10))]) == hand
    assert _expected([(at(24, 14), at(24, 15, 10))]) == hand
    _assert_figures(data["fleet"], "kpis", "states", hand)
    _assert_figures(data["fleet"], "previous", "previousStates", hand)
    assert data["entries"][0]["previous"]["periodSeconds"] == 70 * 60


@pytest.mark.parametrize(
    ("now", "windows"),
    [
        # After the night: Monday's and Tuesday's nights. A shift belongs to the day it
        # starts on, so the morning of Sunday's night (Monday 00:00-06:00) is last week's.
        (NOW, [((23, 22), (24, 6)), ((24, 22), (25, 6))]),
        # In the night, at 03:30: Tuesday's night so far.
        (
            datetime(2026, 11, 25, 3, 30, tzinfo=BERLIN),
            [((23, 22), (24, 6)), ((24, 22), (25, 3, 30))],
        ),
    ],
)
def test_partial_week_with_the_night_shift(
    store: FactStore, now: datetime, windows: list[tuple[tuple[int, ...], tuple[int, ...]]]
) -> None:
    current = [(at(*start), at(*end)) for start, end in windows]
    week = timedelta(days=7)
    previous = [(start - week, end - week) for start, end in current]
    with reading(store) as cursor:
        data = productivity(
            cursor, _scope(THIS_WEEK, NIGHT), now=now, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
        reliability = failures(
            cursor,
            _scope(THIS_WEEK, NIGHT),
            now=now,
            offline_after=OFFLINE_AFTER,
            errors=ErrorFilter(),
        ).model_dump(by_alias=True, mode="json")
    _assert_figures(data["fleet"], "kpis", "states", _expected(current))
    _assert_figures(data["fleet"], "previous", "previousStates", _expected(previous))
    assert data["fleet"]["kpis"]["periodSeconds"] == data["fleet"]["previous"]["periodSeconds"]
    # The failures page reads the episodes themselves (rows of T, not rollups).
    fleet = reliability["fleet"]
    assert fleet["current"]["episodes"] == _expected(current)["errors"]
    assert fleet["previous"]["episodes"] == _expected(previous)["errors"]
    assert fleet["previous"]["orders"] == _expected(previous)["orders"]


def test_history_leaves_out_future_days_and_marks_today(store: FactStore) -> None:
    with reading(store) as cursor:
        data = productivity_history(
            cursor, _scope(THIS_WEEK, None), now=NOW, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
    assert data["buckets"] == [
        {"from": "2026-11-23", "to": "2026-11-23", "partial": False},
        {"from": "2026-11-24", "to": "2026-11-24", "partial": False},
        {"from": "2026-11-25", "to": "2026-11-25", "partial": True},
    ]
    assert data["previousBuckets"] == [
        {"from": "2026-11-16", "to": "2026-11-16", "partial": False},
        {"from": "2026-11-17", "to": "2026-11-17", "partial": False},
        {"from": "2026-11-18", "to": "2026-11-18", "partial": True},
    ]
    # 48 orders a day per vehicle; Wednesday to 15:10: 30.
    assert data["kpis"]["ordersFinished"] == [[96, 96, 60]]
    assert data["previous"]["ordersFinished"] == [[96, 96, 60]]
    assert data["kpis"]["periodSeconds"] == [[2 * 86_400, 2 * 86_400, 2 * 54_600]]
    with reading(store) as cursor:
        board = dashboard(
            cursor, _scope(THIS_WEEK, None), now=NOW, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
    orders = next(tile for tile in board["tiles"] if tile["key"] == "orders")
    assert (orders["value"], orders["previous"]) == (252, 252)
    assert orders["series"] == [
        {"from": "2026-11-23", "value": 96, "partial": False},
        {"from": "2026-11-24", "value": 96, "partial": False},
        {"from": "2026-11-25", "value": 60, "partial": True},
    ]


def test_history_compares_each_bucket_with_as_long_a_stretch(store: FactStore) -> None:
    """60 days (Thu 1 October to Sun 29 November) in weeks: the previous period (2 August to
    30 September) is drawn in T's weeks moved back 60 days, point by point as long; in weeks
    of its own, 4 days would stand against 1 and the running week against one to Saturday."""
    span = DaySpan(date(2026, 10, 1), date(2026, 11, 29))
    with reading(store) as cursor:
        data = productivity_history(
            cursor, _scope(span, None), now=NOW, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
    assert data["granularity"] == "week"
    previous = [(b["from"], b["to"], b["partial"]) for b in data["previousBuckets"]]
    assert previous[:2] == [
        ("2026-08-02", "2026-08-05", False),
        ("2026-08-06", "2026-08-12", False),
    ]
    assert previous[-1] == ("2026-09-24", "2026-09-30", True)  # to Sat 26 September 15:10
    assert len(previous) == len(data["buckets"]) == 9
    day, running = 2 * 86_400, 2 * (2 * 86_400 + 15 * 3_600 + 600)  # two vehicles
    week_lengths = [4 * day] + [7 * day] * 7 + [running]
    assert data["previous"]["periodSeconds"] == [week_lengths]
    # The same stretches of T, the week of the clock change (19-25 October) an hour longer.
    assert data["kpis"]["periodSeconds"] == [
        [s + (2 * 3_600 if i == 3 else 0) for i, s in enumerate(week_lengths)]
    ]


def test_history_of_a_leap_year_compares_month_by_month(store: FactStore) -> None:
    """2028 has 366 days, so its previous period begins on 31 December 2026: each month of
    2028 stands against as many days moved back 366, twelve points against twelve."""
    with reading(store) as cursor:
        data = productivity_history(
            cursor,
            _scope(DaySpan(date(2028, 1, 1), date(2028, 12, 31)), None),
            now=datetime(2029, 6, 1, tzinfo=BERLIN),
            offline_after=OFFLINE_AFTER,
        ).model_dump(by_alias=True, mode="json")
    assert data["granularity"] == "month"
    previous = [(b["from"], b["to"]) for b in data["previousBuckets"]]
    assert len(previous) == len(data["buckets"]) == 12
    assert previous[:2] == [("2026-12-31", "2027-01-30"), ("2027-01-31", "2027-02-28")]
    assert previous[-1] == ("2027-12-01", "2027-12-31")


def test_late_shift_not_begun_today_is_not_drawn(store: FactStore) -> None:
    """Wednesday 10:00 with the late shift: today's bucket lies wholly in the future."""
    with reading(store) as cursor:
        data = productivity_history(
            cursor,
            _scope(THIS_WEEK, LATE),
            now=datetime(2026, 11, 25, 10, tzinfo=BERLIN),
            offline_after=OFFLINE_AFTER,
        ).model_dump(by_alias=True, mode="json")
    assert [b["from"] for b in data["buckets"]] == ["2026-11-23", "2026-11-24"]
    assert [b["partial"] for b in data["buckets"]] == [False, False]
    assert [b["from"] for b in data["previousBuckets"]] == ["2026-11-16", "2026-11-17"]
    assert data["kpis"]["ordersFinished"] == data["previous"]["ordersFinished"] == [[32, 32]]


def test_period_in_the_future_has_no_buckets(store: FactStore) -> None:
    next_week = DaySpan(date(2026, 11, 30), date(2026, 12, 6))
    with reading(store) as cursor:
        history = productivity_history(
            cursor, _scope(next_week, None), now=NOW, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
        board = dashboard(
            cursor, _scope(next_week, None), now=NOW, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
    assert history["buckets"] == history["previousBuckets"] == []
    assert history["kpis"]["ordersFinished"] == [[]]
    assert history["period"]["end"] == history["period"]["start"] == "2026-11-29T23:00:00Z"
    assert history["period"]["previousEnd"] == history["period"]["previousStart"]
    orders = next(tile for tile in board["tiles"] if tile["key"] == "orders")
    # An empty previous period (nothing recorded) is no comparison, not 0 orders.
    assert (orders["value"], orders["previous"], orders["series"]) == (0, None, [])


def test_workflow_trend_only_against_a_previous_period_that_recorded(store: FactStore) -> None:
    """The fleet's first day (Sunday 15 November) against the Saturday before, when nothing
    was recorded: no comparison (not "+96"); the Monday after against that Sunday: ±0."""
    with reading(store) as cursor:
        first, monday = (
            workflows(
                cursor,
                _scope(DaySpan(date(2026, 11, day), date(2026, 11, day)), None),
                now=NOW,
                offline_after=OFFLINE_AFTER,
                sort="-ordersTrend",
            )
            for day in (15, 16)
        )
    assert not first.previous_recorded
    assert [(w.orders, w.previous_orders, w.orders_trend) for w in first.workflows] == [(96, 0, 96)]
    assert monday.previous_recorded
    assert [(w.orders, w.previous_orders, w.orders_trend) for w in monday.workflows] == [
        (96, 96, 0)
    ]


def _vehicle_3_scope(day: int) -> AnalyticsScope:
    """Vehicle 3 of site 1 (Berlin) on one day of November 2026, combined, all shifts."""
    return AnalyticsScope(
        span=DaySpan(date(2026, 11, day), date(2026, 11, day)),
        combined=True,
        shift_id="all",
        vehicles=[VehicleRef(3, "V3", 1)],
        sites=[SiteGroup(1, BERLIN, None, excluded=False, vehicle_ids=[3])],
    )


@contextmanager
def _vehicle_3_store(facts: list[Fact], *, working_until: datetime) -> Iterator[FactStore]:
    """A store of its own with ``facts`` of vehicle 3, working from ``working_until`` on."""
    end = working_until
    live = LiveStatus(3, VehicleState.WORKING, end, end, "", "", 50.0, False, (), None, None, "")
    with FactStore(":memory:") as own:
        own.write_batch(StoreBatch(facts=facts, zones={3: (1, "Europe/Berlin")}, live={3: live}))
        yield own


def test_a_previous_period_spent_offline_is_compared_with_0() -> None:
    """Vehicle 3 works on Sunday 15 November, is offline all Monday (connected, silent) and
    works on Tuesday: Tuesday's orders compare with Monday's 0 (not "no comparison"), while
    Sunday, its first day, has no comparison with the Saturday before it reported at all."""
    sunday, monday, tuesday = (at(day, 0) for day in (15, 16, 17))
    end = at(18, 0)

    def order(start: datetime) -> OrderRun:
        return OrderRun(3, f"X-{start:%d}", "W", start, start + WORK, OrderOutcome.FINISHED,
                        10.0, 2, 2, 0, 0, 0)  # fmt: skip

    facts: list[Fact] = [
        StateInterval(3, VehicleState.WORKING, sunday, monday),
        StateInterval(3, VehicleState.OFFLINE, monday, tuesday),
        StateInterval(3, VehicleState.WORKING, tuesday, end),
        order(sunday),
        order(tuesday),
    ]
    days = (15, 17)
    with _vehicle_3_store(facts, working_until=end) as own, reading(own) as cursor:
        boards = {
            day: dashboard(cursor, _vehicle_3_scope(day), now=NOW, offline_after=OFFLINE_AFTER)
            for day in days
        }
        trends = {
            day: workflows(
                cursor,
                _vehicle_3_scope(day),
                now=NOW,
                offline_after=OFFLINE_AFTER,
                sort="-ordersTrend",
            )
            for day in days
        }
    tiles = {day: {tile.key: tile for tile in boards[day].tiles} for day in days}
    assert (tiles[17]["orders"].value, tiles[17]["orders"].previous) == (1, 0)
    assert trends[17].previous_recorded
    assert (tiles[15]["orders"].value, tiles[15]["orders"].previous) == (1, None)
    assert not trends[15].previous_recorded


def test_the_dashboard_and_workflows_tell_how_much_of_each_period_was_recorded() -> None:
    """Vehicle 3 reports from Sunday 15 November 18:00 on: Monday is recorded whole, the
    Sunday before it for its last 6 hours (the web app's note), the Saturday not at all. The
    Workflows answer (whose order counts are compared) says the same as the dashboard."""
    facts: list[Fact] = [StateInterval(3, VehicleState.WORKING, at(15, 18), at(17, 0))]
    with _vehicle_3_store(facts, working_until=at(17, 0)) as own, reading(own) as cursor:
        boards = [
            dashboard(cursor, _vehicle_3_scope(day), now=NOW, offline_after=OFFLINE_AFTER)
            for day in (16, 15)
        ]
        lists = [
            workflows(
                cursor,
                _vehicle_3_scope(day),
                now=NOW,
                offline_after=OFFLINE_AFTER,
                sort=None,
            )
            for day in (16, 15)
        ]
    day_s = 24 * 3600.0
    for monday, sunday in (boards, lists):
        assert (monday.coverage.period_seconds, monday.coverage.no_data_seconds) == (day_s, 0)
        previous = monday.previous_coverage
        assert (previous.period_seconds, previous.no_data_seconds) == (day_s, 18 * 3600)
        assert (sunday.previous_coverage.no_data_seconds, sunday.coverage.no_data_seconds) == (
            day_s,
            18 * 3600,
        )
    assert (lists[0].previous_recorded, lists[1].previous_recorded) == (True, False)


def test_workflows_sort_by_the_previous_success_rate_with_none_last() -> None:
    """Monday 16 November: A's orders succeeded on Sunday half the time, B's always, C had
    none on Sunday (no rate: last, whichever the direction); Monday's own rates are the
    other way round, so a sort by them would give the opposite order."""
    sunday, monday = at(15, 8), at(16, 8)

    def order(workflow: str, start: datetime, outcome: OrderOutcome, n: int) -> OrderRun:
        return OrderRun(3, f"{workflow}-{start:%d}-{n}", workflow, start + n * WORK,
                        start + (n + 1) * WORK, outcome, 10.0, 2, 2, 0, 0, 0)  # fmt: skip

    done, failed = OrderOutcome.FINISHED, OrderOutcome.FAILED
    facts: list[Fact] = [
        StateInterval(3, VehicleState.WORKING, at(15, 0), at(17, 0)),
        order("A", sunday, done, 0),
        order("A", sunday, failed, 1),
        order("B", sunday, done, 2),
        order("A", monday, done, 0),
        order("B", monday, failed, 1),
        order("C", monday, done, 2),
    ]
    with _vehicle_3_store(facts, working_until=at(17, 0)) as own, reading(own) as cursor:
        ordered = {
            sort: [
                (row.workflow, row.previous_success_rate)
                for row in workflows(
                    cursor, _vehicle_3_scope(16), now=NOW, offline_after=OFFLINE_AFTER, sort=sort
                ).workflows
            ]
            for sort in ("previousSuccessRate", "-previousSuccessRate")
        }
    assert ordered["previousSuccessRate"] == [("A", 0.5), ("B", 1.0), ("C", None)]
    assert ordered["-previousSuccessRate"] == [("B", 1.0), ("A", 0.5), ("C", None)]


# --- the simulated fleet: a partial day across the end of daylight-saving time -----------


def test_partial_day_against_the_simulators_truth(
    app: FastAPI, running: TestClient, world: World
) -> None:
    """Monday 26 October at 15:10 (CET): today so far against Sunday 25 October 00:00 to
    15:10 on the wall clock, which is 16 h 10 min (the clock went back at 03:00)."""

    def berlin(day: int, hour: int = 0, minute: int = 0) -> datetime:
        # In UTC: differences of datetimes sharing one tzinfo are wall-clock differences.
        return datetime(2026, 10, day, hour, minute, tzinfo=BERLIN).astimezone(UTC)

    now = berlin(26, 15, 10)
    current = (berlin(26), now)
    previous = (berlin(25), berlin(25, 15, 10))
    assert (previous[1] - previous[0]).total_seconds() == 16 * 3600 + 600
    first = world.vehicle_id("HAM-01")
    site = world.demo.site_ids["Hamburg DC"]
    scope = AnalyticsScope(
        span=DaySpan(date(2026, 10, 26), date(2026, 10, 26)),
        combined=False,
        shift_id="all",
        vehicles=[VehicleRef(first, "HAM-01", site)],
        sites=[SiteGroup(site, BERLIN, None, excluded=False, vehicle_ids=[first])],
    )
    with reading(app.state.ingestion.store) as cursor:
        data = productivity(cursor, scope, now=now, offline_after=OFFLINE_AFTER).model_dump(
            by_alias=True, mode="json"
        )
    entry = data["entries"][0]
    for key, states, (start, end) in (
        ("kpis", "states", current),
        ("previous", "previousStates", previous),
    ):
        truth = first_vehicle_state_seconds(world, start, end)
        assert entry[key]["periodSeconds"] == (end - start).total_seconds()
        for state, seconds in truth.items():
            assert abs(entry[states][state] - seconds) <= 1.0, (key, state)
        finished = [
            o
            for o in world.truth.orders
            if o.serial_number == "HAM-01"
            and o.outcome == "finished"
            and o.end is not None
            and start <= o.end < end
        ]
        errors = [
            e
            for e in world.truth.error_episodes
            if e.serial_number == "HAM-01" and start <= e.start < end
        ]
        assert entry[key]["ordersFinished"] == len(finished) > 0
        assert entry[key]["errors"] == len(errors)
    assert data["period"]["previousEnd"] == "2026-10-25T14:10:00Z"


def test_no_vehicle_selected_draws_utc_days_up_to_now(store: FactStore) -> None:
    empty = AnalyticsScope(span=THIS_WEEK, combined=True, shift_id="all", vehicles=[], sites=[])
    with reading(store) as cursor:
        data = productivity_history(cursor, empty, now=NOW, offline_after=OFFLINE_AFTER).model_dump(
            by_alias=True, mode="json"
        )
    assert [(b["from"], b["partial"]) for b in data["buckets"]] == [
        ("2026-11-23", False),
        ("2026-11-24", False),
        ("2026-11-25", True),
    ]
    # Nothing selected, nothing recorded: no data in every bucket (a gap), not 0 orders.
    assert data["kpis"]["ordersFinished"] == [[None, None, None]]
    assert (data["period"]["start"], data["period"]["end"]) == (
        "2026-11-23T00:00:00Z",
        "2026-11-25T14:10:00Z",
    )
