"""The period and the previous period side by side, hand-computed: a workflow run only in
the previous period (Workflows keeps its row, with nothing in the period), the outcome counts
and histogram of Processes, and the dashboard's cycle-time median per day and per period.

One vehicle of a Berlin site, reporting (working) throughout, so both periods recorded; each
order ends at 10:00 local time. The period is the week 2026-02-27 .. 03-05, the previous
period the week before.
"""

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import duckdb
import pytest

from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan
from fleetscope.analytics.dashboards.dashboard import dashboard
from fleetscope.analytics.processes.orders import processes
from fleetscope.analytics.processes.workflows import workflows
from fleetscope.api.analytics_deps import reading
from fleetscope.facts.model import Fact, OrderOutcome, OrderRun, StateInterval, VehicleState
from fleetscope.facts.store import FactStore, StoreBatch

BERLIN = ZoneInfo("Europe/Berlin")
FIRST, LAST = date(2026, 2, 27), date(2026, 3, 5)
NOW = datetime(2026, 3, 6, 12, tzinfo=UTC)
VEHICLE = 7
FINISHED, FAILED, CANCELLED = OrderOutcome.FINISHED, OrderOutcome.FAILED, OrderOutcome.CANCELLED
# (workflow, day, cycle seconds, outcome)
ORDERS = [
    # A: one finished order a day in the period (60 .. 420 s) and one failed on its first day.
    *(("A", FIRST + timedelta(days=i), 60 * (i + 1), FINISHED) for i in range(7)),
    ("A", FIRST, 30, FAILED),
    # A in the previous period: 100, 200, 300 s.
    *(("A", FIRST - timedelta(days=7 - i), 100 * (i + 1), FINISHED) for i in range(3)),
    # B only in the previous period: 50 and 70 s finished, one failed, one cancelled.
    ("B", FIRST - timedelta(days=7), 50, FINISHED),
    ("B", FIRST - timedelta(days=6), 70, FINISHED),
    ("B", FIRST - timedelta(days=5), 40, FAILED),
    ("B", FIRST - timedelta(days=4), 40, CANCELLED),
]


def _facts() -> list[Fact]:
    reporting = datetime.combine(FIRST - timedelta(days=7), datetime.min.time(), BERLIN)
    facts: list[Fact] = [StateInterval(VEHICLE, VehicleState.WORKING, reporting, NOW)]
    for index, (workflow, day, seconds, outcome) in enumerate(ORDERS):
        # Failed and cancelled orders end an hour later (one order at a time).
        hour = 10 if outcome is FINISHED else 11 + (outcome is CANCELLED)
        end = datetime.combine(day, datetime.min.time(), BERLIN).replace(hour=hour)
        start = end - timedelta(seconds=seconds)
        facts.append(
            OrderRun(VEHICLE, f"o{index}", workflow, start, end, outcome, 0, 1, 1, 0, 0, 0)
        )
    return facts


@pytest.fixture(scope="module")
def cursor() -> Iterator[duckdb.DuckDBPyConnection]:
    store = FactStore(":memory:")
    store.write_batch(StoreBatch(facts=_facts(), zones={VEHICLE: (1, "Europe/Berlin")}))
    with store, reading(store) as reader:
        yield reader


def _scope() -> AnalyticsScope:
    return AnalyticsScope(
        span=DaySpan(FIRST, LAST),
        combined=True,
        shift_id="all",
        vehicles=[VehicleRef(VEHICLE, "V7", 1)],
        sites=[SiteGroup(1, BERLIN, None, excluded=False, vehicle_ids=[VEHICLE])],
    )


def test_a_workflow_run_only_in_the_previous_period_keeps_its_row(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    rows = {
        row.workflow: row
        for row in workflows(
            cursor, _scope(), now=NOW, offline_after=timedelta(seconds=65), sort=None
        ).workflows
    }
    assert list(rows) == ["A", "B"]  # most orders first
    a, b = rows["A"], rows["B"]
    assert (a.orders, a.finished, a.success_rate) == (8, 7, 7 / 8)
    # 60 .. 420 s: the median 240 s; p90 at rank 5.4, 360 + 0.4 * 60.
    assert (a.cycle_p50_seconds, a.cycle_p90_seconds) == pytest.approx((240, 384))
    assert (a.previous_orders, a.previous_success_rate) == (3, 1.0)
    # 100, 200, 300 s: p90 at rank 1.8, 200 + 0.8 * 100.
    assert (a.previous_cycle_p50_seconds, a.previous_cycle_p90_seconds) == pytest.approx((200, 280))
    assert a.orders_trend == 5
    assert (b.orders, b.finished, b.success_rate) == (0, 0, None)
    assert b.cycle_p50_seconds is b.cycle_p90_seconds is None
    assert (b.previous_orders, b.previous_success_rate) == (4, 0.5)
    # 50 and 70 s: the median 60 s, p90 50 + 0.9 * 20.
    assert (b.previous_cycle_p50_seconds, b.previous_cycle_p90_seconds) == pytest.approx((60, 68))
    assert b.orders_trend == -4


def test_processes_counts_each_outcome_in_its_period(cursor: duckdb.DuckDBPyConnection) -> None:
    fleet = processes(cursor, _scope(), now=NOW).fleet
    current, previous = fleet.current, fleet.previous
    assert (current.outcomes.finished, current.outcomes.failed, current.outcomes.cancelled) == (
        7,
        1,
        0,
    )
    assert (previous.outcomes.finished, previous.outcomes.failed) == (5, 1)
    assert previous.outcomes.cancelled == 1
    assert sum(current.histogram) == 7 and sum(previous.histogram) == 5
    assert current.cycle.p50_seconds == pytest.approx(240)
    assert current.cycle.max_seconds == 420
    # 50, 70, 100, 200, 300 s.
    assert previous.cycle.p50_seconds == pytest.approx(100)
    assert previous.cycle.mean_seconds == pytest.approx(144)


def test_dashboard_median_per_day_and_per_period(cursor: duckdb.DuckDBPyConnection) -> None:
    board = dashboard(cursor, _scope(), now=NOW, offline_after=timedelta(seconds=65))
    tile = next(tile for tile in board.tiles if tile.key == "cycleTimeP50")
    # One finished order a day: each day's median is its cycle time.
    assert [point.from_ for point in tile.series] == [FIRST + timedelta(days=i) for i in range(7)]
    assert [point.value for point in tile.series] == pytest.approx([60 * (i + 1) for i in range(7)])
    assert tile.value == pytest.approx(240)
    assert tile.previous == pytest.approx(100)
