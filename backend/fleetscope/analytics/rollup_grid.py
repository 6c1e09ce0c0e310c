"""Measures of the hourly rollups in memory: grids of vehicles by UTC hours (``hour_grid``),
one per group of measures that one fact table changes, for answers that read only those
(Battery's charge KPIs; the failure analysis' planned time, stops and ended orders).

Over 30 night shifts of 100 vehicles, DuckDB's join of ``rollup_hourly`` on the shifts'
hours costs 9-14 ms (decompressing nine columns of 144,000 rows and grouping them); the
same sums from the grids take about a millisecond. Whole local days come from the grids'
hours as well (``rollup_daily`` exists for SQL: fewer rows to read).

A group's columns of a vehicle's hour change only with the facts of its table, which the
writer folds into them in the same transaction: each grid follows its table (an answer
counts the rows of the tables it needs in its snapshot, one statement each). Eight bytes
per measure and cell: 7 MB per measure for a year of 100 vehicles (14 measures: 98 MB).
"""

from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import numpy as np

from fleetscope.analytics.hour_grid import Feeder, FollowedHours, GridSource, HourGrid
from fleetscope.analytics.measure_table import COLUMN, MIN_COLUMN, STATE_MEASURES, Matrix
from fleetscope.analytics.periods import Window
from fleetscope.analytics.rollup_read import FLEET
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros
from fleetscope.facts.store import FactStore

_MINIMUM = "battery_charge_min"  # NaN for none, combined with fmin
_WIDTH = MIN_COLUMN + 1  # the columns of ``COLUMNS`` up to the minimum: all the grids fill

Rows = tuple[list[int], list[int], Matrix]  # ``MeasureTable.add_rows``' vehicles, buckets, values


@dataclass(frozen=True, slots=True)
class _Group:
    measures: tuple[str, ...]  # names of ``measure_table.COLUMNS``
    feeder: Feeder

    @property
    def source(self) -> GridSource:
        return GridSource(
            table="rollup_hourly",
            fields=tuple((name, name) for name in self.measures),
            fill=tuple(np.nan if name == _MINIMUM else 0.0 for name in self.measures),
            feeders=(self.feeder,),
        )


_GROUPS = (
    _Group(
        tuple(sorted(STATE_MEASURES, key=COLUMN.__getitem__)),
        Feeder("state_intervals", "start_at", "end_at"),
    ),
    _Group(
        ("battery_samples", "battery_charge_sum", _MINIMUM),
        Feeder("battery_samples", "sampled_at", "sampled_at"),
    ),
    _Group(("stop_errors", "stop_error_s"), Feeder("error_episodes", "start_at", "start_at")),
    _Group(
        ("orders_finished", "orders_failed", "orders_cancelled"),
        Feeder("orders", "end_at", "end_at"),
    ),
)
GRID_MEASURES = frozenset(name for group in _GROUPS for name in group.measures)


class RollupHours:
    """The grids of the served fact store's ``rollup_hourly`` (module text)."""

    def __init__(self, store: FactStore) -> None:
        self._grids = [(group, FollowedHours(store, group.source)) for group in _GROUPS]

    def sums(
        self,
        cursor: duckdb.DuckDBPyConnection,
        vehicle_ids: list[int],
        ranges: Sequence[tuple[Window, int]],
        *,
        by_vehicle: bool,
        only: frozenset[str],
    ) -> list[Rows] | None:
        """The measures ``only`` (of ``GRID_MEASURES``) of the whole hours ``ranges`` (each
        with its bucket) per vehicle (or ``FLEET``) and bucket, as rows of ``add_rows``;
        None when a grid does not hold the cursor's snapshot or the hours."""
        found: list[Rows] = []
        for group, grid in self._grids:
            if not only.intersection(group.measures):
                continue
            with grid.current(cursor) as held:
                rows = None
                if held is not None:
                    rows = bucket_sums(held, group, vehicle_ids, ranges, by_vehicle=by_vehicle)
            if rows is None:
                return None
            found.append(rows)
        return found

    def warm(self, cursor: duckdb.DuckDBPyConnection) -> None:
        """Build every grid for the cursor's snapshot (at start-up)."""
        for _, grid in self._grids:
            with grid.current(cursor):
                pass


def _hours(window: Window) -> tuple[int, int]:
    return to_micros(window.start) // MICROS_PER_HOUR, to_micros(window.end) // MICROS_PER_HOUR


def bucket_sums(
    held: HourGrid,
    group: _Group,
    vehicle_ids: list[int],
    ranges: Sequence[tuple[Window, int]],
    *,
    by_vehicle: bool,
) -> Rows | None:
    """The group's measures of the whole hours ``ranges`` per vehicle (or ``FLEET``) and
    bucket: the keys with any. None when the ranges begin before the hours held."""
    present = [(v, held.row_of[v]) for v in vehicle_ids if v in held.row_of]
    columns = [COLUMN[name] for name in group.measures]
    summed = [i for i, name in enumerate(group.measures) if name != _MINIMUM]
    minimum = group.measures.index(_MINIMUM) if _MINIMUM in group.measures else None
    vehicles: list[int] = []
    buckets: list[int] = []
    values: list[Matrix] = []
    for bucket in sorted({b for _, b in ranges}):
        spans = held.hour_span(sorted(_hours(w) for w, b in ranges if b == bucket))
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
            picked = cells.take(np.concatenate([np.arange(s, e) for s, e in spans]), axis=2)
        found = np.zeros((len(picked[0]), _WIDTH))
        found[:, MIN_COLUMN] = np.nan
        found[:, [columns[i] for i in summed]] = picked[summed].sum(axis=2).T
        if minimum is not None:
            found[:, MIN_COLUMN] = np.fmin.reduce(picked[minimum], axis=1)
        if not few:
            found = found[rows]
        if not by_vehicle:
            total = found[:, :MIN_COLUMN].sum(axis=0)
            found = np.append(total, np.fmin.reduce(found[:, MIN_COLUMN]))[None, :]
        with_any = (found[:, :MIN_COLUMN] != 0).any(axis=1) | ~np.isnan(found[:, MIN_COLUMN])
        keys = [v for v, _ in present] if by_vehicle else [FLEET]
        vehicles += [key for key, kept in zip(keys, with_any.tolist(), strict=True) if kept]
        buckets += [bucket] * int(with_any.sum())
        values.append(found[with_any])
    if not values:
        return [], [], np.zeros((0, _WIDTH))
    return vehicles, buckets, np.concatenate(values)
