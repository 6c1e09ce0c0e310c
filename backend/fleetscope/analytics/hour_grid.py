"""Hourly rows of the fact store in memory: a grid of vehicles by UTC hours, kept as readers
see it (the battery measures, ``battery_grid``; measures of the hourly rollups,
``rollup_grid``).

A cell holds one vehicle's fields of one hour (float64; ``fill`` where it has no row). At
most ``MAX_CELLS`` cells and ``MAX_HOURS`` hours: beyond, the oldest hours are left to SQL
(a vehicle whose first message is from years ago would otherwise stretch the grid of every
vehicle over the years in between).

The grid's fields of the hourly rows change only with the facts that one table (its
``Feeder``) appends, in the same transaction: the grid follows that table (``followed``).
A reader whose snapshot holds more of its rows brings the grid up to date: the rows after
the last ``rowid`` name the vehicles and hours they touched, and the grid takes the hourly
rows of those vehicles over those hours (and ``lead_hours`` before, for rows that a newer
fact changes before its own hour). A reader whose snapshot holds fewer rows reads SQL. The
lock is held while a reader computes from the grid too (a few milliseconds): an update
changes the grid in place.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb
import numpy as np

from fleetscope.analytics.battery_measures import Floats, filled
from fleetscope.analytics.followed import Followed
from fleetscope.analytics.periods import Window
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros
from fleetscope.facts.store import FactStore

MAX_CELLS = 2_000_000
# The longest period (400 days) and the previous one, which every answer compares with.
MAX_HOURS = 24 * 2 * 400
_GROWTH_HOURS = 24 * 30  # room made at once for the hours still to come
_NEAR_HOURS = 48  # vehicles whose new rows begin this close are read as one range
# Rows before an empty stretch this long, before all later rows, are left to SQL: a vehicle
# whose first message is years old does not stretch the grid over the years in between.
_ISLAND_GAP_HOURS = 24 * 31
_NEVER = -(1 << 62)


def _hour(at: datetime) -> int:
    return to_micros(at) // MICROS_PER_HOUR


@dataclass(frozen=True, slots=True)
class Feeder:
    """A fact table whose rows change the hourly rows of their vehicle from ``first`` up to
    ``last`` (SQL of its columns: instants)."""

    table: str
    first: str
    last: str


@dataclass(frozen=True, slots=True)
class GridSource:
    """Hourly rows of ``table`` (``vehicle_id``, ``hour_utc``) as ``fields`` (SQL of its
    columns, each as a name), empty as ``fill``."""

    table: str
    fields: tuple[tuple[str, str], ...]  # (name, SQL)
    fill: tuple[float, ...]
    feeder: Feeder
    lead_hours: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.fields)


class HourGrid:
    """Cell (field, row of a vehicle, hour - ``first_hour``)."""

    def __init__(self, source: GridSource, vehicles: list[int], first_hour: int, hours: int):
        self.source = source
        self.row_of = {vehicle: row for row, vehicle in enumerate(vehicles)}
        self.first_hour = first_hour
        self.latest_us = -1  # the latest instant a feeder's row touched
        # No rows from this hour up to the first (the hours before it are left to SQL): the
        # hours cut by ``MAX_CELLS`` or ``MAX_HOURS``, and rows far before all later ones.
        self.empty_from = _NEVER
        self.values = np.empty((len(source.fields), len(vehicles), hours))
        self.values[...] = self._fill
        # Running sums of some fields over the hours (``running_sums``), and the first hour
        # (column) each is out of date from.
        self._running: dict[tuple[int, ...], Floats] = {}
        self._stale_from: dict[tuple[int, ...], int] = {}

    @property
    def _fill(self) -> Floats:
        return np.array(self.source.fill)[:, None, None]

    @property
    def end_hour(self) -> int:
        return self.first_hour + int(self.values.shape[2])

    def field(self, name: str) -> int:
        return self.source.names.index(name)

    def fits(self, vehicles: list[int], first_hour: int, end_hour: int) -> bool:
        """Whether the cells of ``vehicles`` over the hours are there, or those before the
        first hour would exceed ``MAX_CELLS`` or ``MAX_HOURS`` (then SQL reads them)."""
        if set(vehicles) - set(self.row_of) or end_hour > self.end_hour:
            return False
        lowest = self.end_hour - min(MAX_HOURS, MAX_CELLS // max(1, len(self.row_of)))
        return first_hour >= self.first_hour or self.first_hour <= lowest

    def resized(self, vehicles: set[int], first_hour: int, end_hour: int) -> "HourGrid":
        """A copy that also holds ``vehicles`` and the hours from ``first_hour`` (or later:
        ``MAX_CELLS``, ``MAX_HOURS``) up to ``end_hour``, with room for a month more."""
        rows = [*self.row_of, *sorted(vehicles - set(self.row_of))]
        end_hour = max(end_hour, self.end_hour) + _GROWTH_HOURS
        fitting = max(first_hour, end_hour - min(MAX_HOURS, MAX_CELLS // max(1, len(rows))))
        empty_from = self.empty_from if fitting == first_hour else max(self.empty_from, fitting)
        first_hour = fitting
        grown = HourGrid(self.source, rows, first_hour, end_hour - first_hour)
        grown.latest_us, grown.empty_from = self.latest_us, empty_from
        kept_from, kept_to = max(first_hour, self.first_hour), min(end_hour, self.end_hour)
        if kept_from < kept_to:
            grown.values[:, : len(self.row_of), kept_from - first_hour : kept_to - first_hour] = (
                self.values[:, :, kept_from - self.first_hour : kept_to - self.first_hour]
            )
        return grown

    def put(
        self, rows: dict[str, Floats], *, vehicles: list[int], first_hour: int, end_hour: int
    ) -> None:
        """The cells of ``vehicles`` from ``first_hour`` up to ``end_hour``: ``rows``, empty
        where they have none."""
        first, end = max(first_hour, self.first_hour), min(end_hour, self.end_hour)
        for fields, stale_from in self._stale_from.items():
            self._stale_from[fields] = min(stale_from, first - self.first_hour)
        if first < end and vehicles:
            cells = np.array([self.row_of[vehicle] for vehicle in vehicles])[:, None]
            hours = np.arange(first - self.first_hour, end - self.first_hour)
            self.values[:, cells, hours] = self._fill
        columns = rows["hour"].astype(np.int64) - self.first_hour
        kept = (columns >= 0) & (columns < self.end_hour - self.first_hour)
        cell_rows = np.array(
            [self.row_of[vehicle] for vehicle in rows["vehicle_id"][kept].astype(int).tolist()],
            dtype=np.intp,
        )
        for field, name in enumerate(self.source.names):
            self.values[field, cell_rows, columns[kept]] = rows[name][kept]

    def running_sums(self, fields: tuple[int, ...]) -> Floats:
        """The sums of ``fields`` over the hours before each column: [field, vehicle row,
        hour + 1], zero at 0, so that the hours [s, e) sum to ``[..., e] - [..., s]`` (a
        span of a year costs two lookups instead of 8,760 additions; in float64 a year's
        sum of seconds keeps about 10^-8 s). Brought up to date from the first hour changed
        since it was last asked for."""
        running = self._running.get(fields)
        start = self._stale_from.get(fields, 0)
        if running is None:
            running = np.zeros((len(fields), self.values.shape[1], self.values.shape[2] + 1))
            self._running[fields], start = running, 0
        if start < self.values.shape[2]:
            tail = np.cumsum(self.values[list(fields), :, start:], axis=2)
            running[:, :, start + 1 :] = tail + running[:, :, start : start + 1]
        self._stale_from[fields] = self.values.shape[2]
        return running

    def hour_span(self, ranges: list[Window]) -> list[tuple[int, int]] | None:
        """Whole-hour ranges (ascending) as this grid's columns, clipped to the hours it
        holds; None when they begin before them and rows may lie there (before
        ``empty_from``)."""
        spans = [(_hour(r.start) - self.first_hour, _hour(r.end) - self.first_hour) for r in ranges]
        if spans and spans[0][0] < 0:
            if spans[0][0] + self.first_hour < self.empty_from:
                return None
            spans = [(max(start, 0), end) for start, end in spans if end > 0]
        limit = self.end_hour - self.first_hour
        return [(start, min(end, limit)) for start, end in spans if start < limit]


class FollowedHours(Followed[HourGrid]):
    """The ``HourGrid`` of ``source`` in the served fact store (module text)."""

    def __init__(self, store: FactStore, source: GridSource) -> None:
        super().__init__(store, source.feeder.table)
        self._source = source

    def follow(
        self, cursor: duckdb.DuckDBPyConnection, held: HourGrid | None, *, after: int
    ) -> tuple[HourGrid, int]:
        """``held`` (None: an empty grid) with the cells that the feeder's rows from
        ``after`` on changed (module text)."""
        source = self._source
        feeder = source.feeder
        touched = cursor.execute(
            f"SELECT vehicle_id, min(epoch_us({feeder.first})) // 3600000000, "  # noqa: S608 - constants only
            f"max(epoch_us({feeder.last})), max(rowid) FROM {feeder.table} WHERE rowid >= ? "
            "GROUP BY vehicle_id",
            [after],
        ).fetchall()
        grid = held or HourGrid(source, [], 0, 0)
        if not touched:
            return grid, after
        vehicles = sorted(int(row[0]) for row in touched)
        latest_us = max(int(row[2]) for row in touched)
        last_rowid = max(int(row[3]) for row in touched)
        grid.latest_us = max(grid.latest_us, latest_us)
        firsts = {int(row[0]): int(row[1]) - source.lead_hours for row in touched}
        first_hour = min(firsts.values())
        end_hour = latest_us // MICROS_PER_HOUR + 1
        # The grid's own hours count as rows: old rows alone do not stretch it either.
        known = (grid.first_hour, grid.end_hour - 1) if grid.row_of else None
        island = (
            _island(cursor, source, after=after, known=known)
            if max(end_hour, grid.end_hour) - first_hour > _ISLAND_GAP_HOURS
            else None
        )
        held_from = first_hour if island is None else island[0]
        if not grid.fits(vehicles, held_from, end_hour):
            earliest = min(held_from, grid.first_hour) if grid.row_of else held_from
            grid = grid.resized(set(vehicles), earliest, end_hour)
        if island is not None and first_hour < grid.first_hour:
            # The rows before the island up to ``island[1]`` are not held: SQL reads them.
            grid.empty_from = max(grid.empty_from, min(island[1] + 1, grid.first_hour))
        for group_first, group in _near_firsts(firsts):
            # Hours before the grid's first are left to SQL: not read.
            group_first = max(group_first, grid.first_hour)
            grid.put(
                _read(cursor, source, (group_first, end_hour, group)),
                vehicles=group,
                first_hour=group_first,
                end_hour=end_hour,
            )
        return grid, int(last_rowid) + 1


def _island(
    cursor: duckdb.DuckDBPyConnection,
    source: GridSource,
    *,
    after: int,
    known: tuple[int, int] | None,
) -> tuple[int, int] | None:
    """The first hour changed by the feeder's rows from ``after`` on (or of ``known``: the
    grid's hours, first and last) that follows an empty stretch of more than
    ``_ISLAND_GAP_HOURS`` after everything earlier, and the last hour that earlier part
    reaches; None without such a stretch. Grouped by hour first: a grid's first build
    reads millions of rows, a few thousand hours."""
    feeder = source.feeder
    found = cursor.execute(
        "SELECT f, reach FROM (SELECT f, max(l) OVER (ORDER BY f ROWS BETWEEN UNBOUNDED "  # noqa: S608 - constants only
        "PRECEDING AND 1 PRECEDING) AS reach FROM (SELECT epoch_us("
        f"{feeder.first}) // 3600000000 - ? AS f, max(epoch_us({feeder.last}) // 3600000000) "
        f"AS l FROM {feeder.table} WHERE rowid >= ? GROUP BY f UNION ALL "
        "SELECT unnest(?::BIGINT[]), unnest(?::BIGINT[]))) WHERE f - reach > ? "
        "ORDER BY f DESC LIMIT 1",
        [
            source.lead_hours,
            after,
            [known[0]] if known else [],
            [known[1]] if known else [],
            _ISLAND_GAP_HOURS,
        ],
    ).fetchall()
    return (int(found[0][0]), int(found[0][1])) if found else None


def _near_firsts(firsts: dict[int, int]) -> list[tuple[int, list[int]]]:
    """The vehicles by the first hour their new rows touched, in groups whose firsts lie
    within ``_NEAR_HOURS`` (usually one group), each with its earliest: a vehicle's row
    from long ago then does not make the grid read every vehicle's hours since."""
    groups: list[tuple[int, list[int]]] = []
    for vehicle, first in sorted(firsts.items(), key=lambda item: item[1]):
        if groups and first - groups[-1][0] <= _NEAR_HOURS:
            groups[-1][1].append(vehicle)
        else:
            groups.append((first, [vehicle]))
    return groups


def _read(
    cursor: duckdb.DuckDBPyConnection, source: GridSource, parameters: tuple[Any, ...]
) -> dict[str, Floats]:
    """Hourly rows as float columns (``vehicle_id``, ``hour`` in epoch hours, fields), NULL
    as the field's fill."""
    fields = ", ".join(f"({sql})::DOUBLE AS {name}" for name, sql in source.fields)
    fetched = cursor.execute(
        f"SELECT vehicle_id, epoch_us(hour_utc) // 3600000000 AS hour, {fields} "  # noqa: S608 - constants only
        f"FROM {source.table} WHERE hour_utc >= make_timestamptz(? * 3600000000) "
        "AND hour_utc < make_timestamptz(? * 3600000000) "
        "AND list_contains(?::INTEGER[], vehicle_id)",
        list(parameters),
    ).fetchnumpy()
    fill = dict(zip(source.names, source.fill, strict=True))
    return {name: filled(values, fill.get(name, 0.0)) for name, values in fetched.items()}
