"""Measures of the hourly rollups in memory: grids of vehicles by UTC hours (``hour_grid``),
one per group of measures that one fact table changes, for answers that read only those
(Battery's charge KPIs; the failure analysis' planned time, stops and ended orders).

Over 30 night shifts of 100 vehicles, DuckDB's join of ``rollup_hourly`` on the shifts'
hours costs 9-14 ms (decompressing nine columns of 144,000 rows and grouping them); the
same sums from the grids take about a millisecond: each grid keeps the running sums of its
measures over the hours, so that a span of hours is two lookups, whatever its length (a
minimum is reduced over the hours). Whole local days come from the grids' hours as well
(``rollup_daily`` exists for SQL: fewer rows to read).

A group's columns of a vehicle's hour change only with the facts of its table, which the
writer folds into them in the same transaction: each grid follows its table (an answer
counts the rows of the tables it needs in its snapshot, one statement each). Eight bytes
per measure and cell, and as much for the running sums: 14 MB per measure for a year of
100 vehicles (14 measures: 200 MB).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import duckdb
import numpy as np

from fleetscope.analytics.hour_grid import Feeder, FollowedHours, GridSource, HourGrid
from fleetscope.analytics.measure_table import COLUMN, MIN_COLUMN, STATE_MEASURES, Matrix
from fleetscope.analytics.periods import Window
from fleetscope.analytics.rollup_read import FLEET
from fleetscope.facts.rollup import HELD_START_SQL
from fleetscope.facts.rollup_spans import SPANNED_SQL
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
            feeder=self.feeder,
        )


_GROUPS = (
    _Group(
        tuple(sorted(STATE_MEASURES, key=COLUMN.__getitem__)),
        # A long offline interval has no rollup rows (``rollup_spans``): its hours are not
        # touched, and a grid following it from its start would span the whole silence.
        Feeder(
            "state_intervals", f"CASE WHEN {SPANNED_SQL} THEN end_at ELSE start_at END", "end_at"
        ),
    ),
    _Group(
        ("battery_samples", "battery_charge_sum", _MINIMUM),
        # A sample's hold counts where it starts (``facts.rollup.held_start``).
        Feeder("battery_samples", HELD_START_SQL, "sampled_at"),
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
        ranges: Mapping[int, Sequence[Window]],
        *,
        by_vehicle: bool,
        only: frozenset[str],
    ) -> list[Rows] | None:
        """The measures ``only`` (of ``GRID_MEASURES``) of the whole hours ``ranges`` (per
        bucket, ascending) per vehicle (or ``FLEET``) and bucket, as rows of ``add_rows``;
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


def bucket_sums(
    held: HourGrid,
    group: _Group,
    vehicle_ids: list[int],
    ranges: Mapping[int, Sequence[Window]],
    *,
    by_vehicle: bool,
) -> Rows | None:
    """The group's measures of the whole-hour ``ranges`` (per bucket, ascending) per
    vehicle (or ``FLEET``) and bucket: the keys with any. None when the ranges begin
    before the hours held."""
    present = [(v, held.row_of[v]) for v in vehicle_ids if v in held.row_of]
    columns = [COLUMN[name] for name in group.measures]
    summed = tuple(i for i, name in enumerate(group.measures) if name != _MINIMUM)
    minimum = group.measures.index(_MINIMUM) if _MINIMUM in group.measures else None
    vehicles: list[int] = []
    buckets: list[int] = []
    values: list[Matrix] = []
    for bucket, bucket_ranges in sorted(ranges.items()):
        spans = held.hour_span(list(bucket_ranges))
        if spans is None:
            return None
        if not spans or not present:
            continue
        rows = [row for _, row in present]
        starts = np.array([start for start, _ in spans])
        ends = np.array([end for _, end in spans])
        running = held.running_sums(summed)
        found = np.zeros((len(rows), _WIDTH))
        found[:, MIN_COLUMN] = np.nan
        sums = (running[:, :, ends] - running[:, :, starts]).sum(axis=2)
        found[:, [columns[i] for i in summed]] = sums[:, rows].T
        if minimum is not None:
            # Minima do not subtract: over the hours from the first span's start on, the
            # spans' segments (every other one of ``reduceat``'s).
            # A few of many vehicles: their cells (a copy); else a view of all, picked after.
            few = 2 * len(rows) < len(held.row_of)
            cells = held.values[minimum, :, starts[0] : ends[-1]]
            edges = np.ravel(np.column_stack((starts, ends)))[:-1] - starts[0]
            segments = np.fmin.reduceat(cells[rows] if few else cells, edges, axis=1)
            lowest = np.fmin.reduce(segments[:, ::2], axis=1)
            found[:, MIN_COLUMN] = lowest if few else lowest[rows]
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
