"""``GET /v2/Analytics/Battery/Sessions``: the charge sessions behind the battery page's
session figures (those starting in T, as ``battery.session_sums`` counts them), paged and
sorted by the store; ``depth`` keeps one bin of the depth-of-discharge histogram."""

from collections.abc import Mapping
from datetime import datetime

import duckdb
from pydantic import Field

from fleetscope.analytics.battery.battery import (
    DEPTH_BIN_SQL,
    POINT_DECIMALS,
    SESSION_COLUMNS,
    energy_wh,
)
from fleetscope.analytics.core.facts import rows_in_periods, select_periods
from fleetscope.analytics.core.paging import Page, PageRequest, page_fields, parse_sort, read_page
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.appstore.schemas import CamelModel


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
            added_energy_wh=energy_wh([(added, capacity)])
            if (capacity := capacities.get(vehicle)) is not None
            else None,
        )
        for vehicle, start, end, duration, start_charge, end_charge, added, depth in rows
    ]
    return Page[ChargeSession](
        items=items, **page_fields(page, total=total, column=column, descending=descending)
    )
