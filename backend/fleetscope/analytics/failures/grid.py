"""Positions on a map binned on a grid of square cells, as the failure map draws them."""

import math
from dataclasses import dataclass
from typing import Any

import duckdb
from pydantic import Field

from fleetscope.appstore.schemas import CamelModel

MIN_EXTENT_M = 1.0


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
    cells: list[list[int]] = Field(description="[column, row, count] of non-empty cells")


@dataclass(frozen=True, slots=True)
class GridSpec:
    bounds: Bounds
    size: float
    columns: int
    rows: int

    @classmethod
    def covering(cls, bounds: Bounds, cells: int) -> "GridSpec":
        """At most ``cells`` square cells on the longer side of ``bounds``."""
        width = max(bounds.max_x - bounds.min_x, MIN_EXTENT_M)
        height = max(bounds.max_y - bounds.min_y, MIN_EXTENT_M)
        size = max(width, height) / cells
        columns = max(1, math.ceil(width / size))
        return cls(bounds, size, columns, max(1, math.ceil(height / size)))

    def grid(self, cells: list[list[int]]) -> Grid:
        return Grid(
            origin_x=self.bounds.min_x,
            origin_y=self.bounds.min_y,
            cell_size=self.size,
            columns=self.columns,
            rows=self.rows,
            cells=cells,
        )


@dataclass(slots=True)
class Binned:
    """Positioned rows per map: their bounds and number, and their cells on a grid."""

    extents: dict[str, tuple[Bounds, int]]
    cells: dict[str, list[list[int]]]


def _cell_index(axis: str, specs: dict[str, GridSpec], parameters: list[Any]) -> str:
    """The column (``axis`` x) or row (y) of a row on its map's grid; NULL without a grid.

    A ``CASE`` of constants per map: DuckDB computes it several times faster than the same
    arithmetic on values joined from a table of grids.
    """
    if not specs:
        return "NULL::INTEGER"
    cases = []
    for map_id, spec in specs.items():
        origin = spec.bounds.min_x if axis == "x" else spec.bounds.min_y
        count = spec.columns if axis == "x" else spec.rows
        cases.append(f"WHEN ? THEN least(greatest(floor(({axis} - ?) / ?), 0), ?)::INTEGER")
        parameters += [map_id, origin, spec.size, count - 1]
    return f"CASE map_id {' '.join(cases)} END"


def binned(
    cursor: duckdb.DuckDBPyConnection,
    sql: str,
    parameters: list[Any],
    specs: dict[str, GridSpec],
) -> Binned:
    """The positioned rows of ``sql`` (columns x, y, map_id) in one scan: bounds and number
    per map, and ``[column, row, count]`` on the grid of each map in ``specs``."""
    case_parameters: list[Any] = []  # they come before the subquery's in the text
    column = _cell_index("x", specs, case_parameters)
    row = _cell_index("y", specs, case_parameters)
    found = cursor.execute(
        f"SELECT map_id, {column} AS i, {row} AS j, min(x), min(y), max(x), max(y), count(*) "  # noqa: S608 - constants only
        f"FROM ({sql}) WHERE x IS NOT NULL AND y IS NOT NULL GROUP BY ALL ORDER BY 1, 3, 2",
        [*case_parameters, *parameters],
    ).fetchall()
    boxes: dict[str, list[float]] = {}  # min x, min y, max x, max y, count
    cells: dict[str, list[list[int]]] = {}
    for map_id, i, j, x0, y0, x1, y1, count in found:
        key = str(map_id)
        box = boxes.get(key)
        if box is None:
            boxes[key] = [x0, y0, x1, y1, count]
        else:
            box[0], box[1] = min(box[0], x0), min(box[1], y0)
            box[2], box[3] = max(box[2], x1), max(box[3], y1)
            box[4] += count
        if i is not None:
            cells.setdefault(key, []).append([int(i), int(j), int(count)])
    return Binned(
        extents={
            key: (Bounds(min_x=x0, min_y=y0, max_x=x1, max_y=y1), int(count))
            for key, (x0, y0, x1, y1, count) in boxes.items()
        },
        cells=cells,
    )


def union(parts: list[Bounds]) -> Bounds:
    return Bounds(
        min_x=min(p.min_x for p in parts),
        min_y=min(p.min_y for p in parts),
        max_x=max(p.max_x for p in parts),
        max_y=max(p.max_y for p in parts),
    )
