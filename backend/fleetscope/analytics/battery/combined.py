"""The battery page's lines when the selected vehicles are combined (product.md section 4:
one aggregate series): per time slot the fleet's time-weighted mean charge, read as the mean
charge KPI is (the rollups' measures of the slot's part of T), and the vehicles' mean state
of health with the mean of their fitted health lines (whose slope is the fleet's
``healthSlopePer30Days``)."""

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta

import duckdb
import numpy as np

from fleetscope.analytics.battery import scan
from fleetscope.analytics.core.collect import FLEET, Tagged, collect
from fleetscope.analytics.core.facts import CURRENT
from fleetscope.analytics.core.measure_table import COLUMN, MeasureTable
from fleetscope.analytics.core.models import EpochMillis, epoch_millis
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import Window, period_windows
from fleetscope.analytics.core.plan import site_request
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import from_micros, to_micros
from fleetscope.facts.rollup import MICROS

MEAN_CHARGE_MEASURES = frozenset({"battery_samples", "battery_charge_sum"})
# Slot widths in hours that divide a day; beyond them, whole days.
_IN_STEP_HOURS = (1, 2, 3, 4, 6, 8, 12, 24)
Point = tuple[EpochMillis, float]


def fleet_charge_grid(period: Window, *, slots: int) -> scan.SlotGrid:
    """The combined charge line's slots: ``slots`` in a period up to a day (25 h: the day of
    a clock change), beyond whole hours from the period's start, which the rollups hold (a
    week of 40-minute slots would read the week's raw samples), at most ``slots``. Their
    width divides a day or is whole days: the fleet's charge follows the day's shifts, and
    slots out of step with it (9 h, 36 h) would each hold another share of day and night."""
    hourly = scan.SlotGrid.hourly(period)
    if hourly.count <= 25:
        return scan.SlotGrid.over(period, slots=slots)
    hours = next((h for h in _IN_STEP_HOURS if -(-hourly.count // h) <= slots), None)
    hours = hours or 24 * -(-hourly.count // (24 * slots))
    width_us = hours * MICROS_PER_HOUR
    return scan.SlotGrid(hourly.start_us, width_us, -(-hourly.count // hours), period)


def slot_parts(grid: scan.SlotGrid, window: Window) -> Iterator[tuple[int, Window]]:
    """``window``'s parts in the slots of ``grid`` it overlaps, each with its slot."""
    start_us, end_us = to_micros(window.start), to_micros(window.end)
    first = max(0, (start_us - grid.start_us) // grid.width_us)
    last = min(grid.count - 1, (end_us - 1 - grid.start_us) // grid.width_us)
    for slot in range(first, last + 1):
        slot_start_us = grid.start_us + slot * grid.width_us
        part = Window(
            from_micros(max(start_us, slot_start_us)),
            from_micros(min(end_us, slot_start_us + grid.width_us)),
        )
        if part.start < part.end:
            yield slot, part


def fleet_charge_points(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    grid: scan.SlotGrid,
    now: datetime,
    offline_after: timedelta,
) -> list[Point]:
    """Per slot of ``grid`` the time-weighted mean charge of all selected vehicles over the
    slot's part of T, at the slot's middle; slots without a known charge are left out. A
    report's hold counts in the slot where it starts, as in the KPI: the slots' holds add up
    to the period's mean charge."""
    measures = MeasureTable()
    for group in scope.sites:
        if group.excluded:
            continue
        windows = period_windows(span=scope.span, zone=group.zone, shift=group.shift, now=now)
        parts = [
            Tagged(part, slot) for window in windows for slot, part in slot_parts(grid, window)
        ]
        request = site_request(group, parts, by_vehicle=False, only=MEAN_CHARGE_MEASURES)
        measures.merge(collect(cursor, request, now=now, offline_after=offline_after))
    rows = measures.rows([(FLEET, slot) for slot in range(grid.count)])
    held_s = rows[:, COLUMN["battery_samples"]] / MICROS
    known = held_s > 0
    means = rows[known, COLUMN["battery_charge_sum"]] / held_s[known]
    return list(zip(epoch_millis(grid.middles_us()[known]), means.tolist(), strict=True))


def fleet_health_points(lines: scan.Units | None, *, grid: scan.SlotGrid) -> list[Point]:
    """Per slot with a SoH sample the mean over the vehicles reporting one of each vehicle's
    mean SoH in the slot (every vehicle weighs the same, as in ``healthLatest``)."""
    if lines is None:
        return []
    rows = lines["health_n"] > 0
    slots = lines["slot"][rows].astype(np.int64)
    vehicle_means = lines["health_y"][rows] / lines["health_n"][rows]
    reporting = np.bincount(slots, minlength=grid.count)
    sums = np.bincount(slots, weights=vehicle_means, minlength=grid.count)
    with_health = reporting > 0
    means = sums[with_health] / reporting[with_health]
    return list(zip(epoch_millis(grid.middles_us()[with_health]), means.tolist(), strict=True))


def health_trend(
    samples: Mapping[tuple[int, int], scan.SampleFigures],
    vehicle_ids: Sequence[int],
    points: list[Point],
) -> list[Point]:
    """The mean of the fitted health lines of ``vehicle_ids`` (one vehicle: its line) at the
    first and the last of ``points``; empty below two points or without a fitted line. A
    point's instant is its slot's middle, already in whole milliseconds."""
    fitted = [samples.get((vehicle_id, CURRENT)) for vehicle_id in vehicle_ids]
    health_lines = [f.health_line for f in fitted if f is not None and f.health_line is not None]
    if not health_lines or len(points) < 2:
        return []
    return [
        (at, sum(line.at(at * scan.MILLIS) for line in health_lines) / len(health_lines))
        for at, _ in (points[0], points[-1])
    ]
