"""The failure map's grids, a density cell as a filter (``MapCell``) and the site layout (VDA 5050
has none): the track of the last ``LAYOUT_DAYS`` days of T, drawn in 150 ms a month of 100 vehicles,
checked in 5 ms, so cached per fact store (docs/analytics-v2.md, FailureMap)."""

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

import duckdb
from pydantic import Field

from fleetscope.analytics.core.facts import Selection, SiteSlice, rows_in_periods, select_periods
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import Window, hour_floor
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.store import FactStore
from fleetscope.i18n.messages import MAP_CELL_INCOMPLETE, MAP_CELL_INVALID, MAP_GRID_INVALID

TRACK_CELLS = 120
LAYOUT_DAYS = 30
CACHED_LAYOUTS = 16
MIN_EXTENT_M = 1.0
MAX_GRID_CELLS = 10_000  # columns and rows of a grid a cell filter may name
Cell = tuple[int, int, int]  # column, row, count


class Bounds(CamelModel):
    min_x: float
    min_y: float
    max_x: float
    max_y: float


class Grid(CamelModel):
    origin_x: float
    origin_y: float
    cell_size: float = Field(description="metres; cell (i, j) starts at origin + (i, j) * size")
    columns: int
    rows: int
    cells: list[Cell] = Field(description="[column, row, count] of non-empty cells")


@dataclass(frozen=True, slots=True)
class GridSpec:
    bounds: Bounds
    size: float
    columns: int
    rows: int

    @classmethod
    def covering(cls, bounds: Bounds, cells: int) -> "GridSpec":  # square, on the longer side
        width = max(bounds.max_x - bounds.min_x, MIN_EXTENT_M)
        height = max(bounds.max_y - bounds.min_y, MIN_EXTENT_M)
        size = max(width, height) / cells
        return cls(bounds, size, max(1, math.ceil(width / size)), max(1, math.ceil(height / size)))

    def grid(self, cells: list[Cell]) -> Grid:
        return Grid(
            origin_x=self.bounds.min_x, origin_y=self.bounds.min_y, cell_size=self.size,
            columns=self.columns, rows=self.rows, cells=cells,
        )  # fmt: skip


# The cell of a position along one axis (parameters: origin, size, last index); the edge
# cells take what lies beyond the grid's bounds. ``MapCell`` filters by the same.
CELL_INDEX = "least(greatest(floor(({axis} - ?) / ?), 0), ?)::INTEGER"
Extents = dict[str, tuple[Bounds, int]]  # per map: the bounds of its rows and their number


def extents(cursor: duckdb.DuckDBPyConnection, sql: str, parameters: list[Any]) -> Extents:
    """The bounds and number of the positioned rows of ``sql`` (columns x, y, map_id) per map."""
    found = cursor.execute(
        "SELECT map_id::VARCHAR, min(x), min(y), max(x), max(y), count(*) "  # noqa: S608 - constants only
        f"FROM ({sql}) WHERE x IS NOT NULL AND y IS NOT NULL GROUP BY map_id",
        parameters,
    ).fetchall()
    return {
        m: (Bounds(min_x=x0, min_y=y0, max_x=x1, max_y=y1), n) for m, x0, y0, x1, y1, n in found
    }


def binned(
    cursor: duckdb.DuckDBPyConnection, sql: str, parameters: list[Any], specs: dict[str, GridSpec]
) -> dict[str, list[Cell]]:
    """``[column, row, count]`` of the positioned rows of ``sql`` on each map's grid, in one scan;
    a ``CASE`` of constants per map is several times faster than joining a table of grids. No
    other aggregate: four more (the bounds) triple the scan's cost."""
    if not specs:
        return {}
    cases, case_parameters = {}, []
    for axis, origin, count in (("x", "min_x", "columns"), ("y", "min_y", "rows")):
        whens = f"WHEN ? THEN {CELL_INDEX.format(axis=axis)} "
        cases[axis] = f"CASE map_id {whens * len(specs)}END"
        for map_id, spec in specs.items():
            origin_value = getattr(spec.bounds, origin)
            case_parameters += [map_id, origin_value, spec.size, getattr(spec, count) - 1]
    found = cursor.execute(
        f"SELECT map_id::VARCHAR, {cases['x']} AS i, {cases['y']} AS j, count(*) "  # noqa: S608 - constants only
        f"FROM ({sql}) WHERE x IS NOT NULL AND y IS NOT NULL GROUP BY map_id, i, j "
        "ORDER BY 1, 3, 2",
        [*case_parameters, *parameters],
    ).fetchall()
    cells: dict[str, list[Cell]] = {}
    for map_id, i, j, count in found:
        if i is not None:
            cells.setdefault(map_id, []).append((int(i), int(j), int(count)))
    return cells


def latest(selection: Selection, length: timedelta) -> Selection:
    """The part of ``selection`` in its last ``length`` of time."""
    if (bounds := selection.bounds) is None:
        return selection
    start = bounds.end - length
    slices = []
    for part in selection.slices:
        kept = [(Window(max(w.start, start), w.end), b) for w, b in part.windows if w.end > start]
        slices.append(SiteSlice(part.vehicle_ids, kept))
    return Selection(slices)


class MapTrack(NamedTuple):
    bounds: Bounds
    grid: Grid


Layout = dict[str, MapTrack]  # by map id


def _draw(cursor: duckdb.DuckDBPyConnection, selection: Selection) -> Layout:
    sql, parameters = rows_in_periods(
        selection, table="track_points", at="sampled_at", columns="f.x, f.y, f.map_id"
    )
    found = extents(cursor, sql, parameters)
    specs = {m: GridSpec.covering(bounds, TRACK_CELLS) for m, (bounds, _) in found.items()}
    cells = binned(cursor, sql, parameters, specs)
    return {m: MapTrack(spec.bounds, spec.grid(cells.get(m, []))) for m, spec in specs.items()}


class LayoutCache:
    """A fact store's latest layouts by selection and stamp of its track points (points added or
    removed in T make a new key); T ends at the last full hour, so a key holds for an hour."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[Any, ...], Layout] = OrderedDict()

    def layout(self, cursor: duckdb.DuckDBPyConnection, selection: Selection) -> Layout:
        slices = tuple((tuple(part.vehicle_ids), tuple(part.windows)) for part in selection.slices)
        key = (slices, _stamp(cursor, selection))
        with self._lock:
            if (layout := self._entries.get(key)) is not None:
                self._entries.move_to_end(key)
                return layout
        layout = _draw(cursor, selection)
        with self._lock:
            self._entries[key] = layout
            while len(self._entries) > CACHED_LAYOUTS:
                self._entries.popitem(last=False)
        return layout


_CACHES: "WeakKeyDictionary[FactStore, LayoutCache]" = WeakKeyDictionary()  # gone with the store
_CACHES_LOCK = threading.Lock()


def layout_cache(store: FactStore) -> LayoutCache:
    with _CACHES_LOCK:
        return _CACHES.setdefault(store, LayoutCache())


def site_layout(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    cache: LayoutCache | None,
) -> Layout:
    length = timedelta(days=LAYOUT_DAYS)
    selection = latest(select_periods(scope, now=hour_floor(now), previous=False), length)
    if selection.empty:  # T entirely in the current hour: drawn up to now, uncached
        selection, cache = latest(select_periods(scope, now=now, previous=False), length), None
    return _draw(cursor, selection) if cache is None else cache.layout(cursor, selection)


def _stamp(cursor: duckdb.DuckDBPyConnection, selection: Selection) -> tuple[Any, ...]:
    """Number and time range of the vehicles' track points from the first to the last instant of
    T: a superset of the layout's points, read without the per-window test at a quarter the cost."""
    bounds = selection.bounds
    ids = sorted({v for part in selection.slices if part.windows for v in part.vehicle_ids})
    row = cursor.execute(
        "SELECT count(*), min(epoch_us(sampled_at)), max(epoch_us(sampled_at)) FROM track_points "
        "WHERE list_contains(?::INTEGER[], vehicle_id) AND sampled_at >= ? AND sampled_at < ?",
        [ids, bounds.start, bounds.end] if bounds else [[], None, None],
    ).fetchone()
    return () if row is None else tuple(row)


@dataclass(frozen=True, slots=True)
class MapCell:
    """A cell of a map's density grid as the map's answer gives it, as a filter of the error
    episodes: those of that map on the grid binned into it by ``CELL_INDEX`` (the drill-down
    lists them)."""

    map_id: str
    origin_x: float
    origin_y: float
    size: float
    columns: int
    rows: int
    column: int
    row: int

    @classmethod
    def parse(cls, *, map_id: str | None, cell: str | None, grid: str | None) -> "MapCell | None":
        """From the query's ``mapId``, ``cell`` (column,row, from 0) and ``grid`` (originX,
        originY,cellSize,columns,rows): all three or none, else a 422 naming the problem."""
        given = {"mapId": map_id, "cell": cell, "grid": grid}
        if all(value is None for value in given.values()):
            return None
        if map_id is None or cell is None or grid is None:
            missing = ", ".join(name for name, value in given.items() if value is None)
            raise InvalidInputError(MAP_CELL_INCOMPLETE(missing=missing))
        try:
            x, y, size, columns, rows = (float(part) for part in grid.split(","))
            finite = all(math.isfinite(value) for value in (x, y, size))
            if not (finite and size > 0 and _count(columns) and _count(rows)):
                raise ValueError(grid)
        except ValueError:
            invalid = MAP_GRID_INVALID(limit=MAX_GRID_CELLS, value=grid[:80])
            raise InvalidInputError(invalid) from None
        try:
            column, row = (float(part) for part in cell.split(","))
            if not (_count(column + 1, up_to=columns) and _count(row + 1, up_to=rows)):
                raise ValueError(cell)
        except ValueError:
            invalid = MAP_CELL_INVALID(columns=int(columns), rows=int(rows), value=cell[:40])
            raise InvalidInputError(invalid) from None
        return cls(map_id, x, y, size, int(columns), int(rows), int(column), int(row))

    def sql(self) -> tuple[str, list[Any]]:
        x, y = (CELL_INDEX.format(axis=axis) for axis in ("x", "y"))
        # Only positions on the grid: its edge cells take no more than its far edges, which
        # the grid of a map's answer reaches (``GridSpec.covering``) and a made-up one may not.
        inside = " AND ".join(f"({a} - ?) / ? BETWEEN 0 AND ?" for a in ("x", "y"))
        condition = f"map_id = ? AND {inside} AND {x} = ? AND {y} = ?"
        x_grid, y_grid = [self.origin_x, self.size], [self.origin_y, self.size]
        on_grid = [*x_grid, self.columns, *y_grid, self.rows]
        x_parameters = [*x_grid, self.columns - 1, self.column]
        y_parameters = [*y_grid, self.rows - 1, self.row]
        return condition, [self.map_id, *on_grid, *x_parameters, *y_parameters]


def _count(value: float, *, up_to: float = MAX_GRID_CELLS) -> bool:
    """Whether ``value`` is a whole number from 1 to ``up_to``."""
    return value.is_integer() and 1 <= value <= up_to
