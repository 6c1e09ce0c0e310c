"""Percentiles over short and long periods (product.md section 3, "Percentiles"): exact up to
31 days, within 0.5 % beyond (a histogram), flagged ``exact`` accordingly, and the
dashboard's median the number Processes shows for the same period and vehicles.

One vehicle of a Berlin site, reporting (working) throughout, finishes one order a day at
10:00 for 400 days, with cycle times spread log-evenly from 1 s to one day (and fails one
every fifth day, which no percentile counts); the expected figures are ``quantile_cont`` of
the hand-listed cycles.
"""

import math
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import duckdb
import pytest

from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan
from fleetscope.analytics.dashboards.dashboard import dashboard
from fleetscope.analytics.processes.actions import actions
from fleetscope.analytics.processes.orders import processes
from fleetscope.analytics.processes.workflows import workflows
from fleetscope.api.analytics_deps import reading
from fleetscope.facts.model import (
    ActionRecord,
    Fact,
    OrderOutcome,
    OrderRun,
    StateInterval,
    VehicleState,
)
from fleetscope.facts.store import FactStore, StoreBatch

from .conftest import quantile_cont

BERLIN = ZoneInfo("Europe/Berlin")
LAST = date(2026, 3, 5)
NOW = datetime(2026, 3, 6, 12, tzinfo=UTC)  # every period below has ended
DAYS = 400
VEHICLE = 7


def _cycle_s(index: int) -> int:
    """1 s on the first day to 86,400 s on the last, log-evenly."""
    return round(math.exp(math.log(86_400) * index / (DAYS - 1)))


def _day(index: int) -> date:
    return LAST - timedelta(days=DAYS - 1 - index)


def _facts() -> list[Fact]:
    reporting = datetime.combine(_day(0), datetime.min.time(), BERLIN)
    facts: list[Fact] = [StateInterval(VEHICLE, VehicleState.WORKING, reporting, NOW)]
    for index in range(DAYS):
        end = datetime.combine(_day(index), datetime.min.time(), BERLIN).replace(hour=10)
        cycle = timedelta(seconds=_cycle_s(index))
        facts.append(
            OrderRun(
                VEHICLE,
                f"o{index}",
                "W",
                end - cycle,
                end,
                OrderOutcome.FINISHED,
                0.0,
                1,
                1,
                0,
                0,
                0,
            )
        )
        # One pick a day: it waits the day's cycle time / 10, then runs the cycle time.
        start = end - cycle
        wait = cycle / 10
        facts.append(
            ActionRecord(
                VEHICLE, f"a{index}", "pick", f"o{index}", start - wait, start, end, "FINISHED"
            )
        )
        if index % 5 == 0:
            failed = end + timedelta(hours=1)
            facts.append(
                OrderRun(
                    VEHICLE,
                    f"f{index}",
                    "W",
                    failed - timedelta(days=2),
                    failed,
                    OrderOutcome.FAILED,
                    0.0,
                    1,
                    1,
                    0,
                    0,
                    0,
                )
            )
    return facts


@pytest.fixture(scope="module")
def cursor() -> Iterator[duckdb.DuckDBPyConnection]:
    store = FactStore(":memory:")
    store.write_batch(StoreBatch(facts=_facts(), zones={VEHICLE: (1, "Europe/Berlin")}))
    with store, reading(store) as reader:
        yield reader


def _scope(days: int) -> AnalyticsScope:
    return AnalyticsScope(
        span=DaySpan(LAST - timedelta(days=days - 1), LAST),
        combined=True,
        shift_id="all",
        vehicles=[VehicleRef(VEHICLE, "V7", 1)],
        sites=[SiteGroup(1, BERLIN, None, excluded=False, vehicle_ids=[VEHICLE])],
    )


def _cycles(days: int) -> list[float]:
    return [float(_cycle_s(index)) for index in range(DAYS - days, DAYS)]


@pytest.mark.parametrize("days", [7, 31, 32, 40, 365])
def test_cycle_percentiles_are_exact_up_to_31_days(
    cursor: duckdb.DuckDBPyConnection, days: int
) -> None:
    cycles = _cycles(days)
    cycle = processes(cursor, _scope(days), now=NOW).fleet.current.cycle
    assert cycle.count == days
    found = [cycle.p50_seconds, cycle.p90_seconds, cycle.p95_seconds]
    expected = [quantile_cont(cycles, q) for q in (0.5, 0.9, 0.95)]
    exact = days <= 31
    assert found == pytest.approx(expected, rel=1e-12 if exact else 0.005)
    if not exact:
        assert found != pytest.approx(expected, rel=1e-9)  # the histogram's, not the rows'
    assert cycle.max_seconds == max(cycles)
    assert cycle.exact is exact
    answer = workflows(
        cursor, _scope(days), now=NOW, offline_after=timedelta(seconds=65), sort=None
    )
    row = answer.workflows[0]
    assert [row.cycle_p50_seconds, row.cycle_p90_seconds] == found[:2]
    assert answer.exact is exact


@pytest.mark.parametrize("days", [7, 365])
def test_dashboard_median_is_the_processes_median(
    cursor: duckdb.DuckDBPyConnection, days: int
) -> None:
    scope = _scope(days)
    board = dashboard(cursor, scope, now=NOW, offline_after=timedelta(seconds=65))
    tile = next(tile for tile in board.tiles if tile.key == "cycleTimeP50")
    page = processes(cursor, scope, now=NOW).fleet.current.cycle
    exact = days <= 31
    tolerance = 1e-12 if exact else 0.005
    truth = quantile_cont(_cycles(days), 0.5)
    assert tile.value == page.p50_seconds == pytest.approx(truth, rel=tolerance)
    assert tile.exact is page.exact is exact
    # The previous period (the days before) likewise.
    before = [float(_cycle_s(i)) for i in range(max(0, DAYS - 2 * days), DAYS - days)]
    previous = processes(cursor, scope, now=NOW).fleet.previous.cycle.p50_seconds
    assert tile.previous == previous == pytest.approx(quantile_cont(before, 0.5), rel=tolerance)


@pytest.mark.parametrize("days", [31, 32, 365])
def test_action_percentiles_are_exact_up_to_31_days(
    cursor: duckdb.DuckDBPyConnection, days: int
) -> None:
    answer = actions(cursor, _scope(days), now=NOW)
    (pick,) = answer.actions
    runs = _cycles(days)
    waits = [run / 10 for run in runs]
    exact = days <= 31
    tolerance = 1e-9 if exact else 0.005
    assert answer.exact is exact
    assert pick.count == days
    found = [pick.duration_p50_seconds, pick.duration_p90_seconds, pick.wait_p50_seconds]
    expected = [quantile_cont(runs, 0.5), quantile_cont(runs, 0.9), quantile_cont(waits, 0.5)]
    assert found == pytest.approx(expected, rel=tolerance)
    assert pick.mean_wait_seconds == pytest.approx(sum(waits) / days, rel=1e-9)
