"""``GET /v2/Analytics/FailureMap``: error positions on the site layout.

The layout is the driven track (``failure_layout``: the last 30 days of T on a grid of its
own extent, cached). On top: the error episodes starting in T that carry a position, as
points (the newest ``MAX_POINTS`` per map, with type, level, time, vehicle and description;
``pointsTotal`` says how many there are) and as a density grid of ``DENSITY_CELLS`` cells on
the longer side of the map's bounds, counting every one of them. Filters ``errorType`` and
``level`` apply to points and density. The response size is bounded whatever the period.

The newest points are read from the end of T: sorting a year of episodes for the newest
2,000 costs several times more than reading the part of T that holds them. That part is
estimated from the number of episodes per map (``pointsTotal``, known from the first
query) and widened until it holds the newest ``MAX_POINTS`` of every map, so the result is
exact whatever the distribution over time.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.core.facts import Selection, rows_in_periods, select_periods
from fleetscope.analytics.core.instants import Instant
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.failures.failures import ErrorFilter
from fleetscope.analytics.failures.grid import Bounds, Grid, GridSpec, binned, union
from fleetscope.analytics.failures.layout import (
    TRACK_CELLS,
    Layout,
    LayoutCache,
    latest,
    site_layout,
)
from fleetscope.appstore.schemas import CamelModel, camel_case

DENSITY_CELLS = 40
MAX_POINTS = 2000
# The first read of the newest points covers this many times the expected share of T.
_POINTS_MARGIN = 1.5
# Below this share of T a narrower read pays off; each retry widens the read this much.
_FULL_READ_SHARE = 0.5
_WIDEN = 4.0
# A point as the map's SQL returns it: vehicle id, error type, level, description, start
# (ISO 8601 in UTC, to the truncated millisecond), x, y, map id.
PointRow = tuple[int, str, str, str, str, float, float, str]
_ISO_MILLIS = "%Y-%m-%dT%H:%M:%S.%gZ"  # the store's session time zone is UTC
_ERROR_COLUMNS = (
    "f.vehicle_id, f.error_type, upper(f.level) AS level, f.description, f.start_at, "
    "f.x, f.y, f.map_id"
)


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


def _error_rows(selection: Selection, errors: ErrorFilter) -> tuple[str, list[Any]]:
    episodes_sql, parameters = rows_in_periods(
        selection, table="error_episodes", at="start_at", columns=_ERROR_COLUMNS
    )
    where, filter_parameters = errors.sql()
    return (
        f"SELECT * FROM ({episodes_sql}) WHERE {where}",  # noqa: S608 - constants only
        [*parameters, *filter_parameters],
    )


def _newest(
    cursor: duckdb.DuckDBPyConnection, sql: str, parameters: list[Any], maps: list[str]
) -> list[PointRow]:
    """The newest ``MAX_POINTS`` positioned rows of ``sql`` on each of ``maps``, oldest first.

    A top-N per map: ``row_number()`` over a partition sorts every row and cost several
    times as much.
    """
    parts, all_parameters = [], []
    for map_id in maps:
        parts.append(
            "(SELECT vehicle_id, error_type, level, description, start_at, "  # noqa: S608 - constants only
            f"x, y, map_id FROM ({sql}) WHERE x IS NOT NULL AND y IS NOT NULL AND map_id = ? "
            "ORDER BY start_at DESC, vehicle_id, error_type LIMIT ?)"
        )
        all_parameters += [*parameters, map_id, MAX_POINTS]
    if not parts:
        return []
    return cursor.execute(
        "SELECT vehicle_id, error_type, level, description, "  # noqa: S608 - constants only
        f"strftime(start_at, '{_ISO_MILLIS}'), x, y, map_id "
        f"FROM ({' UNION ALL '.join(parts)}) ORDER BY start_at, vehicle_id, error_type",
        all_parameters,
    ).fetchall()


def newest_points(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    errors: ErrorFilter,
    totals: dict[str, int],
) -> list[PointRow]:
    """The newest ``MAX_POINTS`` positioned episodes per map (``totals``: how many each map
    has in T), oldest first; see the module text."""
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
        rows = _newest(cursor, *_error_rows(part, errors), list(totals))
        if full:
            return rows
        found: dict[str, int] = {}
        for row in rows:
            found[str(row[7])] = found.get(str(row[7]), 0) + 1
        if all(found.get(m, 0) >= min(total, MAX_POINTS) for m, total in totals.items()):
            return rows
        share *= _WIDEN


@dataclass(frozen=True, slots=True)
class _Errors:
    """The map's errors in T: per map their bounds and number, density cells on the grid
    of ``specs``, and the newest points (as ``newest_points``)."""

    extents: dict[str, tuple[Bounds, int]]
    density: dict[str, list[list[int]]]
    specs: dict[str, GridSpec]
    rows: list[PointRow]


def _density_specs(layout: Layout, extents: dict[str, tuple[Bounds, int]]) -> dict[str, GridSpec]:
    """Per map, the density grid over the track's and the errors' bounds together."""
    bounds = {m: track.bounds for m, track in layout.items()}
    for m, (box, _) in extents.items():
        bounds[m] = union([bounds[m], box]) if m in bounds else box
    return {m: GridSpec.covering(box, DENSITY_CELLS) for m, box in bounds.items()}


def _errors_by_sql(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    *,
    errors: ErrorFilter,
    layout: Layout,
    layouts: LayoutCache | None,
) -> _Errors:
    error_sql, error_parameters = _error_rows(selection, errors)
    # The density grid covers the map's bounds (track and errors), known only after a scan
    # of the errors. That scan bins them on a guess, the bounds of the map's last request
    # or else its track's (errors happen where vehicles drive), and gives the errors'
    # bounds; only a map whose grid differs from the guess is binned a second time.
    guesses = {
        m: GridSpec.covering((layouts and layouts.bounds_hint(m)) or track.bounds, DENSITY_CELLS)
        for m, track in layout.items()
    }
    found = binned(cursor, error_sql, error_parameters, guesses)
    specs = _density_specs(layout, found.extents)
    wider = {m: spec for m, spec in specs.items() if m in found.extents and spec != guesses.get(m)}
    density = found.cells
    if wider:
        density.update(binned(cursor, error_sql, error_parameters, wider).cells)
    totals = {m: count for m, (_, count) in found.extents.items()}
    rows = newest_points(cursor, selection, errors, totals)
    return _Errors(found.extents, density, specs, rows)


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
    found = _errors_by_sql(cursor, selection, errors=errors, layout=layout, layouts=layouts)
    if layouts is not None:
        layouts.remember_bounds({m: spec.bounds for m, spec in found.specs.items()})
    totals = {m: count for m, (_, count) in found.extents.items()}
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    points: dict[str, list[ErrorPoint]] = {}
    for vehicle_id, error_type, level, description, start, x, y, map_id in found.rows:
        points.setdefault(str(map_id), []).append(
            {
                "vehicle_id": vehicle_id,
                "vehicle_name": names.get(vehicle_id, ""),
                "error_type": error_type,
                "level": level,
                "description": description,
                "start": start,
                "x": x,
                "y": y,
            }
        )
    # Constructed, not validated: every value is typed (the points by their query's columns).
    layers = [
        MapLayer.model_construct(
            map_id=m,
            bounds=spec.bounds,
            track=layout[m].grid
            if m in layout
            else GridSpec.covering(spec.bounds, TRACK_CELLS).grid([]),
            density=spec.grid(found.density.get(m, [])),
            points=points.get(m, []),
            points_total=totals.get(m, 0),
        )
        for m, spec in found.specs.items()
    ]
    layers.sort(key=lambda layer: (-layer.points_total, layer.map_id))
    return FailureMapOut(period=period_out(scope, now=now), maps=layers)
