"""The hourly battery rows (``battery_hourly``) in memory: a grid of vehicles by UTC hours.

Over 30 days of 100 vehicles, grouping the 72 k hourly rows of both periods into the
charge chart's slots costs DuckDB 30 ms, most of a Battery answer. In memory the slots of
whole hours are ``reduceat`` over a view of the grid (``battery_measures.combine``): 5 ms
for 30 days, 20-35 for a year. A cell holds one vehicle's measures of one hour, empty where it
has no samples; all measures are float64 (96 bytes a cell: 84 MB for a year of 100
vehicles). At most ``MAX_CELLS`` cells: beyond, the oldest hours are left to SQL.

The grid holds the rows of one snapshot, named by its count of samples (they are only
appended between the store's rebuilds and merges, ``FactStore.generation``). A reader whose
snapshot holds more samples brings it up to date: the samples after the grid's last
``rowid`` name the vehicles and hours they touched, and the grid takes the hourly rows of
those vehicles over those hours (from an hour before the first, whose step under 20 % a
new sample may end: the writer recomputes the same, ``battery_hours.refresh``). A reader
whose snapshot holds fewer samples reads SQL. The lock is held while a reader computes its
slots too (a few milliseconds): an update changes the grid in place.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import duckdb
import numpy as np

from fleetscope.analytics.battery_measures import EMPTY, Keys, Units, combine, filled, moved
from fleetscope.analytics.battery_slots import MICROS, SlotGrid
from fleetscope.analytics.periods import Window
from fleetscope.analytics.snapshot import count_rows
from fleetscope.facts.battery_hours import MEASURE_COLUMNS, MICROS_PER_HOUR, TABLE
from fleetscope.facts.rawlog import to_micros
from fleetscope.facts.store import FactStore

MAX_CELLS = 2_000_000
_GROWTH_HOURS = 24 * 30  # room made at once for the hours still to come
_FIELD = {name: index for index, name in enumerate(MEASURE_COLUMNS)}
_FILL = np.array([EMPTY[name] for name in MEASURE_COLUMNS])[:, None, None]
_ROWS = (
    "SELECT vehicle_id, epoch_us(hour_utc) // 3600000000 AS hour, "  # noqa: S608 - constants only
    + ", ".join(f"{name}::DOUBLE AS {name}" for name in MEASURE_COLUMNS)
    + f" FROM {TABLE}"
)


def _hour(at: datetime) -> int:
    return to_micros(at) // MICROS_PER_HOUR


def _read(cursor: duckdb.DuckDBPyConnection, where: str, parameters: tuple[object, ...]) -> Units:
    """Hourly rows as float columns (``vehicle_id``, ``hour`` in epoch hours, measures),
    NULL as the measure of an empty unit."""
    fetched = cursor.execute(f"{_ROWS} WHERE {where}", list(parameters)).fetchnumpy()
    return {name: filled(values, EMPTY.get(name, 0.0)) for name, values in fetched.items()}


class _Grid:
    """Cell (field, row of a vehicle, hour - ``first_hour``)."""

    def __init__(self, vehicles: list[int], first_hour: int, hours: int) -> None:
        self.row_of = {vehicle: row for row, vehicle in enumerate(vehicles)}
        self.first_hour = first_hour
        self.latest_us = -1  # the latest sample's instant
        self.empty_before = True  # no samples before the first hour (not cut by MAX_CELLS)
        self.values = np.empty((len(MEASURE_COLUMNS), len(vehicles), hours))
        self.values[...] = _FILL

    @property
    def end_hour(self) -> int:
        return self.first_hour + int(self.values.shape[2])

    def fits(self, vehicles: list[int], first_hour: int, end_hour: int) -> bool:
        """Whether the cells of ``vehicles`` over the hours are there, or those before the
        first hour would exceed ``MAX_CELLS`` (then SQL reads them)."""
        if set(vehicles) - set(self.row_of) or end_hour > self.end_hour:
            return False
        lowest = self.end_hour - MAX_CELLS // max(1, len(self.row_of))
        return first_hour >= self.first_hour or self.first_hour <= lowest

    def resized(self, vehicles: set[int], first_hour: int, end_hour: int) -> "_Grid":
        """A copy that also holds ``vehicles`` and the hours from ``first_hour`` (or later:
        ``MAX_CELLS``) up to ``end_hour``, with room for a month more."""
        rows = [*self.row_of, *sorted(vehicles - set(self.row_of))]
        end_hour = max(end_hour, self.end_hour) + _GROWTH_HOURS
        fitting = max(first_hour, end_hour - MAX_CELLS // max(1, len(rows)))
        empty_before = self.empty_before and fitting == first_hour
        first_hour = fitting
        grown = _Grid(rows, first_hour, end_hour - first_hour)
        grown.latest_us, grown.empty_before = self.latest_us, empty_before
        kept_from, kept_to = max(first_hour, self.first_hour), min(end_hour, self.end_hour)
        if kept_from < kept_to:
            grown.values[:, : len(self.row_of), kept_from - first_hour : kept_to - first_hour] = (
                self.values[:, :, kept_from - self.first_hour : kept_to - self.first_hour]
            )
        return grown

    def put(self, rows: Units, *, vehicles: list[int], first_hour: int, end_hour: int) -> None:
        """The cells of ``vehicles`` from ``first_hour`` up to ``end_hour``: ``rows``, empty
        where they have none."""
        first, end = max(first_hour, self.first_hour), min(end_hour, self.end_hour)
        if first < end and vehicles:
            cells = np.array([self.row_of[vehicle] for vehicle in vehicles])[:, None]
            self.values[:, cells, np.arange(first - self.first_hour, end - self.first_hour)] = _FILL
        columns = rows["hour"].astype(np.int64) - self.first_hour
        kept = (columns >= 0) & (columns < self.end_hour - self.first_hour)
        cell_rows = np.array(
            [self.row_of[vehicle] for vehicle in rows["vehicle_id"][kept].astype(int).tolist()],
            dtype=np.intp,
        )
        for name, field in _FIELD.items():
            self.values[field, cell_rows, columns[kept]] = rows[name][kept]

    def slot_units(
        self,
        vehicle_ids: list[int],
        ranges: list[Window],
        grid: SlotGrid,
        *,
        key_base: int,
        first_key: int,
    ) -> tuple[Keys, Units] | None:
        """The units of the whole hours ``ranges`` (ascending) per vehicle and slot of
        ``grid`` with samples, keyed vehicle x ``key_base`` + ``first_key`` + slot; None when
        the ranges begin before the hours it holds (``MAX_CELLS``)."""
        spans = [(_hour(r.start) - self.first_hour, _hour(r.end) - self.first_hour) for r in ranges]
        rows = [self.row_of[vehicle] for vehicle in sorted(vehicle_ids) if vehicle in self.row_of]
        if spans and spans[0][0] < 0:
            if not self.empty_before:
                return None
            spans = [(max(start, 0), end) for start, end in spans if end > 0]
        low, high = (
            (spans[0][0], min(spans[-1][1], self.end_hour - self.first_hour)) if spans else (0, 0)
        )
        if low >= high or not rows:
            return np.empty(0, dtype=np.int64), {name: np.empty(0) for name in MEASURE_COLUMNS}
        inside = np.zeros(high - low, dtype=bool)
        for start, end in spans:
            inside[max(start, low) - low : min(end, high) - low] = True
        # A few of many vehicles: their cells (a copy); else a view of all, picked after.
        few = 2 * len(rows) < len(self.row_of)
        cells = self.values[:, rows, low:high] if few else self.values[:, :, low:high]
        hours = np.arange(low, high)
        if not inside.all():
            # Hours of T only (a shift): ``reduceat`` costs per group and row, and a year of
            # night shifts would otherwise be 730 groups (37 ms against 12 for the copy).
            # ``take``, not an index: its copy keeps the hours contiguous, which makes the
            # gather twice and ``reduceat`` eight times as fast. From the whole grid (or
            # the few vehicles' copy): ``take`` copies a sliced view whole first.
            hours = np.flatnonzero(inside) + low
            cells = np.take(cells, hours - low, axis=2) if few else self.values.take(hours, axis=2)
        hour_us = (hours + self.first_hour) * MICROS_PER_HOUR
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
        vehicles = np.array(sorted(v for v in vehicle_ids if v in self.row_of), dtype=np.int64)
        keys = vehicles[vehicle_index] * key_base + first_key + slots[starts][slot_index]
        return keys, {name: values[with_samples] for name, values in combined.items()}


class HourMeasures:
    """The grid of the served fact store, kept as readers see it (module text)."""

    def __init__(self, store: FactStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._grid: _Grid | None = None
        self._generation = -1
        self._samples = 0  # the samples of the snapshot the grid holds
        self._next_rowid = 0  # above the rowid of each of them

    @contextmanager
    def current(self, cursor: duckdb.DuckDBPyConnection) -> Iterator["_Grid | None"]:
        """The grid of the cursor's snapshot (None: SQL), held for the ``with`` block."""
        with self._lock:
            yield self._current(cursor)

    def _current(self, cursor: duckdb.DuckDBPyConnection) -> _Grid | None:
        generation = self._store.generation
        samples = count_rows(cursor, "battery_samples")  # max(rowid) would scan the table
        if generation % 2 or generation != self._store.generation:
            return None  # a rebuild or merge under way
        if generation != self._generation:
            self._grid, self._generation = None, generation
        if self._grid is not None and samples < self._samples:
            return None  # an older snapshot
        if self._grid is None or samples > self._samples:
            self._grid = self._followed(cursor, self._grid)
            self._samples = samples
        return self._grid

    def _followed(self, cursor: duckdb.DuckDBPyConnection, grid: _Grid | None) -> _Grid:
        """``grid`` (None: an empty one) with the cells the samples after ``_next_rowid``
        changed (module text): all of them, for a grid of no samples yet."""
        touched = cursor.execute(
            "SELECT list(DISTINCT vehicle_id), min(epoch_us(sampled_at)) // 3600000000, "
            "max(epoch_us(sampled_at)), max(rowid) FROM battery_samples WHERE rowid >= ?",
            [self._next_rowid if grid else 0],
        ).fetchall()[0]
        grid = grid or _Grid([], 0, 0)
        vehicles, first, latest_us, last_rowid = sorted(touched[0] or []), *touched[1:]
        if first is None:
            return grid
        self._next_rowid = int(last_rowid) + 1
        grid.latest_us = max(grid.latest_us, int(latest_us))
        first_hour = int(first) - -(-self._store.low_cap_us // MICROS_PER_HOUR)
        end_hour = int(latest_us) // MICROS_PER_HOUR + 1
        if not grid.fits(vehicles, first_hour, end_hour):
            earliest = min(first_hour, grid.first_hour) if grid.row_of else first_hour
            grid = grid.resized(set(vehicles), earliest, end_hour)
        rows = _read(
            cursor,
            "hour_utc >= make_timestamptz(? * 3600000000) "
            "AND hour_utc < make_timestamptz(? * 3600000000) "
            "AND list_contains(?::INTEGER[], vehicle_id)",
            (first_hour, end_hour, vehicles),
        )
        grid.put(rows, vehicles=vehicles, first_hour=first_hour, end_hour=end_hour)
        return grid
