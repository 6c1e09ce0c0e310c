"""``GET /v2/Analytics/FailureMap``: error positions on the site layout (``layout``).

The error episodes starting in T that carry a position, as points (the newest
``MAX_POINTS`` per map; ``pointsTotal`` says how many there are) and as a density grid of
``DENSITY_CELLS`` cells on the longer side of the map's bounds (track and errors), counting
every one. Filters ``errorType`` and ``level`` apply to both. The size is bounded.

The newest points are read from the end of T (a top-N of a year costs 4 times more): the
part of T that should hold them is estimated from each map's ``pointsTotal`` and widened
until it holds the newest ``MAX_POINTS`` of every map, so the result is exact.
"""

from datetime import datetime
from typing import Any

import duckdb
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.core.facts import Selection, select_periods
from fleetscope.analytics.core.models import Instant, PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.failures.failures import ErrorFilter, episodes
from fleetscope.analytics.failures.layout import (
    TRACK_CELLS,
    Bounds,
    Grid,
    GridSpec,
    LayoutCache,
    binned,
    latest,
    site_layout,
)
from fleetscope.appstore.schemas import CamelModel, camel_case

DENSITY_CELLS = 40
MAX_POINTS = 2000
# The first read of the newest points covers this many times the expected share of T;
# below ``_FULL_READ_SHARE`` of T a narrower read pays off; each retry widens it ``_WIDEN``.
_POINTS_MARGIN, _FULL_READ_SHARE, _WIDEN = 1.5, 0.5, 4.0
# A point's columns: vehicle id, error type, level, description, start (ISO 8601 in UTC, to
# the truncated millisecond: the store's session zone is UTC), x, y, map id.
_ERROR_COLUMNS = (
    "f.vehicle_id, f.error_type, upper(f.level) AS level, f.description, f.start_at, "
    "f.x, f.y, f.map_id"
)
_POINT = "vehicle_id, error_type, level, description, start_at, x, y, map_id"
_POINT_OUT = _POINT.replace("start_at", "strftime(start_at, '%Y-%m-%dT%H:%M:%S.%gZ')")


# A typed dict, its instant ISO text: 2,000 points as models with datetimes cost a third of
# the answer in conversion and validation.
@camel_case
class ErrorPoint(TypedDict):
    vehicle_id: int
    vehicle_name: str
    error_type: str
    level: str
    description: str
    start: Instant
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


def newest_points(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    errors: ErrorFilter,
    totals: dict[str, int],
) -> list[tuple[Any, ...]]:
    """The newest ``MAX_POINTS`` positioned episodes per map (``totals``: how many each map
    has in T), oldest first, as ``_POINT`` with the start as text; see the module text.

    A top-N per map: ``row_number()`` over a partition sorts every row and costs several
    times as much."""
    bounds = selection.bounds
    if bounds is None or not totals:
        return []
    share = max(
        1.0 if total <= MAX_POINTS else _POINTS_MARGIN * MAX_POINTS / total
        for total in totals.values()
    )
    while True:
        full = share >= _FULL_READ_SHARE
        part = selection if full else latest(selection, (bounds.end - bounds.start) * share)
        sql, parameters = episodes(part, errors, _ERROR_COLUMNS)
        newest = (
            f"(SELECT {_POINT} FROM ({sql}) WHERE x IS NOT NULL AND y IS NOT NULL "  # noqa: S608 - constants only
            "AND map_id = ? ORDER BY start_at DESC, vehicle_id, error_type LIMIT ?)"
        )
        rows = cursor.execute(
            f"SELECT {_POINT_OUT} FROM ({' UNION ALL '.join([newest] * len(totals))}) "  # noqa: S608 - constants only
            "ORDER BY start_at, vehicle_id, error_type",
            [value for m in totals for value in (*parameters, m, MAX_POINTS)],
        ).fetchall()
        found = {m: sum(1 for row in rows if row[7] == m) for m in totals}
        if full or all(found[m] >= min(total, MAX_POINTS) for m, total in totals.items()):
            return rows
        share *= _WIDEN


def failure_map(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    errors: ErrorFilter,
    layouts: LayoutCache | None = None,
) -> FailureMapOut:
    """``layouts``: the fact store's layout cache (``None``: draw the layout anew)."""
    layout = site_layout(cursor, scope, now=now, cache=layouts)
    selection = select_periods(scope, now=now, previous=False)
    error_sql, error_parameters = episodes(selection, errors, _ERROR_COLUMNS)
    # The density grid covers the map's bounds (track and errors), known only after a scan
    # of the errors. That scan bins them on the track's grid (errors happen where vehicles
    # drive) and gives the errors' bounds; only a map whose grid differs is binned again.
    guesses = {m: GridSpec.covering(t.bounds, DENSITY_CELLS) for m, t in layout.items()}
    extents, density = binned(cursor, error_sql, error_parameters, guesses)
    boxes = {m: track.bounds for m, track in layout.items()}
    for m, (box, _) in extents.items():
        boxes[m] = box if m not in boxes else Bounds(
            min_x=min(box.min_x, boxes[m].min_x), min_y=min(box.min_y, boxes[m].min_y),
            max_x=max(box.max_x, boxes[m].max_x), max_y=max(box.max_y, boxes[m].max_y),
        )  # fmt: skip
    specs = {m: GridSpec.covering(box, DENSITY_CELLS) for m, box in boxes.items()}
    wider = {m: spec for m, spec in specs.items() if m in extents and spec != guesses.get(m)}
    if wider:
        density.update(binned(cursor, error_sql, error_parameters, wider)[1])
    totals = {m: count for m, (_, count) in extents.items()}
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    points: dict[str, list[ErrorPoint]] = {}
    for vehicle_id, error_type, level, description, start, x, y, map_id in newest_points(
        cursor, selection, errors, totals
    ):
        points.setdefault(str(map_id), []).append(
            {
                "vehicle_id": vehicle_id, "vehicle_name": names.get(vehicle_id, ""),
                "error_type": error_type, "level": level, "description": description,
                "start": start, "x": x, "y": y,
            }
        )  # fmt: skip
    # Constructed, not validated: every value is typed (the points by their query's columns).
    tracks = {m: track.grid for m, track in layout.items()}
    layers = [
        MapLayer.model_construct(
            map_id=m, bounds=spec.bounds, density=spec.grid(density.get(m, [])),
            track=tracks.get(m) or GridSpec.covering(spec.bounds, TRACK_CELLS).grid([]),
            points=points.get(m, []), points_total=totals.get(m, 0),
        )
        for m, spec in specs.items()
    ]  # fmt: skip
    layers.sort(key=lambda layer: (-layer.points_total, layer.map_id))
    return FailureMapOut(period=period_out(scope, now=now), maps=layers)
