"""``GET /v2/Analytics/FailureMap``: the positioned error episodes starting in T on the site layout:
a density grid counting each, the newest ``MAX_POINTS`` per map as points (docs/analytics-v2.md)."""

from datetime import datetime

import duckdb
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.core.facts import select_periods
from fleetscope.analytics.core.models import Instant, PeriodOut
from fleetscope.analytics.core.paging import PageRequest, read_page
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.plan import period_out
from fleetscope.analytics.failures import layout
from fleetscope.analytics.failures.failures import ErrorFilter, episodes
from fleetscope.appstore.schemas import CamelModel, camel_case

DENSITY_CELLS = 40
MAX_POINTS = 2000
# A point: its columns, the start as ISO 8601 text in UTC to the truncated millisecond (the
# store's session zone is UTC), then the start in microseconds to order the points by.
_POINT = (
    "vehicle_id, error_type, level, description, strftime(start_at, '%Y-%m-%dT%H:%M:%S.%gZ'), "
    "x, y, epoch_us(start_at)"
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
    bounds: layout.Bounds
    track: layout.Grid
    density: layout.Grid
    points: list[ErrorPoint] = Field(description=f"the newest {MAX_POINTS} at most")
    points_total: int


class FailureMapOut(CamelModel):
    period: PeriodOut
    maps: list[MapLayer] = Field(description="maps with errors first")


def failure_map(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    errors: ErrorFilter,
    layouts: layout.LayoutCache | None = None,
) -> FailureMapOut:
    """``layouts``: the fact store's layout cache (``None``: draw the layout anew)."""
    drawn = layout.site_layout(cursor, scope, now=now, cache=layouts)
    selection = select_periods(scope, now=now, previous=False)
    error_sql, error_parameters = episodes(selection, errors)
    # The density grid covers the map's bounds: the track's and the errors'.
    found = layout.extents(cursor, error_sql, error_parameters)
    boxes = {m: track.bounds for m, track in drawn.items()}
    for m, (box, _) in found.items():
        boxes[m] = box if m not in boxes else layout.Bounds(
            min_x=min(box.min_x, boxes[m].min_x), min_y=min(box.min_y, boxes[m].min_y),
            max_x=max(box.max_x, boxes[m].max_x), max_y=max(box.max_y, boxes[m].max_y),
        )  # fmt: skip
    specs = {m: layout.GridSpec.covering(box, DENSITY_CELLS) for m, box in boxes.items()}
    with_errors = {m: spec for m, spec in specs.items() if m in found}
    density = layout.binned(cursor, error_sql, error_parameters, with_errors)
    totals = {m: count for m, (_, count) in found.items()}
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    points: dict[str, list[ErrorPoint]] = {}
    for map_id in totals:
        # The newest read from the end of T (a top-N of a year costs 4 times more).
        _, rows = read_page(
            cursor, PageRequest(page_size=MAX_POINTS), select=_POINT, column_sql="start_at",
            source=f"FROM ({error_sql}) WHERE x IS NOT NULL AND y IS NOT NULL AND map_id = ?",
            parameters=[*error_parameters, map_id], descending=True,
            tie_breakers=["vehicle_id", "error_type"], span=selection.bounds,
        )  # fmt: skip
        rows.sort(key=lambda row: (row[7], row[0], row[1]))  # oldest first
        points[map_id] = [
            {
                "vehicle_id": vehicle_id, "vehicle_name": names.get(vehicle_id, ""),
                "error_type": error_type, "level": level, "description": description,
                "start": start, "x": x, "y": y,
            }
            for vehicle_id, error_type, level, description, start, x, y, _ in rows
        ]  # fmt: skip
    # Constructed, not validated: every value is typed (the points by their query's columns).
    tracks = {m: track.grid for m, track in drawn.items()}
    layers = [
        MapLayer.model_construct(
            map_id=m, bounds=spec.bounds, density=spec.grid(density.get(m, [])),
            track=tracks.get(m) or layout.GridSpec.covering(boxes[m], layout.TRACK_CELLS).grid([]),
            points=points.get(m, []), points_total=totals.get(m, 0),
        )
        for m, spec in specs.items()
    ]  # fmt: skip
    layers.sort(key=lambda layer: (-layer.points_total, layer.map_id))
    return FailureMapOut(period=period_out(scope, now=now), maps=layers)
