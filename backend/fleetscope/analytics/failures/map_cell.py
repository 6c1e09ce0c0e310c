"""One cell of a failure map's density grid as a filter of the error episodes: where a
density cell leads (drill-down), the history lists exactly the episodes the cell counts."""

import math
from dataclasses import dataclass
from typing import Any

from fleetscope.analytics.failures.layout import CELL_INDEX
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.i18n.messages import MAP_CELL_INCOMPLETE, MAP_CELL_INVALID, MAP_GRID_INVALID

MAX_GRID_CELLS = 10_000  # columns and rows of a grid a filter may name


@dataclass(frozen=True, slots=True)
class MapCell:
    """A cell of a map's grid as the map's answer gives it (origin, cell size, columns,
    rows): the episodes of that map binned into it by the binning's own arithmetic
    (``layout.CELL_INDEX``)."""

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
            if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(size) and size > 0):
                raise ValueError(grid)
            if not (_count(columns) and _count(rows)):
                raise ValueError(grid)
        except ValueError:
            raise InvalidInputError(
                MAP_GRID_INVALID(limit=MAX_GRID_CELLS, value=grid[:80])
            ) from None
        try:
            column, row = (float(part) for part in cell.split(","))
            if not (_count(column + 1, up_to=columns) and _count(row + 1, up_to=rows)):
                raise ValueError(cell)
        except ValueError:
            invalid = MAP_CELL_INVALID(columns=int(columns), rows=int(rows), value=cell[:40])
            raise InvalidInputError(invalid) from None
        return cls(map_id, x, y, size, int(columns), int(rows), int(column), int(row))

    def sql(self) -> tuple[str, list[Any]]:
        """The condition on the episodes' ``map_id``, ``x`` and ``y``, and its parameters."""
        x, y = (CELL_INDEX.format(axis=axis) for axis in ("x", "y"))
        condition = f"map_id = ? AND x IS NOT NULL AND y IS NOT NULL AND {x} = ? AND {y} = ?"
        x_parameters = [self.origin_x, self.size, self.columns - 1, self.column]
        y_parameters = [self.origin_y, self.size, self.rows - 1, self.row]
        return condition, [self.map_id, *x_parameters, *y_parameters]


def _count(value: float, *, up_to: float = MAX_GRID_CELLS) -> bool:
    """Whether ``value`` is a whole number from 1 to ``up_to``."""
    return value.is_integer() and 1 <= value <= up_to
