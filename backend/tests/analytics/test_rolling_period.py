"""A rolling period (the last 24 hours; ``since``/``until``), a night shift running after
midnight, and a saved relative range read as of now, with the clock fixed.

The hand-made fleet of ``test_comparison`` (two Berlin vehicles, a 30-minute cycle of 20 min
working and 10 min idle from midnight, an order ending at minute 20 of each cycle, an error
episode at minute 5 of every sixth hour, FATAL at 00:05 and 12:05, WARNING at 06:05 and
18:05) runs up to Wednesday 25 November 2026 15:10, the fixed now. Every figure below is
counted by hand from that pattern.
"""

from collections.abc import Iterator
from datetime import UTC, date, datetime, time
from typing import Any

import pytest

from fleetscope.analytics.core.comparison import period_instants
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan, Shift, Window, rolling_span, touched_days
from fleetscope.analytics.dashboards.dashboard import dashboard
from fleetscope.analytics.failures.failures import ErrorFilter, failures
from fleetscope.analytics.processes.orders import processes
from fleetscope.analytics.productivity.history import productivity_history
from fleetscope.analytics.productivity.productivity import productivity
from fleetscope.api.analytics_deps import reading
from fleetscope.facts.model import LiveStatus, VehicleState
from fleetscope.facts.store import FactStore, StoreBatch

from .conftest import BERLIN
from .test_comparison import NIGHT, NOW, OFFLINE_AFTER, VEHICLES, _pattern, at

DAY_S = 86_400


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


def _scope(span: DaySpan, shift: Shift | None = None) -> AnalyticsScope:
    return AnalyticsScope(
        span=span,
        combined=True,
        shift_id=shift.id if shift else "all",
        vehicles=[VehicleRef(v, f"V{v}", 1) for v in VEHICLES],
        sites=[SiteGroup(1, BERLIN, shift, excluded=False, vehicle_ids=list(VEHICLES))],
    )


def _rolling(start: datetime, end: datetime, shift: Shift | None = None) -> AnalyticsScope:
    return _scope(rolling_span(Window(start, end), sites=[(BERLIN, shift)]), shift)


def _productivity(scope: AnalyticsScope, store: FactStore, now: datetime) -> dict[str, Any]:
    with reading(store) as cursor:
        out = productivity(cursor, scope, now=now, offline_after=OFFLINE_AFTER)
    return out.model_dump(by_alias=True, mode="json")


def _figures(kpis: dict[str, Any]) -> tuple[float, int, int, int]:
    return (kpis["periodSeconds"], kpis["ordersFinished"], kpis["errors"], kpis["stopErrors"])


# --- the last 24 hours -------------------------------------------------------------------


def test_last_24_hours_across_midnight_against_the_24_hours_before(store: FactStore) -> None:
    """Tuesday 15:10 to Wednesday 15:10 against Monday 15:10 to Tuesday 15:10."""
    scope = _rolling(at(24, 15, 10), at(25, 15, 10))
    data = _productivity(scope, store, NOW)
    fleet = data["fleet"]
    # Per vehicle: 24 h; working 10 min (Tuesday 15:10-15:20) + 47 whole cycles of 20 min +
    # 10 min (Wednesday 15:00-15:10) = 960 min, idle 10 + 47 x 10 = 480 min; orders ending at
    # 15:20, 15:50, ... 14:50: 48; errors at 18:05 (W), 00:05 (F), 06:05 (W), 12:05 (F).
    assert _figures(fleet["kpis"]) == (2 * DAY_S, 2 * 48, 2 * 4, 2 * 2)
    assert (fleet["states"]["working"], fleet["states"]["idle"]) == (2 * 960 * 60, 2 * 480 * 60)
    # The 24 hours before hold the same pattern: Monday 18:05 (W) to Tuesday 12:05 (F).
    assert _figures(fleet["previous"]) == (2 * DAY_S, 2 * 48, 2 * 4, 2 * 2)
    assert data["period"] | {"vehicleIds": None} == {
        "from": "2026-11-24",
        "to": "2026-11-25",
        "previousFrom": "2026-11-23",
        "previousTo": "2026-11-24",
        "start": "2026-11-24T14:10:00Z",
        "end": "2026-11-25T14:10:00Z",
        "previousStart": "2026-11-23T14:10:00Z",
        "previousEnd": "2026-11-24T14:10:00Z",
        "running": False,
        "days": 2,
        "shift": "all",
        "combined": True,
        "vehicleIds": None,
    }
    # The pages that read the facts themselves (processes, failures) see the same rows.
    with reading(store) as cursor:
        orders = processes(cursor, scope, now=NOW).fleet
        reliability = failures(
            cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, errors=ErrorFilter()
        ).model_dump(by_alias=True, mode="json")
    assert (orders.current.outcomes.finished, orders.previous.outcomes.finished) == (96, 96)
    assert reliability["fleet"]["current"]["episodes"] == 8
    assert reliability["fleet"]["previous"]["episodes"] == 8


def test_last_24_hours_in_day_buckets_on_both_sides_of_midnight(store: FactStore) -> None:
    scope = _rolling(at(24, 15, 10), at(25, 15, 10))
    with reading(store) as cursor:
        history = productivity_history(
            cursor, scope, now=NOW, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
        board = dashboard(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER).model_dump(
            by_alias=True, mode="json"
        )
    # Both days are cut by the instants: partial.
    assert history["buckets"] == [
        {"from": "2026-11-24", "to": "2026-11-24", "partial": True},
        {"from": "2026-11-25", "to": "2026-11-25", "partial": True},
    ]
    assert [b["from"] for b in history["previousBuckets"]] == ["2026-11-23", "2026-11-24"]
    # Tuesday 15:10-24:00: 8 h 50 min, orders 15:20 .. 23:50 (18); Wednesday 00:00-15:10:
    # 15 h 10 min, orders 00:20 .. 14:50 (30); per vehicle.
    assert history["kpis"]["periodSeconds"] == [[2 * 31_800, 2 * 54_600]]
    assert history["kpis"]["ordersFinished"] == [[36, 60]]
    assert history["previous"]["ordersFinished"] == [[36, 60]]
    errors = next(tile for tile in board["tiles"] if tile["key"] == "errors")
    # Tuesday 18:05; Wednesday 00:05, 06:05, 12:05 (per vehicle).
    assert [p["value"] for p in errors["series"]] == [2, 6]
    orders = next(tile for tile in board["tiles"] if tile["key"] == "orders")
    assert (orders["value"], orders["previous"]) == (96, 96)
    assert [(p["from"], p["value"], p["partial"]) for p in orders["series"]] == [
        ("2026-11-24", 36, True),
        ("2026-11-25", 60, True),
    ]


def test_running_rolling_period_is_compared_at_the_same_elapsed_time(store: FactStore) -> None:
    """Wednesday 03:10 to 21:10 at 15:10: 12 hours so far, against Tuesday 09:10 to 21:10."""
    data = _productivity(_rolling(at(25, 3, 10), at(25, 21, 10)), store, NOW)
    # Orders 03:20 .. 14:50 (24), errors 06:05 (W), 12:05 (F); before: 09:20 .. 20:50 (24),
    # 12:05 (F), 18:05 (W).
    assert _figures(data["fleet"]["kpis"]) == (2 * 43_200, 48, 4, 2)
    assert _figures(data["fleet"]["previous"]) == (2 * 43_200, 48, 4, 2)
    period = data["period"]
    assert (period["start"], period["end"], period["running"]) == (
        "2026-11-25T02:10:00Z",
        "2026-11-25T14:10:00Z",
        True,
    )
    assert (period["previousStart"], period["previousEnd"]) == (
        "2026-11-24T08:10:00Z",
        "2026-11-24T20:10:00Z",
    )


def test_last_24_hours_of_the_night_shift_at_three(store: FactStore) -> None:
    """At Wednesday 03:10: the end of Monday's night shift (Tuesday 03:10-06:00) and
    Tuesday's so far (22:00-03:10), 8 hours; the night shift belongs to the day it starts."""
    now = datetime(2026, 11, 25, 3, 10, tzinfo=BERLIN)
    scope = _rolling(at(24, 3, 10), at(25, 3, 10), NIGHT)
    data = _productivity(scope, store, now)
    # Orders 03:20 .. 05:50 (6) and 22:20 .. 02:50 (10); the error at 00:05 (FATAL).
    assert _figures(data["fleet"]["kpis"]) == (2 * 28_800, 32, 2, 2)
    assert _figures(data["fleet"]["previous"]) == (2 * 28_800, 32, 2, 2)
    period = data["period"]
    assert (period["from"], period["to"]) == ("2026-11-23", "2026-11-24")
    assert (period["previousFrom"], period["previousTo"]) == ("2026-11-22", "2026-11-23")
    with reading(store) as cursor:
        history = productivity_history(
            cursor, scope, now=now, offline_after=OFFLINE_AFTER
        ).model_dump(by_alias=True, mode="json")
    assert history["kpis"]["periodSeconds"] == [[2 * 10_200, 2 * 18_600]]
    assert history["kpis"]["ordersFinished"] == [[12, 20]]


def test_days_a_rolling_period_touches() -> None:
    clip = Window(at(24, 3, 10), at(25, 3, 10))
    assert touched_days(clip, zone=BERLIN, shift=None) == (date(2026, 11, 24), date(2026, 11, 25))
    assert touched_days(clip, zone=BERLIN, shift=NIGHT) == (date(2026, 11, 23), date(2026, 11, 24))
    # At 15:10 the night shift of two evenings ago has ended before the clip begins.
    later = Window(at(24, 15, 10), at(25, 15, 10))
    assert touched_days(later, zone=BERLIN, shift=NIGHT) == (date(2026, 11, 24), date(2026, 11, 24))
    # Ending exactly at midnight: the next day is not touched.
    assert touched_days(Window(at(24, 0), at(25, 0)), zone=BERLIN, shift=None) == (
        date(2026, 11, 24),
        date(2026, 11, 24),
    )


# --- a night shift running after midnight -------------------------------------------------


def test_night_shift_of_yesterday_still_running_after_midnight(store: FactStore) -> None:
    """Tuesday with the night shift at Wednesday 03:10: Tuesday's night shift runs until
    06:00, so the period runs; the previous day is Monday's night up to Tuesday 03:10."""
    now = datetime(2026, 11, 25, 3, 10, tzinfo=BERLIN)
    scope = _scope(DaySpan(date(2026, 11, 24), date(2026, 11, 24)), NIGHT)
    instants = period_instants(scope, now=now)
    assert instants.running
    assert instants.end == at(25, 3, 10)
    assert instants.previous_end == at(24, 3, 10)
    assert (instants.start, instants.previous_start) == (at(24, 0), at(23, 0))
    data = _productivity(scope, store, now)
    # 22:00-03:10: 5 h 10 min, orders 22:20 .. 02:50 (10), the error at 00:05 (FATAL).
    assert _figures(data["fleet"]["kpis"]) == (2 * 18_600, 20, 2, 2)
    assert _figures(data["fleet"]["previous"]) == (2 * 18_600, 20, 2, 2)
    assert (data["period"]["end"], data["period"]["previousEnd"]) == (
        "2026-11-25T02:10:00Z",
        "2026-11-24T02:10:00Z",
    )
    assert data["period"]["running"] is True
    # After 06:00 the shift has ended: the whole of both nights.
    done = period_instants(scope, now=datetime(2026, 11, 25, 7, tzinfo=BERLIN))
    assert (done.running, done.end, done.previous_end) == (False, at(25, 6), at(24, 6))
    # Without a shift, Tuesday ended at midnight.
    whole_day = _scope(DaySpan(date(2026, 11, 24), date(2026, 11, 24)))
    assert not period_instants(whole_day, now=now).running


def test_a_shift_that_ended_earlier_today_has_ended_its_period() -> None:
    """Wednesday's late shift (14:00-22:00) at 23:10: T is over, so the period no longer runs
    and the previous one is Tuesday's whole late shift; while it runs, both are clipped."""
    late = Shift("late", time(14), time(22), frozenset(range(7)))
    scope = _scope(DaySpan(date(2026, 11, 25), date(2026, 11, 25)), late)
    ended = period_instants(scope, now=datetime(2026, 11, 25, 23, 10, tzinfo=BERLIN))
    assert (ended.running, ended.end, ended.previous_end) == (False, at(25, 22), at(24, 22))
    runs = period_instants(scope, now=datetime(2026, 11, 25, 21, 10, tzinfo=BERLIN))
    assert (runs.running, runs.end, runs.previous_end) == (True, at(25, 21, 10), at(24, 21, 10))


def test_rolling_period_made_without_sites_reads_utc_days() -> None:
    span = rolling_span(Window(at(24, 15, 10), at(25, 15, 10)), sites=[])
    assert (span.first, span.last) == (date(2026, 11, 24), date(2026, 11, 25))
    assert span.previous().clip == Window(at(23, 15, 10), at(24, 15, 10))
    assert (span.previous().first, span.previous().last) == (date(2026, 11, 23), date(2026, 11, 24))
