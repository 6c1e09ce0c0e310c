"""The hourly rollups' state times and battery samples in memory: a grid of vehicles by UTC
hours (``hour_grid``), for answers that read only those (Battery's charge KPIs).

Over 30 night shifts of 100 vehicles, DuckDB's join of ``rollup_hourly`` on the shifts'
hours costs 9-14 ms (decompressing nine columns of 144,000 rows and grouping them); the
same sums from the grid take about a millisecond. Whole local days come from the grid's
hours as well (``rollup_daily`` exists for SQL: fewer rows to read).

These columns of a vehicle's hour change only with its state intervals and battery
samples, which the writer folds into them in the same transaction: the grid follows those
two tables. 9 fields of 8 bytes a cell: 63 MB for a year of 100 vehicles.
"""

import numpy as np

from fleetscope.analytics.hour_grid import Feeder, FollowedHours, GridSource, HourGrid
from fleetscope.analytics.measure_table import COLUMN, MIN_COLUMN, STATE_MEASURES, Matrix
from fleetscope.analytics.periods import Window
from fleetscope.analytics.rollup_read import FLEET
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros
from fleetscope.facts.store import FactStore

# The measures the grid holds (names of ``measure_table.COLUMNS``), in its field order.
GRID_MEASURES = (
    *sorted(STATE_MEASURES, key=COLUMN.__getitem__),
    "battery_samples",
    "battery_charge_sum",
    "battery_charge_min",
)
_SOURCE = GridSource(
    table="rollup_hourly",
    fields=tuple((name, name) for name in GRID_MEASURES),
    fill=tuple(np.nan if name == "battery_charge_min" else 0.0 for name in GRID_MEASURES),
    feeders=(
        Feeder("state_intervals", "start_at", "end_at"),
        Feeder("battery_samples", "sampled_at", "sampled_at"),
    ),
)
_WIDTH = MIN_COLUMN + 1  # the columns of ``COLUMNS`` up to the minimum: all the grid fills
_SUMMED = [i for i, name in enumerate(GRID_MEASURES) if name != "battery_charge_min"]
_MIN_FIELD = GRID_MEASURES.index("battery_charge_min")


class RollupHours(FollowedHours):
    """The grid of the served fact store's ``rollup_hourly`` (module text)."""

    def __init__(self, store: FactStore) -> None:
        super().__init__(store, _SOURCE)


def _hour(at: Window) -> tuple[int, int]:
    return to_micros(at.start) // MICROS_PER_HOUR, to_micros(at.end) // MICROS_PER_HOUR


def bucket_sums(
    held: HourGrid, vehicle_ids: list[int], ranges: list[tuple[Window, int]], *, by_vehicle: bool
) -> tuple[list[int], list[int], Matrix] | None:
    """The measures of the whole hours ``ranges`` (each with its bucket) per vehicle (or
    ``FLEET``) and bucket, as rows for ``MeasureTable.add_rows``: the keys with any
    measure. None when the ranges begin before the hours the grid holds."""
    present = [(v, held.row_of[v]) for v in vehicle_ids if v in held.row_of]
    vehicles, buckets, values = [], [], []
    for bucket in sorted({b for _, b in ranges}):
        spans = held.hour_span(sorted(_hour(w) for w, b in ranges if b == bucket))
        if spans is None:
            return None
        if not spans or not present:
            continue
        rows = [row for _, row in present]
        # A few of many vehicles: their cells first (a copy of theirs, not of all).
        few = 2 * len(rows) < len(held.row_of)
        cells = held.values[:, rows] if few else held.values
        if len(spans) == 1:
            picked = cells[:, :, spans[0][0] : spans[0][1]]  # a view
        else:
            hours = np.concatenate([np.arange(start, end) for start, end in spans])
            picked = cells.take(hours, axis=2)
        sums = picked[_SUMMED].sum(axis=2)
        lowest = np.fmin.reduce(picked[_MIN_FIELD], axis=1)
        if not few:
            sums, lowest = sums[:, rows], lowest[rows]
        found = np.zeros((len(rows), _WIDTH))
        found[:, [COLUMN[GRID_MEASURES[i]] for i in _SUMMED]] = sums.T
        found[:, MIN_COLUMN] = lowest
        if not by_vehicle:
            found = np.concatenate(
                [found[:, :MIN_COLUMN].sum(axis=0), [np.fmin.reduce(found[:, MIN_COLUMN])]]
            )[None, :]
        with_any = (found[:, :MIN_COLUMN] != 0).any(axis=1) | ~np.isnan(found[:, MIN_COLUMN])
        keys = [v for v, _ in present] if by_vehicle else [FLEET]
        vehicles += [key for key, kept in zip(keys, with_any.tolist(), strict=True) if kept]
        buckets += [bucket] * int(with_any.sum())
        values.append(found[with_any])
    if not values:
        return [], [], np.zeros((0, _WIDTH))
    return vehicles, buckets, np.concatenate(values)
