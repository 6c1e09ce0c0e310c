"""The hourly battery rows (``battery_hourly``) in memory: a grid of vehicles by UTC hours.

Over 30 days of 100 vehicles, grouping the 72 k hourly rows of both periods into the
charge chart's slots costs DuckDB 30 ms, most of a Battery answer. In memory the slots of
whole hours are ``reduceat`` over a view of the grid (``battery_measures.combine``): 5 ms
for 30 days, 20-35 for a year. A cell holds one vehicle's measures of one hour, empty where it
has no samples; all measures are float64 (96 bytes a cell: 84 MB for a year of 100
vehicles).

The grid follows the battery samples (``hour_grid``): the hours a new sample touches begin
an hour before its own, whose step under 20 % it may end (the writer recomputes the same,
``battery_hours.refresh``).
"""

import numpy as np

from fleetscope.analytics.battery_measures import EMPTY, Keys, Units, combine, moved
from fleetscope.analytics.battery_slots import MICROS, SlotGrid
from fleetscope.analytics.hour_grid import Feeder, FollowedHours, GridSource, HourGrid
from fleetscope.analytics.periods import Window
from fleetscope.facts.battery_hours import MEASURE_COLUMNS, MICROS_PER_HOUR, TABLE
from fleetscope.facts.store import FactStore

_FIELD = {name: index for index, name in enumerate(MEASURE_COLUMNS)}


def slot_units(
    held: HourGrid,
    vehicle_ids: list[int],
    ranges: list[Window],
    grid: SlotGrid,
    *,
    key_base: int,
    first_key: int,
) -> tuple[Keys, Units] | None:
    """The units of the whole hours ``ranges`` (ascending) per vehicle and slot of
    ``grid`` with samples, from the cells ``held``, keyed vehicle x ``key_base`` +
    ``first_key`` + slot; None when the ranges begin before the hours it holds
    (``MAX_CELLS``)."""
    spans = held.hour_span(ranges)
    if spans is None:
        return None
    rows = [held.row_of[vehicle] for vehicle in sorted(vehicle_ids) if vehicle in held.row_of]
    low, high = (spans[0][0], spans[-1][1]) if spans else (0, 0)
    if low >= high or not rows:
        return np.empty(0, dtype=np.int64), {name: np.empty(0) for name in MEASURE_COLUMNS}
    inside = np.zeros(high - low, dtype=bool)
    for start, end in spans:
        inside[start - low : end - low] = True
    # A few of many vehicles: their cells (a copy); else a view of all, picked after.
    few = 2 * len(rows) < len(held.row_of)
    cells = held.values[:, rows, low:high] if few else held.values[:, :, low:high]
    hours = np.arange(low, high)
    if not inside.all():
        # Hours of T only (a shift): ``reduceat`` costs per group and row, and a year of
        # night shifts would otherwise be 730 groups (37 ms against 12 for the copy).
        # ``take``, not an index: its copy keeps the hours contiguous, which makes the
        # gather twice and ``reduceat`` eight times as fast. From the whole grid (or
        # the few vehicles' copy): ``take`` copies a sliced view whole first.
        hours = np.flatnonzero(inside) + low
        cells = np.take(cells, hours - low, axis=2) if few else held.values.take(hours, axis=2)
    hour_us = (hours + held.first_hour) * MICROS_PER_HOUR
    slots = (hour_us - grid.start_us) // grid.width_us
    starts = np.flatnonzero(np.r_[True, slots[1:] != slots[:-1]])
    offset_s = ((hour_us - grid.start_us) % grid.width_us / MICROS).astype(np.float64)
    combined = combine(
        moved({name: cells[field] for name, field in _FIELD.items()}, offset_s), starts
    )
    if not few:
        combined = {name: values[rows] for name, values in combined.items()}
    with_samples = np.isfinite(combined["low"])
    vehicle_index, slot_index = np.nonzero(with_samples)
    vehicles = np.array(sorted(v for v in vehicle_ids if v in held.row_of), dtype=np.int64)
    keys = vehicles[vehicle_index] * key_base + first_key + slots[starts][slot_index]
    return keys, {name: values[with_samples] for name, values in combined.items()}


class HourMeasures(FollowedHours):
    """The grid of the served fact store's hourly battery rows (module text)."""

    def __init__(self, store: FactStore) -> None:
        super().__init__(
            store,
            GridSource(
                table=TABLE,
                fields=tuple((name, name) for name in MEASURE_COLUMNS),
                fill=tuple(float(EMPTY[name]) for name in MEASURE_COLUMNS),
                # A sample ends the step under 20 % of the one before it, up to the cap.
                feeder=Feeder("battery_samples", "sampled_at", "sampled_at"),
                lead_hours=-(-store.low_cap_us // MICROS_PER_HOUR),
            ),
        )
