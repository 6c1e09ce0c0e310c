"""The charge sessions starting in T (docs/analytics-v2.md, Battery): their figures per bucket,
and ``GET /v2/Analytics/Battery/Sessions``, the same sessions paged and sorted by the store."""

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, NamedTuple

import duckdb
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.core.facts import Selection, rows_in_periods, select_periods
from fleetscope.analytics.core.paging import Page, PageRequest, page_fields, parse_sort, read_page
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.appstore.schemas import CamelModel, camel_case

DOD_BIN = 10
DOD_BINS = 10
# Sums of reported charges (percentage points, at most a few decimals) to this many decimals:
# without, 59.831 cycles came out as 59.83099999999999.
POINT_DECIMALS = 6
SESSION_COLUMNS = (
    "f.vehicle_id, (epoch_us(f.end_at) - epoch_us(f.start_at)) / 1e6 AS duration_s, "
    "f.end_charge - f.start_charge AS added, greatest(0, f.peak_before - f.start_charge) AS dod"
)
# A session's bin of the depth-of-discharge histogram (a depth of 100 is in the last).
DEPTH_BIN_SQL = f"least({DOD_BINS - 1}, floor(dod / {DOD_BIN}))::INTEGER"
SESSION_SORTS = {
    "start": "start_at",
    "end": "end_at",
    "duration": "duration_s",
    "added": "added",
    "depth": "dod",
    "vehicle": "vehicle_id",
}
_LIST_COLUMNS = f"{SESSION_COLUMNS}, f.start_at, f.end_at, f.start_charge, f.end_charge"
_TIMES = frozenset({"start", "end"})
_SELECTED = "vehicle_id, start_at, end_at, duration_s, start_charge, end_charge, added, dod"


@camel_case
class SessionFigures(TypedDict):
    count: int
    mean_duration_seconds: float | None
    mean_added_charge: Annotated[float | None, Field(description="percentage points per session")]
    added_charge: Annotated[float, Field(description="sum of end - start charge")]
    discharged: Annotated[float, Field(description="sum of the depths of discharge")]
    equivalent_full_cycles: Annotated[
        float,
        Field(
            description="percentage points discharged inside T / 100, from report to "
            "report (not the sessions' depths: a shift with only charging has 0)"
        ),
    ]
    mean_depth_of_discharge: float | None
    depth_histogram: Annotated[
        list[int], Field(description="cycles per 10-point bin: 0-10, ..., 90-100")
    ]
    added_energy_wh: Annotated[float | None, Field(description="null unless the capacity is known")]
    discharged_energy_wh: float | None


class ChargeSession(CamelModel):
    vehicle_id: int
    vehicle_name: str
    start: datetime
    end: datetime
    duration_seconds: float
    start_charge: float = Field(description="percent")
    end_charge: float
    added_charge: float = Field(description="end - start charge, percentage points")
    depth_of_discharge: float = Field(
        description="highest charge since the previous charge end - start charge (0 at least)"
    )
    added_energy_wh: float | None = Field(description="null unless the capacity is known")


class Sums(NamedTuple):
    sessions: int = 0
    duration: float = 0.0
    added: float = 0.0
    discharged: float = 0.0
    histogram: tuple[int, ...] = (0,) * DOD_BINS


SessionSums = dict[tuple[int, int], Sums]  # by (bucket, vehicle) with sessions


def session_sums(cursor: duckdb.DuckDBPyConnection, selection: Selection) -> SessionSums:
    """The sessions starting in T of ``selection`` (both buckets) per bucket and vehicle."""
    rows_sql, parameters = rows_in_periods(
        selection, table="charge_sessions", at="start_at", columns=SESSION_COLUMNS
    )
    found = cursor.execute(
        "SELECT bucket, vehicle_id, count(*), sum(duration_s), sum(added), sum(dod), "  # noqa: S608 - constants only
        f"list_transform(range({DOD_BINS}), lambda b: coalesce(histogram({DEPTH_BIN_SQL})[b], 0)) "
        f"FROM ({rows_sql}) GROUP BY bucket, vehicle_id",
        parameters,
    ).fetchall()
    return {(b, v): Sums(c, d, a, x, tuple(h)) for b, v, c, d, a, x, h in found}


def session_figures(
    sums: SessionSums, bucket: int, *, capacities: Mapping[int, float | None], cycles: float
) -> SessionFigures:
    """The vehicles of ``capacities`` together in ``bucket``, energy over those whose capacity
    is known (null if none is); ``cycles``: the equivalent full cycles (from the samples)."""
    rows = [sums.get((bucket, v), Sums()) for v in capacities]
    # Vehicle after vehicle from a row of zeros: the histogram's bins even without a vehicle.
    sessions, durations, added_charges, depths, histograms = zip(Sums(), *rows, strict=True)
    count, duration = sum(sessions), sum(durations)
    added, discharged = (round(sum(points), POINT_DECIMALS) for points in (added_charges, depths))
    with_capacity = list(zip(rows, capacities.values(), strict=True))
    return SessionFigures(
        count=count,
        mean_duration_seconds=duration / count if count else None,
        mean_added_charge=added / count if count else None,
        added_charge=added,
        discharged=discharged,
        equivalent_full_cycles=round(cycles, POINT_DECIMALS + 2),
        mean_depth_of_discharge=discharged / count if count else None,
        depth_histogram=[sum(n) for n in zip(*histograms, strict=True)],
        added_energy_wh=energy_wh([(r.added, c) for r, c in with_capacity]),
        discharged_energy_wh=energy_wh([(r.discharged, c) for r, c in with_capacity]),
    )


def energy_wh(points_and_capacities: list[tuple[float, float | None]]) -> float | None:
    """Percentage points of each known capacity in Wh, summed; None when none is known."""
    known = [(p, c) for p, c in points_and_capacities if c is not None]
    if not known:
        return None
    return round(sum(p / 100 * c for p, c in known), POINT_DECIMALS)


def charge_sessions(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    page: PageRequest,
    capacities: Mapping[int, float | None],
    depth_bin: int | None = None,
    vehicle_id: int | None = None,
) -> Page[ChargeSession]:
    """``depth_bin``: only sessions of that histogram bin (0: depth 0-10, ..., 9: 90-100)."""
    column, descending = parse_sort(page.sort, columns=SESSION_SORTS, default="-start")
    selection = select_periods(scope, now=now, previous=False, vehicle_id=vehicle_id)
    rows_sql, parameters = rows_in_periods(
        selection, table="charge_sessions", at="start_at", columns=_LIST_COLUMNS
    )
    source = f"FROM ({rows_sql})"
    if depth_bin is not None:
        source += f" WHERE {DEPTH_BIN_SQL} = ?"
        parameters = [*parameters, depth_bin]
    total, rows = read_page(
        cursor,
        page,
        select=_SELECTED,
        source=source,
        parameters=parameters,
        column_sql=SESSION_SORTS[column],
        descending=descending,
        tie_breakers=["vehicle_id", "start_at"],
        span=selection.bounds if column in _TIMES else None,
    )
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    items = [
        ChargeSession(
            vehicle_id=vehicle,
            vehicle_name=names.get(vehicle, ""),
            start=start,
            end=end,
            duration_seconds=duration,
            start_charge=start_charge,
            end_charge=end_charge,
            # 10.1 - 10.0 is 0.0999999999999996 in floats; the tiles' sums are rounded alike.
            added_charge=round(added, POINT_DECIMALS),
            depth_of_discharge=round(depth, POINT_DECIMALS),
            added_energy_wh=energy_wh([(added, capacities.get(vehicle))]),
        )
        for vehicle, start, end, duration, start_charge, end_charge, added, depth in rows
    ]
    return Page[ChargeSession](
        items=items, **page_fields(page, total=total, column=column, descending=descending)
    )
