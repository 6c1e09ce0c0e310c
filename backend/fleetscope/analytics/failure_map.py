"""``GET /v2/Analytics/FailureMap``: error positions on the site layout.

VDA 5050 has no layout drawing, so the layout is the driven track: the track points of the
selected vehicles in the last ``LAYOUT_DAYS`` days of T, thinned to a grid of at most
``TRACK_CELLS`` cells on the longer side (each occupied cell once, with the number of points
in it), per map. On top: the error
episodes starting in T that carry a position, as points (the newest ``MAX_POINTS``, with
type, level, time, vehicle and description; ``pointsTotal`` says how many there are) and as
a density grid of ``DENSITY_CELLS`` cells on the longer side, counting every one of them.
Filters ``errorType`` and ``level`` apply to points and density. The response size is
bounded whatever the period.
"""

import math
from datetime import datetime, timedelta
from typing import Any

import duckdb
from pydantic import Field

from fleetscope.analytics.fact_rows import Selection, SiteSlice, rows_in_periods, select_periods
from fleetscope.analytics.failures import ErrorFilter
from fleetscope.analytics.models import PeriodOut
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.periods import Window
from fleetscope.analytics.plan import period_out
from fleetscope.appstore.schemas import CamelModel

TRACK_CELLS = 120
DENSITY_CELLS = 40
MAX_POINTS = 2000
# The layout changes rarely: the track of the last 30 days of T draws it, so a year costs
# no more than a month.
LAYOUT_DAYS = 30
MIN_EXTENT_M = 1.0
GridSpec = tuple["Bounds", float, int, int]  # bounds, cell size, columns, rows
_TRACK_COLUMNS = "f.vehicle_id, f.x, f.y, f.map_id"
_ERROR_COLUMNS = (
    "f.vehicle_id, f.error_type, upper(f.level) AS level, f.description, f.start_at, "
    "f.x, f.y, f.map_id"
)


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


class ErrorPoint(CamelModel):
    vehicle_id: int
    vehicle_name: str
    error_type: str
    level: str
    description: str
    start: datetime
    x: float
    y: float


class MapLayer(CamelModel):
    map_id: str
    bounds: Bounds
    track: Grid
    density: Grid
    points: list[ErrorPoint] = Field(description=f"the newest {MAX_POINTS} at most")
    points_total: int


class FailureMapOut(CamelModel):
    period: PeriodOut
    maps: list[MapLayer] = Field(description="maps with errors first")


def _extent(
    cursor: duckdb.DuckDBPyConnection, sql: str, parameters: list[Any]
) -> dict[str, list[float]]:
    rows = cursor.execute(
        f"SELECT map_id, min(x), min(y), max(x), max(y), count(*) FROM ({sql}) "  # noqa: S608 - constants only
        "WHERE x IS NOT NULL AND y IS NOT NULL GROUP BY map_id",
        parameters,
    ).fetchall()
    return {str(row[0]): [float(v) for v in row[1:5]] + [int(row[5])] for row in rows}


def _grid(bounds: Bounds, cells: int) -> tuple[float, int, int]:
    width = max(bounds.max_x - bounds.min_x, MIN_EXTENT_M)
    height = max(bounds.max_y - bounds.min_y, MIN_EXTENT_M)
    size = max(width, height) / cells
    return size, max(1, math.ceil(width / size)), max(1, math.ceil(height / size))


def _cells(
    cursor: duckdb.DuckDBPyConnection,
    sql: str,
    parameters: list[Any],
    grids: dict[str, GridSpec],
) -> dict[str, list[list[int]]]:
    if not grids:
        return {}
    maps = list(grids)
    column = "least(greatest(floor((x - g.ox) / g.size), 0), g.cols - 1)::INTEGER"
    row_sql = "least(greatest(floor((y - g.oy) / g.size), 0), g.rows - 1)::INTEGER"
    found = cursor.execute(
        f"SELECT s.map_id, {column} AS i, {row_sql} AS j, count(*) FROM ({sql}) s JOIN "  # noqa: S608 - constants only
        "(SELECT unnest(?::VARCHAR[]) AS map_id, unnest(?::DOUBLE[]) AS ox, "
        "unnest(?::DOUBLE[]) AS oy, unnest(?::DOUBLE[]) AS size, unnest(?::INTEGER[]) AS cols, "
        "unnest(?::INTEGER[]) AS rows) g ON s.map_id = g.map_id "
        "WHERE x IS NOT NULL AND y IS NOT NULL GROUP BY ALL ORDER BY 1, 3, 2",
        [
            *parameters,
            maps,
            [grids[m][0].min_x for m in maps],
            [grids[m][0].min_y for m in maps],
            [grids[m][1] for m in maps],
            [grids[m][2] for m in maps],
            [grids[m][3] for m in maps],
        ],
    ).fetchall()
    result: dict[str, list[list[int]]] = {}
    for map_id, i, j, count in found:
        result.setdefault(str(map_id), []).append([int(i), int(j), int(count)])
    return result


def latest(selection: Selection, days: int) -> Selection:
    """The part of ``selection`` in its last ``days`` days."""
    bounds = selection.bounds
    if bounds is None:
        return selection
    start = bounds.end - timedelta(days=days)
    return Selection(
        [
            SiteSlice(
                part.vehicle_ids,
                [
                    (Window(max(window.start, start), window.end), bucket)
                    for window, bucket in part.windows
                    if window.end > start
                ],
            )
            for part in selection.slices
        ]
    )


def _union(track: list[float] | None, errors: list[float] | None) -> Bounds:
    parts = [part for part in (track, errors) if part is not None]
    return Bounds(
        min_x=min(p[0] for p in parts),
        min_y=min(p[1] for p in parts),
        max_x=max(p[2] for p in parts),
        max_y=max(p[3] for p in parts),
    )


def failure_map(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime, errors: ErrorFilter
) -> FailureMapOut:
    selection: Selection = select_periods(scope, now=now, previous=False)
    track_sql, track_parameters = rows_in_periods(
        latest(selection, LAYOUT_DAYS),
        table="track_points",
        at="sampled_at",
        columns=_TRACK_COLUMNS,
    )
    episodes_sql, episode_parameters = rows_in_periods(
        selection, table="error_episodes", at="start_at", columns=_ERROR_COLUMNS
    )
    where, filter_parameters = errors.sql()
    error_sql = f"SELECT * FROM ({episodes_sql}) WHERE {where}"  # noqa: S608 - constants only
    error_parameters = [*episode_parameters, *filter_parameters]
    track_extent = _extent(cursor, track_sql, track_parameters)
    error_extent = _extent(cursor, error_sql, error_parameters)
    bounds = {
        map_id: _union(track_extent.get(map_id), error_extent.get(map_id))
        for map_id in {*track_extent, *error_extent}
    }
    track_grids = {m: (b, *_grid(b, TRACK_CELLS)) for m, b in bounds.items()}
    density_grids = {m: (b, *_grid(b, DENSITY_CELLS)) for m, b in bounds.items()}
    track_cells = _cells(cursor, track_sql, track_parameters, track_grids)
    density_cells = _cells(cursor, error_sql, error_parameters, density_grids)
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    points: dict[str, list[ErrorPoint]] = {}
    if error_extent:
        newest = cursor.execute(
            "SELECT vehicle_id, error_type, level, description, start_at, x, y, map_id "  # noqa: S608 - constants only
            f"FROM ({error_sql}) WHERE x IS NOT NULL AND y IS NOT NULL "
            "QUALIFY row_number() OVER (PARTITION BY map_id ORDER BY start_at DESC, vehicle_id, "
            "error_type) <= ? ORDER BY start_at",
            [*error_parameters, MAX_POINTS],
        ).fetchall()
        for row in newest:
            points.setdefault(str(row[7]), []).append(
                ErrorPoint(
                    vehicle_id=row[0],
                    vehicle_name=names.get(row[0], ""),
                    error_type=row[1],
                    level=row[2],
                    description=row[3],
                    start=row[4],
                    x=row[5],
                    y=row[6],
                )
            )

    def grid(grids: dict[str, GridSpec], cells: dict[str, Any], m: str) -> Grid:
        box, size, columns, rows = grids[m]
        return Grid(
            origin_x=box.min_x,
            origin_y=box.min_y,
            cell_size=size,
            columns=columns,
            rows=rows,
            cells=cells.get(m, []),
        )

    layers = [
        MapLayer(
            map_id=m,
            bounds=bounds[m],
            track=grid(track_grids, track_cells, m),
            density=grid(density_grids, density_cells, m),
            points=points.get(m, []),
            points_total=int(error_extent[m][4]) if m in error_extent else 0,
        )
        for m in bounds
    ]
    layers.sort(key=lambda layer: (-layer.points_total, layer.map_id))
    return FailureMapOut(period=period_out(scope), maps=layers)
