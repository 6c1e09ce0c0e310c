"""The battery page's lines from the period's slots: each slot's lowest and highest sample
in time order (one point when they are one instant), the slots' mean health at their
middles, and the fitted health line at the first and the last health point."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import numpy as np

from fleetscope.analytics.battery.battery import battery_series
from fleetscope.analytics.battery.scan import HealthLine, SampleFigures, SlotGrid
from fleetscope.analytics.core.facts import CURRENT
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan, Window
from fleetscope.facts.rawlog import to_micros

START = datetime(2026, 3, 10, tzinfo=UTC)
GRID = SlotGrid.over(Window(START, START + timedelta(days=1)), slots=24)  # hourly slots


def _us(hour: int, minute: int) -> float:
    return float(to_micros(START + timedelta(hours=hour, minutes=minute)))


def _ms(hour: int, minute: int) -> int:
    """The chart's instant: epoch milliseconds."""
    return int((START + timedelta(hours=hour, minutes=minute)).timestamp() * 1000)


def _scope() -> AnalyticsScope:
    vehicles = [VehicleRef(1, "V1", 1), VehicleRef(2, "V2", 1), VehicleRef(3, "V3", 1)]
    return AnalyticsScope(
        span=DaySpan(date(2026, 3, 10), date(2026, 3, 10)),
        combined=False,
        shift_id="all",
        vehicles=vehicles,
        sites=[SiteGroup(1, ZoneInfo("UTC"), None, excluded=False, vehicle_ids=[1, 2, 3])],
    )


def test_points_follow_time_within_each_slot_and_health_sits_at_the_middle() -> None:
    lines = {
        "vehicle_id": np.array([1, 1, 1, 2]),
        "slot": np.array([0, 3, 7, 5]),
        # low before high; high before low; one sample (low and high at one instant)
        "low_at": np.array([_us(0, 10), _us(3, 50), _us(7, 5), _us(5, 20)]),
        "low": np.array([40.0, 30.0, 55.5, 80.0]),
        "high_at": np.array([_us(0, 40), _us(3, 5), _us(7, 5), _us(5, 40)]),
        "high": np.array([45.0, 35.0, 55.5, 81.0]),
        # health samples per slot and their sum: means 96.0, none, 95.5, none
        "health_n": np.array([2.0, 0.0, 1.0, 0.0]),
        "health_y": np.array([192.0, 0.0, 95.5, 0.0]),
    }
    line = HealthLine(slope_per_second=-1e-6, intercept=96.0 + 1e-6 * to_micros(START) / 1e6)
    figures = {(1, CURRENT): SampleFigures(health_line=line)}
    series = battery_series(_scope(), figures, lines, grid=GRID)
    charge = {s["vehicle_id"]: s["points"] for s in series.charge}
    assert charge == {
        1: [
            (_ms(0, 10), 40.0),
            (_ms(0, 40), 45.0),
            (_ms(3, 5), 35.0),
            (_ms(3, 50), 30.0),
            (_ms(7, 5), 55.5),
        ],
        2: [(_ms(5, 20), 80.0), (_ms(5, 40), 81.0)],
        3: [],
    }
    health = {s["vehicle_id"]: s for s in series.health}
    assert health[1]["points"] == [
        (_ms(0, 30), 96.0),
        (_ms(7, 30), 95.5),
    ]
    assert health[1]["trend"] == [
        (_ms(0, 30), line.at(to_micros(START + timedelta(minutes=30)))),
        (_ms(7, 30), line.at(to_micros(START + timedelta(hours=7, minutes=30)))),
    ]
    assert health[2]["points"] == health[2]["trend"] == health[3]["points"] == []


def test_no_slots_give_empty_lines_for_every_vehicle() -> None:
    series = battery_series(_scope(), {}, None, grid=GRID)
    assert [(s["vehicle_id"], s["points"]) for s in series.charge] == [
        (1, []),
        (2, []),
        (3, []),
    ]
    assert all(s["points"] == s["trend"] == [] for s in series.health)


def test_the_slots_middles_at_once_are_each_slots_middle() -> None:
    """Also where a middle is moved into the period (a first slot from the full hour)."""
    period = Window(START + timedelta(minutes=20), START + timedelta(days=3, minutes=7))
    for slots in (7, 50, 250):
        grid = SlotGrid.over(period, slots=slots)
        low, high = to_micros(period.start), to_micros(period.end)
        middles = [
            min(max(grid.start_us + i * grid.width_us + grid.width_us // 2, low), high)
            for i in range(grid.count)
        ]
        assert grid.middles_us().tolist() == [m - m % 1000 for m in middles]
