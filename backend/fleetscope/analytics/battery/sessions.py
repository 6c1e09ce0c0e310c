"""Charge sessions starting in T, per selected vehicle and bucket (period, previous): count,
mean duration, mean added charge (end - start); depth of discharge per cycle = the highest
charge since the previous session ended (``peak_before``) - the charge at this session's
start, in a histogram of 10-point bins; energy in Wh = percent / 100 x the vehicle's battery
capacity, for vehicles whose capacity is known. One statement sums them per bucket and
vehicle; several vehicles together add those sums vehicle after vehicle."""

from collections.abc import Mapping
from typing import Annotated, NamedTuple

import duckdb
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.core.facts import Selection, rows_in_periods
from fleetscope.appstore.schemas import camel_case

DOD_BIN = 10
DOD_BINS = 10
_COLUMNS = (
    "f.vehicle_id, (epoch_us(f.end_at) - epoch_us(f.start_at)) / 1e6 AS duration_s, "
    "f.end_charge - f.start_charge AS added, greatest(0, f.peak_before - f.start_charge) AS dod"
)


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
        selection, table="charge_sessions", at="start_at", columns=_COLUMNS
    )
    depth_bin = f"least({DOD_BINS - 1}, floor(dod / {DOD_BIN}))::INTEGER"
    found = cursor.execute(
        "SELECT bucket, vehicle_id, count(*), sum(duration_s), sum(added), sum(dod), "  # noqa: S608 - constants only
        f"list_transform(range({DOD_BINS}), lambda b: coalesce(histogram({depth_bin})[b], 0)) "
        f"FROM ({rows_sql}) GROUP BY bucket, vehicle_id",
        parameters,
    ).fetchall()
    return {(b, v): Sums(c, d, a, x, tuple(h)) for b, v, c, d, a, x, h in found}


def session_figures(
    sums: SessionSums, bucket: int, *, capacities: Mapping[int, float | None], cycles: float
) -> SessionFigures:
    """The vehicles of ``capacities`` together in ``bucket``, energy over those whose capacity
    is known (null if none is); ``cycles``: the equivalent full cycles (from the samples)."""
    rows = [(sums.get((bucket, v), Sums()), capacity) for v, capacity in capacities.items()]
    count = sum(row.sessions for row, _ in rows)
    added = sum(row.added for row, _ in rows)
    discharged = sum(row.discharged for row, _ in rows)
    known = [(row, capacity) for row, capacity in rows if capacity is not None]
    return SessionFigures(
        count=count,
        mean_duration_seconds=sum(row.duration for row, _ in rows) / count if count else None,
        mean_added_charge=added / count if count else None,
        added_charge=added,
        discharged=discharged,
        equivalent_full_cycles=cycles,
        mean_depth_of_discharge=discharged / count if count else None,
        depth_histogram=[sum(r.histogram[i] for r, _ in rows) for i in range(DOD_BINS)],
        added_energy_wh=sum(r.added / 100 * c for r, c in known) if known else None,
        discharged_energy_wh=sum(r.discharged / 100 * c for r, c in known) if known else None,
    )
