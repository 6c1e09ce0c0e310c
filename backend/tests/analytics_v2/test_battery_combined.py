"""The battery page's combined lines (product.md section 4: one aggregate series): the
fleet's time-weighted mean charge per slot against a hand-computed case, the vehicles' mean
health per slot, and the mean of their fitted health lines."""

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from analytics.test_glossary import (
    MONDAY,
    NOW,
    OFFLINE_AFTER,
    _derived,
    _scope,
    _store,
    local,
)

from fleetscope.analytics.battery.battery import battery
from fleetscope.analytics.battery.combined import (
    fleet_charge_grid,
    fleet_health_points,
    health_trend,
    slot_parts,
)
from fleetscope.analytics.battery.scan import HealthLine, SampleFigures, SlotGrid
from fleetscope.analytics.core.facts import CURRENT
from fleetscope.analytics.core.periods import Window
from fleetscope.api.analytics_deps import reading
from fleetscope.facts.rawlog import to_micros


def _at(epoch_millis: int) -> datetime:
    return datetime.fromtimestamp(epoch_millis / 1000, UTC)


def test_the_combined_charge_line_is_the_time_weighted_mean_of_the_vehicles() -> None:
    """Vehicle 1 reports 80 % every minute from 08:00 to 12:00, vehicle 2 40 % every 20 s
    from 08:00 to 16:00 (Berlin). While both report the fleet holds 80 % and 40 % for equal
    times: 60 %, where a mean of the samples would weigh vehicle 2 three times (50 %). Then
    vehicle 1 is offline and only vehicle 2's 40 % holds."""
    first = [(local(2, 8) + timedelta(minutes=m), 80.0, False) for m in range(241)]
    second = [(local(2, 8) + timedelta(seconds=20 * k), 40.0, False) for k in range(3 * 480 + 1)]
    with (
        _store([*_derived(1, first), *_derived(2, second)], [1, 2]) as store,
        reading(store) as cursor,
    ):
        out = battery(
            cursor,
            _scope(MONDAY, None, [1, 2]),
            now=NOW,
            offline_after=OFFLINE_AFTER,
            capacities={},
        )
    [line] = out.series
    assert (line["vehicle_id"], line["name"]) == (None, None)
    points = [(_at(at), charge) for at, charge in line["points"]]
    # A day: 250 slots of 345.6 s, each at its middle, 84 of them in the 8 h with a charge
    # (a slot partly outside a stretch mixes).
    assert len(points) == 84
    both = [charge for at, charge in points if local(2, 8, 10) <= at < local(2, 11, 50)]
    alone = [charge for at, charge in points if local(2, 12, 10) <= at < local(2, 15, 50)]
    assert len(both) > 30 and len(alone) > 30
    assert both == pytest.approx([60.0] * len(both))
    assert alone == pytest.approx([40.0] * len(alone))
    assert local(2, 7, 55) < points[0][0] and points[-1][0] < local(2, 16, 10)
    # The period's figure the tile shows: 80 % for 4 h and 40 % for 8 h (+ the last report's
    # hold until each vehicle is offline).
    assert out.fleet["current"]["mean_charge"] == pytest.approx((80 * 4 + 40 * 8) / 12, abs=0.1)


def test_the_combined_health_line_weighs_every_vehicle_the_same() -> None:
    grid = SlotGrid.over(Window(local(2, 0), local(3, 0)), slots=24)
    lines = {
        "vehicle_id": np.array([1, 1, 2, 2]),
        "slot": np.array([0, 5, 0, 3]),
        # Vehicle 1: two samples averaging 96 in slot 0; vehicle 2 one sample of 90 there
        # (the vehicles' means: 93; the samples' mean would be 94). Slot 5: vehicle 1 alone;
        # slot 3: vehicle 2 alone. No other slot has a SoH.
        "health_n": np.array([2.0, 1.0, 1.0, 1.0]),
        "health_y": np.array([192.0, 95.0, 90.0, 89.0]),
    }
    points = fleet_health_points(lines, grid=grid)
    middles = grid.middles_us() // 1000
    assert points == [(middles[0], 93.0), (middles[3], 89.0), (middles[5], 95.0)]
    assert fleet_health_points(None, grid=grid) == []
    # The trend: the mean of the two fitted lines at the first and the last point, a line whose
    # slope is the mean of theirs (the fleet's healthSlopePer30Days).
    start_s = to_micros(local(2, 0)) / 1e6
    fitted = {
        (1, CURRENT): SampleFigures(health_line=HealthLine(-1e-6, 96.0 + 1e-6 * start_s)),
        (2, CURRENT): SampleFigures(health_line=HealthLine(-3e-6, 90.0 + 3e-6 * start_s)),
        (3, CURRENT): SampleFigures(),  # no SoH: not in the mean
    }
    scope = _scope(MONDAY, None, [1, 2, 3])
    (first_at, first), (last_at, last) = health_trend(fitted, scope.vehicle_ids, points)
    assert (first_at, last_at) == (points[0][0], points[-1][0])
    assert first == pytest.approx(93.0 - 2e-6 * (first_at / 1000 - start_s))
    assert (last - first) / ((last_at - first_at) / 1000) == pytest.approx(-2e-6)
    assert health_trend(fitted, scope.vehicle_ids, points[:1]) == []


def test_the_combined_line_takes_whole_hours_beyond_a_day() -> None:
    """The hourly rollups then hold its slots; a day keeps the fine slots."""
    day = Window(local(2, 0), local(3, 0))
    week = Window(local(2, 0), local(9, 0))
    year = Window(local(2, 0), local(2, 0) + timedelta(days=365))
    fine = fleet_charge_grid(day, slots=250)
    assert (fine.count, fine.hour_aligned) == (250, False)
    assert fleet_charge_grid(week, slots=250).width_us == 3_600_000_000
    # This week so far: from Monday to now, off the full hour (the slots start on it).
    so_far = Window(local(2, 0, 30), local(7, 20, 41, 5))
    hourly = fleet_charge_grid(so_far, slots=250)
    assert (hourly.width_us, hourly.count) == (3_600_000_000, 5 * 24 + 21)
    # Beyond 250 hours the slots keep in step with the day (a fleet's charge follows its
    # shifts; 9 h or 36 h slots would each hold another share of them): a width dividing a
    # day, else whole days, from the period's first midnight.
    widths = {
        days: fleet_charge_grid(Window(local(2, 0), local(2, 0) + timedelta(days=days)), slots=250)
        for days in (30, 45, 90, 180, 365)
    }
    hours = {days: grid.width_us // 3_600_000_000 for days, grid in widths.items()}
    assert hours == {30: 3, 45: 6, 90: 12, 180: 24, 365: 48}
    assert all(grid.count <= 250 and grid.hour_aligned for grid in widths.values())
    assert fleet_charge_grid(year, slots=250).count == 183
    assert fleet_charge_grid(year, slots=250).start_us == to_micros(local(2, 0))


def test_a_slot_grid_cuts_a_window_at_its_slots() -> None:
    grid = SlotGrid.over(Window(local(2, 0), local(3, 0)), slots=24)
    parts = list(slot_parts(grid, Window(local(2, 5, 30), local(2, 7, 15))))
    assert parts == [
        (5, Window(local(2, 5, 30), local(2, 6))),
        (6, Window(local(2, 6), local(2, 7))),
        (7, Window(local(2, 7), local(2, 7, 15))),
    ]
    assert list(slot_parts(grid, Window(local(2, 6), local(2, 7)))) == [
        (6, Window(local(2, 6), local(2, 7)))
    ]
