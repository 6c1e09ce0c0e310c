"""The KPI glossary's settled definitions (product.md section 3) against hand-computed cases:
time-weighted mean charge, equivalent full cycles in a shift, time below 20 % to the second,
loads handled with load and unload, a night shift counted on the day it starts, the
dashboard's cycle-time median equal to the Processes page's, and the fleet's throughput per
calendar hour across sites in different time zones.

The battery cases run VDA 5050 state messages through the derivation into a fact store, as
ingestion does; the others write facts by hand. Monday 2 March 2026 in Berlin (CET, UTC+1).
"""

from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from fleetscope.analytics.battery.battery import battery
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan, Shift, Window, rolling_span
from fleetscope.analytics.dashboards.dashboard import dashboard
from fleetscope.analytics.processes.orders import processes
from fleetscope.analytics.productivity.history import productivity_history
from fleetscope.analytics.productivity.productivity import productivity
from fleetscope.api.analytics_deps import reading
from fleetscope.derive import DerivationConfig, VehicleDeriver
from fleetscope.facts.model import (
    ActionRecord,
    Fact,
    OrderOutcome,
    OrderRun,
    StateInterval,
    VehicleState,
)
from fleetscope.facts.store import FactStore, StoreBatch
from fleetscope.vda5050.model import Battery, Header, OperatingMode, StateMessage

BERLIN = ZoneInfo("Europe/Berlin")
OFFLINE_AFTER = timedelta(seconds=65)
MONDAY = DaySpan(date(2026, 3, 2), date(2026, 3, 2))
NOW = datetime(2026, 3, 6, 12, tzinfo=UTC)  # Friday: every period below has ended
EARLY = Shift("early", time(6), time(14), frozenset(range(7)))
LATE = Shift("late", time(14), time(22), frozenset(range(7)))
NIGHT = Shift("night", time(22), time(6), frozenset(range(7)))


def local(day: int, hour: int, minute: int = 0, second: int = 0) -> datetime:
    """Berlin wall-clock time on March ``day`` as UTC."""
    return datetime(2026, 3, day, hour, minute, second, tzinfo=BERLIN).astimezone(UTC)


def _scope(span: DaySpan, shift: Shift | None, vehicle_ids: Sequence[int]) -> AnalyticsScope:
    return AnalyticsScope(
        span=span,
        combined=True,
        shift_id=shift.id if shift else "all",
        vehicles=[VehicleRef(v, f"V{v}", 1) for v in vehicle_ids],
        sites=[SiteGroup(1, BERLIN, shift, excluded=False, vehicle_ids=list(vehicle_ids))],
    )


def _store(facts: list[Fact], vehicle_ids: Sequence[int]) -> FactStore:
    store = FactStore(":memory:")
    store.write_batch(StoreBatch(facts=facts, zones={v: (1, "Europe/Berlin") for v in vehicle_ids}))
    return store


def _derived(
    vehicle_id: int,
    reports: list[tuple[datetime, float, bool]],
    deriver: VehicleDeriver | None = None,
) -> list[Fact]:
    """The facts of state messages reporting (time, charge, charging), one per report."""
    deriver = deriver or VehicleDeriver(vehicle_id=vehicle_id, config=DerivationConfig())
    facts: list[Fact] = []
    for header_id, (at, charge, charging) in enumerate(reports, start=1):
        header = Header("uagv", "v2", "2.0.0", "acme", f"agv-{vehicle_id}", header_id, at)
        message = StateMessage(
            header,
            "",
            0,
            "",
            0,
            (),
            (),
            (),
            (),
            False,
            False,
            OperatingMode("AUTOMATIC"),
            Battery(charge, charging),
            None,
        )
        facts.extend(deriver.feed(message))
    return facts


# --- mean charge and equivalent full cycles ----------------------------------------------


def _charge_day() -> list[tuple[datetime, float, bool]]:
    """12:59-13:59 every minute 60 % down to 30 % (0.5 points a minute); charging from
    14:00 every 20 s one point more, 30 % to 89 % (14:19:40); from 14:20 at 90 %, not
    charging, every minute until 22:30. Charging reports are denser: a mean of the samples
    would weigh them three times."""
    reports = [(local(2, 12, 59) + timedelta(minutes=m), 60 - 0.5 * m, False) for m in range(61)]
    reports += [(local(2, 14) + timedelta(seconds=20 * k), 30.0 + k, True) for k in range(60)]
    reports += [(local(2, 14, 20) + timedelta(minutes=m), 90.0, False) for m in range(491)]
    return reports


@pytest.fixture(scope="module")
def charge_store() -> Iterator[FactStore]:
    with _store(_derived(1, _charge_day()), [1]) as store:
        yield store


def _battery_figures(store: FactStore, shift: Shift) -> dict[str, object]:
    with reading(store) as cursor:
        out = battery(
            cursor, _scope(MONDAY, shift, [1]), now=NOW, offline_after=OFFLINE_AFTER, capacities={}
        )
    figures: dict[str, object] = dict(out.fleet["current"])
    return figures


@pytest.mark.parametrize("use_rollups", [True, False])
def test_mean_charge_is_time_weighted(charge_store: FactStore, use_rollups: bool) -> None:
    # Late shift 14:00-22:00 (28,800 s): 30 % ... 89 % for 20 s each, then 90 % for the
    # 460 minutes from 14:20 to 22:00.
    held = sum(30 + k for k in range(60)) * 20 + 90 * 460 * 60
    assert held == 2_555_400
    expected = held / 28_800  # 88.729166...
    assert _battery_figures(charge_store, LATE)["mean_charge"] == pytest.approx(expected, abs=1e-9)
    with reading(charge_store) as cursor:
        kpis = productivity(
            cursor,
            _scope(MONDAY, LATE, [1]),
            now=NOW,
            offline_after=OFFLINE_AFTER,
            use_rollups=use_rollups,
        ).fleet.kpis
    assert kpis.mean_charge == pytest.approx(expected, abs=1e-9)
    # The samples' plain mean would be (sum 30..89 + 460 x 90) / 520 = 86.48.
    assert abs(expected - 86.48) > 2


def test_equivalent_full_cycles_count_the_discharge_inside_the_shift(
    charge_store: FactStore,
) -> None:
    late = _battery_figures(charge_store, LATE)
    # Only charging in the late shift: no discharge, whatever the session's depth (30 points).
    assert late["sessions"]["equivalent_full_cycles"] == 0.0  # type: ignore[index]
    assert late["sessions"]["discharged"] == 30.0  # type: ignore[index]
    # The early shift holds the 30 points discharged from 12:59 to 13:59.
    early = _battery_figures(charge_store, EARLY)
    assert early["sessions"]["equivalent_full_cycles"] == pytest.approx(0.30, abs=1e-12)  # type: ignore[index]


def _silent_gap_reports() -> list[tuple[datetime, float, bool]]:
    """10:00:00 80 %, 10:00:30 60 %, silence (offline from 10:01:35, offline_after after
    the last report), back at 10:05:00 with 50 %, 10:05:30 40 %, 10:06:00 39 %."""
    return [
        (local(2, 10), 80.0, False),
        (local(2, 10, 0, 30), 60.0, False),
        (local(2, 10, 5), 50.0, False),
        (local(2, 10, 5, 30), 40.0, False),
        (local(2, 10, 6), 39.0, False),
    ]


@pytest.mark.parametrize("use_rollups", [True, False])
def test_the_last_report_before_offline_holds_until_offline(use_rollups: bool) -> None:
    """Each reported charge holds until the next report, and the last one before the vehicle
    goes offline until it does; nothing holds while offline: 80 % x 30 s, 60 % x 65 s,
    50 % x 30 s, 40 % x 30 s over 155 s (the last report holds nothing: none follows)."""
    expected = (80 * 30 + 60 * 65 + 50 * 30 + 40 * 30) / 155  # 58.06...
    with _store(_derived(3, _silent_gap_reports()), [3]) as store, reading(store) as cursor:
        scope = _scope(MONDAY, None, [3])
        out = battery(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, capacities={})
        kpis = productivity(
            cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, use_rollups=use_rollups
        ).fleet.kpis
    assert out.fleet["current"]["mean_charge"] == pytest.approx(expected, abs=1e-9)
    assert kpis.mean_charge == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("use_rollups", [True, False])
def test_a_running_period_counts_the_charge_held_up_to_now(use_rollups: bool) -> None:
    """Today so far, the vehicle online: 10:00:00 30 %, 10:00:30 25 %, 10:01:00 19.5 %, now
    10:01:15. Each charge holds until the next report, the last one until now: mean charge
    (30 x 30 + 25 x 30 + 19.5 x 15) / 75 = 25.9, and 15 s below 20 % (T ends at now)."""
    reports = [(local(2, 10), 30.0, False), (local(2, 10, 0, 30), 25.0, False)]
    reports.append((local(2, 10, 1), 19.5, False))
    deriver = VehicleDeriver(vehicle_id=5, config=DerivationConfig())
    facts = _derived(5, reports, deriver)
    now = local(2, 10, 1, 15)
    store = FactStore(":memory:")
    zones = {5: (1, "Europe/Berlin")}
    store.write_batch(StoreBatch(facts=facts, zones=zones, live={5: deriver.live()}))
    scope = _scope(MONDAY, None, [5])
    with store, reading(store) as cursor:
        out = battery(cursor, scope, now=now, offline_after=OFFLINE_AFTER, capacities={})
        kpis = productivity(
            cursor, scope, now=now, offline_after=OFFLINE_AFTER, use_rollups=use_rollups
        ).fleet.kpis
    expected = (30 * 30 + 25 * 30 + 19.5 * 15) / 75
    assert kpis.planned_seconds == 75.0
    assert kpis.mean_charge == pytest.approx(expected, abs=1e-9)
    assert out.fleet["current"]["mean_charge"] == pytest.approx(expected, abs=1e-9)
    assert out.fleet["current"]["below_low_seconds"] == 15.0


def _running(
    vehicle_id: int, reports: list[tuple[datetime, float, bool]], span: DaySpan, now: datetime
) -> dict[str, Any]:
    """The battery figures of ``span`` up to ``now``, the vehicle still online (its open
    hold in the live status)."""
    deriver = VehicleDeriver(vehicle_id=vehicle_id, config=DerivationConfig())
    facts = _derived(vehicle_id, reports, deriver)
    store = FactStore(":memory:")
    zones = {vehicle_id: (1, BERLIN.key)}
    store.write_batch(StoreBatch(facts=facts, zones=zones, live={vehicle_id: deriver.live()}))
    with store, reading(store) as cursor:
        out = battery(
            cursor,
            _scope(span, None, [vehicle_id]),
            now=now,
            offline_after=OFFLINE_AFTER,
            capacities={},
        )
    figures: dict[str, Any] = out.fleet["current"]
    return figures


def test_a_running_period_counts_the_lowest_charge_and_the_falls_of_reports_not_sampled() -> None:
    """Today so far: 10:00:00 30 %, 10:00:20 29.6 %, 10:00:30 29.2 %, now 10:00:45. Only the
    first report is a sample; the others' hold is open (``live_status``), the last report's
    charge holding until now: minimum 29.2 %, 0.8 points discharged, mean
    (30 x 20 + 29.6 x 10 + 29.2 x 15) / 45."""
    reports = [(local(2, 10), 30.0, False), (local(2, 10, 0, 20), 29.6, False)]
    reports.append((local(2, 10, 0, 30), 29.2, False))
    figures = _running(8, reports, MONDAY, local(2, 10, 0, 45))
    assert figures["min_charge"] == 29.2
    assert figures["sessions"]["equivalent_full_cycles"] == pytest.approx(0.008)
    assert figures["mean_charge"] == pytest.approx((30 * 20 + 29.6 * 10 + 29.2 * 15) / 45)


def test_the_charge_held_up_to_now_is_split_at_midnight() -> None:
    """Mon 23:59:20 25 %, 23:59:50 19.5 %, now Tue 00:00:20, no report since: 19.5 % holds
    10 s on Monday and 20 s on Tuesday, below 20 % on both."""
    reports = [(local(2, 23, 59, 20), 25.0, False), (local(2, 23, 59, 50), 19.5, False)]
    now = local(3, 0, 0, 20)
    monday = _running(9, reports, MONDAY, now)
    assert monday["mean_charge"] == pytest.approx((25 * 30 + 19.5 * 10) / 40)
    assert monday["below_low_seconds"] == pytest.approx(10.0)
    tuesday = _running(9, reports, DaySpan(date(2026, 3, 3), date(2026, 3, 3)), now)
    assert (tuesday["mean_charge"], tuesday["min_charge"]) == (19.5, 19.5)
    assert tuesday["below_low_seconds"] == pytest.approx(20.0)


def test_time_below_20_percent_runs_until_now_while_the_vehicle_reports() -> None:
    """10:00:00 19 %, 10:00:50 18.9 %, 10:01:40 18.9 %, now 10:02:20: below 20 % for all
    140 s (the vehicle is online until 10:02:45), though the last sample is 10:01:00's."""
    reports = [(local(2, 10), 19.0, False), (local(2, 10, 0, 50), 18.9, False)]
    reports.append((local(2, 10, 1, 40), 18.9, False))
    figures = _running(10, reports, MONDAY, local(2, 10, 2, 20))
    assert figures["below_low_seconds"] == pytest.approx(140.0)
    assert figures["mean_charge"] == pytest.approx((19 * 50 + 18.9 * 50 + 18.9 * 40) / 140)


@pytest.mark.parametrize("use_rollups", [True, False])
def test_a_rolling_period_inside_a_minute_reads_the_charge_held_in_it(use_rollups: bool) -> None:
    """50 % reported at 10:00:00 and at 10:01:30: a rolling period from 10:00:30 to
    10:00:50 (off the whole minute, where holds are cut) holds 50 % for its 20 s."""
    reports = [(local(2, 10), 50.0, False), (local(2, 10, 1, 30), 50.0, False)]
    clip = Window(local(2, 10, 0, 30), local(2, 10, 0, 50))
    scope = _scope(rolling_span(clip, sites=[(BERLIN, None)]), None, [11])
    with _store(_derived(11, reports), [11]) as store, reading(store) as cursor:
        kpis = productivity(
            cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, use_rollups=use_rollups
        ).fleet.kpis
    assert (kpis.mean_charge, kpis.min_charge) == (50.0, 50.0)


def test_the_charge_line_reaches_the_minimum_charge() -> None:
    """50 % at 10:00:00, 49.2 % at 10:00:20 (less than a point: no sample), 49.9 % at
    10:00:40 and 10:01:30: the minimum is 49.2 %, and the vehicle's line dips to it."""
    reports = [(local(2, 10), 50.0, False), (local(2, 10, 0, 20), 49.2, False)]
    reports += [(local(2, 10, 0, 40), 49.9, False), (local(2, 10, 1, 30), 49.9, False)]
    scope = replace(_scope(MONDAY, None, [12]), combined=False)
    with _store(_derived(12, reports), [12]) as store, reading(store) as cursor:
        out = battery(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, capacities={})
    assert out.entries[0]["current"]["min_charge"] == 49.2
    assert min(charge for _, charge in out.series[0]["points"]) == 49.2


# --- time below 20 % --------------------------------------------------------------------


def test_time_below_20_percent_lasts_until_the_vehicle_goes_offline() -> None:
    """11:00:00 15 %, 11:00:40 15 % (not a sample), silence: offline from 11:01:45; back at
    11:10:00 with 25 %. Below 20 % from 11:00:00 to 11:01:45: 105 s (not the 65 s of a step
    capped at offline_after, nor the 9 minutes up to the next report)."""
    reports = [(local(2, 11), 15.0, False), (local(2, 11, 0, 40), 15.0, False)]
    reports.append((local(2, 11, 10), 25.0, False))
    with _store(_derived(4, reports), [4]) as store, reading(store) as cursor:
        out = battery(
            cursor, _scope(MONDAY, None, [4]), now=NOW, offline_after=OFFLINE_AFTER, capacities={}
        )
    assert out.fleet["current"]["below_low_seconds"] == 105.0


def test_time_below_20_percent_to_the_second() -> None:
    """Every 10 s from 10:00:00: 20.4 % falling 0.1 a report to 19.5 % (10:01:30), then
    charging 0.1 a report: 19.9 % at 10:00:50 is the first under 20 %, 20.0 % at 10:02:20
    the first back at 20 %: 90 s. (Samples only every point or 60 s would give 100 s.)"""
    start = local(2, 10)
    reports = [
        (start + timedelta(seconds=10 * k), round(20.4 - 0.1 * k, 1), False) for k in range(10)
    ]
    reports += [
        (start + timedelta(seconds=100 + 10 * k), round(19.6 + 0.1 * k, 1), True) for k in range(20)
    ]
    with _store(_derived(2, reports), [2]) as store, reading(store) as cursor:
        out = battery(
            cursor, _scope(MONDAY, None, [2]), now=NOW, offline_after=OFFLINE_AFTER, capacities={}
        )
    assert out.fleet["current"]["below_low_seconds"] == 90.0


# --- the bounds of T split the battery's holds exactly -----------------------------------


def _across_the_late_shifts_end() -> list[tuple[datetime, float, bool]]:
    """Around the end of the late shift (22:00): 22 % at 21:59:00, 19.8 % at 21:59:30,
    19.2 % at 22:00:20, 18.9 % at 22:00:50, charging at 20.5 % from 22:01:10, then silence
    (offline from 22:02:15); back the next morning."""
    return [
        (local(2, 21, 59), 22.0, False),
        (local(2, 21, 59, 30), 19.8, False),
        (local(2, 22, 0, 20), 19.2, False),
        (local(2, 22, 0, 50), 18.9, False),
        (local(2, 22, 1, 10), 20.5, True),
        (local(3, 7), 60.0, False),
    ]


@pytest.mark.parametrize(
    ("shift", "mean", "below_s", "cycles", "lowest"),
    [
        # 22 % for 30 s, 19.8 % for 30 s; below 20 % from 21:59:30; the fall of 2.2 points.
        (LATE, (22 * 30 + 19.8 * 30) / 60, 30.0, 0.022, 19.8),
        # 19.8 % for 20 s, 19.2 % for 30 s, 18.9 % for 20 s, 20.5 % for 65 s (to offline);
        # below 20 % from 22:00:00 to 22:01:10; the falls of 0.6 and 0.3 points.
        (NIGHT, (19.8 * 20 + 19.2 * 30 + 18.9 * 20 + 20.5 * 65) / 135, 70.0, 0.009, 18.9),
        # A shift ending at 22:01 (off the full hour: read from the samples).
        (
            Shift("to 22:01", time(14), time(22, 1), frozenset(range(7))),
            (22 * 30 + 19.8 * 50 + 19.2 * 30 + 18.9 * 10) / 120,
            90.0,
            0.031,
            18.9,
        ),
    ],
)
def test_the_battery_figures_of_a_shift_end_at_its_bound_to_the_second(
    shift: Shift, mean: float, below_s: float, cycles: float, lowest: float
) -> None:
    """Mean charge, time below 20 %, equivalent full cycles and minimum charge of the
    shift, though no report falls on its bound (without a sample at each whole minute, the
    hold from 21:59:30 to 22:00:50 counted wholly in the late shift)."""
    with (
        _store(_derived(6, _across_the_late_shifts_end()), [6]) as store,
        reading(store) as cursor,
    ):
        scope = _scope(MONDAY, shift, [6])
        out = battery(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, capacities={})
        kpis = productivity(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER).fleet.kpis
    figures = out.fleet["current"]
    assert figures["mean_charge"] == pytest.approx(mean, abs=1e-9)
    assert kpis.mean_charge == pytest.approx(mean, abs=1e-9)
    assert figures["below_low_seconds"] == pytest.approx(below_s, abs=1e-6)
    assert figures["sessions"]["equivalent_full_cycles"] == pytest.approx(cycles, abs=1e-12)
    assert figures["min_charge"] == lowest


def test_a_fall_shown_on_the_bound_counts_while_the_charge_before_it_held() -> None:
    """50 % at 21:59:30, 48 % at 22:00:00 (on the late shift's end), 47.5 % at 22:00:30:
    the battery lost the 2 points while 50 % held, in the late shift; the 0.5 points in the
    night shift, with the hold of 48 %."""
    reports = [(local(2, 21, 59, 30), 50.0, False), (local(2, 22), 48.0, False)]
    reports += [(local(2, 22, 0, 30), 47.5, False), (local(3, 7), 60.0, False)]
    with _store(_derived(7, reports), [7]) as store, reading(store) as cursor:
        figures = {
            shift.id: battery(
                cursor,
                _scope(MONDAY, shift, [7]),
                now=NOW,
                offline_after=OFFLINE_AFTER,
                capacities={},
            ).fleet["current"]
            for shift in (LATE, NIGHT)
        }
    assert figures["late"]["sessions"]["equivalent_full_cycles"] == pytest.approx(0.02)
    assert figures["late"]["mean_charge"] == 50.0
    assert figures["night"]["sessions"]["equivalent_full_cycles"] == pytest.approx(0.005)
    assert figures["night"]["mean_charge"] == pytest.approx((48 * 30 + 47.5 * 65) / 95)


# --- loads handled ----------------------------------------------------------------------


@pytest.mark.parametrize("use_rollups", [True, False])
def test_loads_handled_count_pick_drop_load_and_unload(use_rollups: bool) -> None:
    finished = ["pick", "Drop", "load", "UNLOAD", "startCharging", "wait"]
    actions: list[Fact] = [
        ActionRecord(3, f"a{n}", kind, "O-1", local(2, 10, n), None, local(2, 10, n, 30), status)
        for n, (kind, status) in enumerate(
            [*((kind, "FINISHED") for kind in finished), ("load", "FAILED"), ("unload", "FAILED")]
        )
    ]
    with _store(actions, [3]) as store, reading(store) as cursor:
        kpis = productivity(
            cursor,
            _scope(MONDAY, None, [3]),
            now=NOW,
            offline_after=OFFLINE_AFTER,
            use_rollups=use_rollups,
        ).fleet.kpis
    assert kpis.loads_handled == 4


# --- the dashboard's cycle-time median ----------------------------------------------------


def _order(name: str, end: datetime, seconds: int, outcome: OrderOutcome) -> OrderRun:
    start = end - timedelta(seconds=seconds)
    return OrderRun(4, name, "W", start, end, outcome, 0.0, 1, 1, 0, 0, 0)


def test_dashboard_median_is_the_processes_median() -> None:
    """Monday: 600, 900 and 1,200 s (and a failed order of 3,000 s): 900. Tuesday: 300 and
    500 s: 400. Both days: 300, 500, 600, 900, 1,200: 600."""
    orders: list[Fact] = [
        _order("a", local(2, 9), 600, OrderOutcome.FINISHED),
        _order("b", local(2, 10), 900, OrderOutcome.FINISHED),
        _order("c", local(2, 11), 1200, OrderOutcome.FINISHED),
        _order("d", local(2, 12), 3000, OrderOutcome.FAILED),
        _order("e", local(3, 9), 300, OrderOutcome.FINISHED),
        _order("f", local(3, 10), 500, OrderOutcome.FINISHED),
    ]
    two_days = DaySpan(date(2026, 3, 2), date(2026, 3, 3))
    with _store(orders, [4]) as store, reading(store) as cursor:
        for span, median in ((MONDAY, 900.0), (two_days, 600.0)):
            scope = _scope(span, None, [4])
            board = dashboard(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER)
            tile = next(tile for tile in board.tiles if tile.key == "cycleTimeP50")
            page = processes(cursor, scope, now=NOW).fleet.current.cycle
            assert tile.value == page.p50_seconds == median
            assert tile.exact and page.exact
        assert [point.value for point in tile.series] == [900.0, 400.0]
        tuesday = DaySpan(date(2026, 3, 3), date(2026, 3, 3))
        day = processes(cursor, _scope(tuesday, None, [4]), now=NOW)
        assert day.fleet.current.cycle.p50_seconds == 400.0


# --- a shift belongs to the day it starts on ----------------------------------------------


def test_night_shift_is_counted_on_the_day_it_starts() -> None:
    """Working from Monday 12:00 to Wednesday 12:00, an order ending at every half hour.
    Monday's night (22:00 to Tuesday 06:00) and Tuesday's night are 8 hours and 8 orders
    each, in the day buckets too; Monday 00:00-06:00 (no data) is Sunday's night."""
    start, end = local(2, 12), local(4, 12)
    facts: list[Fact] = [StateInterval(5, VehicleState.WORKING, start, end)]
    at = start + timedelta(minutes=30)
    while at < end:
        facts.append(
            OrderRun(
                5,
                f"O-{at:%d%H}",
                "W",
                at - timedelta(minutes=20),
                at,
                OrderOutcome.FINISHED,
                0.0,
                1,
                1,
                0,
                0,
                0,
            )
        )
        at += timedelta(hours=1)
    two_days = DaySpan(date(2026, 3, 2), date(2026, 3, 3))
    scope = _scope(two_days, NIGHT, [5])
    with _store(facts, [5]) as store, reading(store) as cursor:
        history = productivity_history(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER)
        totals = productivity(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER).fleet
        board = dashboard(cursor, scope, now=NOW, offline_after=OFFLINE_AFTER)
    assert history.kpis.orders_finished == [[8, 8]]
    assert history.kpis.planned_seconds == [[8 * 3600, 8 * 3600]]
    assert (totals.kpis.orders_finished, totals.kpis.period_seconds) == (16, 16 * 3600)
    orders = next(tile for tile in board.tiles if tile.key == "orders")
    assert [point.value for point in orders.series] == [8, 8]


# --- the fleet's throughput per calendar hour across time zones ---------------------------


def test_fleet_throughput_counts_each_calendar_hour_once_across_zones() -> None:
    """Monday and Tuesday (2-3 March) at a Berlin site (UTC+1) and a New York site (UTC-5):
    T is Sun 23:00 to Tue 23:00 UTC and Mon 05:00 to Wed 05:00 UTC, whose union lasts 54 h
    (each day's own union 30 h: 60 h added up would count Monday evening's overlap with New
    York's Tuesday twice). 12 + 15 finished orders: 0.5 per calendar hour, on the dashboard
    as on Productivity."""
    newark = ZoneInfo("America/New_York")
    orders_ending = {
        1: [datetime(2026, 3, 2, 10 + hour, tzinfo=UTC) for hour in range(12)],
        2: [datetime(2026, 3, 3, 6 + hour, tzinfo=UTC) for hour in range(15)],
    }
    facts: list[Fact] = []
    for vehicle, ends in orders_ending.items():
        working = (datetime(2026, 3, 1, 22, tzinfo=UTC), datetime(2026, 3, 4, 6, tzinfo=UTC))
        facts.append(StateInterval(vehicle, VehicleState.WORKING, *working))
        facts += [
            OrderRun(vehicle, f"O-{end:%d%H}", "W", end - timedelta(minutes=10), end,
                     OrderOutcome.FINISHED, 0.0, 1, 1, 0, 0, 0)
            for end in ends
        ]  # fmt: skip
    two_days = DaySpan(date(2026, 3, 2), date(2026, 3, 3))
    scope = AnalyticsScope(
        span=two_days,
        combined=True,
        shift_id="all",
        vehicles=[VehicleRef(1, "V1", 1), VehicleRef(2, "V2", 2)],
        sites=[
            SiteGroup(1, BERLIN, None, excluded=False, vehicle_ids=[1]),
            SiteGroup(2, newark, None, excluded=False, vehicle_ids=[2]),
        ],
    )
    store = FactStore(":memory:")
    store.write_batch(
        StoreBatch(facts=facts, zones={1: (1, "Europe/Berlin"), 2: (2, "America/New_York")})
    )
    with store, reading(store) as cursor:
        for use_rollups in (True, False):
            board = dashboard(
                cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, use_rollups=use_rollups
            )
            tiles = {tile.key: tile for tile in board.tiles}
            assert tiles["orders"].value == 27
            assert tiles["throughput"].value == pytest.approx(27 / 54)
            page = productivity(
                cursor, scope, now=NOW, offline_after=OFFLINE_AFTER, use_rollups=use_rollups
            )
            assert page.fleet.kpis.throughput_per_hour == pytest.approx(27 / 54)
