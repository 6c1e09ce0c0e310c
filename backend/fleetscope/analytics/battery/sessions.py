"""Charge sessions starting in T, per selected vehicle and bucket (period, previous): count,
mean duration, mean added charge (end - start); depth of discharge per cycle = the highest
charge since the previous session ended (``peak_before``) - the charge at this session's
start, in a histogram of 10-point bins; energy in Wh = percent / 100 x the vehicle's battery
capacity, for vehicles whose capacity is known. One statement sums them per bucket and
vehicle; all selected vehicles together add those sums vehicle after vehicle."""

from collections.abc import Sequence
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


class SessionTotals(NamedTuple):
    vehicle_ids: Sequence[int]
    sums: dict[tuple[int, int], Sums]  # (bucket, vehicle) with sessions


def session_totals(
    cursor: duckdb.DuckDBPyConnection, selection: Selection, *, vehicle_ids: Sequence[int]
) -> SessionTotals:
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
    return SessionTotals(
        vehicle_ids, {(b, v): Sums(c, d, a, x, tuple(h)) for b, v, c, d, a, x, h in found}
    )


def _figures(sums: Sums, capacity: float | None) -> SessionFigures:
    count, duration, added, discharged, histogram = sums
    return SessionFigures(
        count=count,
        mean_duration_seconds=duration / count if count else None,
        mean_added_charge=added / count if count else None,
        added_charge=added,
        discharged=discharged,
        equivalent_full_cycles=discharged / 100,
        mean_depth_of_discharge=discharged / count if count else None,
        depth_histogram=list(histogram),
        added_energy_wh=None if capacity is None else added / 100 * capacity,
        discharged_energy_wh=None if capacity is None else discharged / 100 * capacity,
    )


def vehicle_session_figures(
    totals: SessionTotals, bucket: int, *, capacities: Sequence[float | None]
) -> list[SessionFigures]:
    """The figures of each selected vehicle in ``bucket``, in the order of the vehicles."""
    return [
        _figures(totals.sums.get((bucket, v), Sums()), capacity)
        for v, capacity in zip(totals.vehicle_ids, capacities, strict=True)
    ]


def fleet_session_figures(
    totals: SessionTotals, bucket: int, *, capacities: Sequence[float | None]
) -> SessionFigures:
    """The figures of all selected vehicles together in ``bucket``; energy over the vehicles
    whose capacity is known (null if none is)."""
    rows = [totals.sums.get((bucket, v), Sums()) for v in totals.vehicle_ids]
    together = _figures(
        Sums(
            sum(row.sessions for row in rows),
            sum(row.duration for row in rows),
            sum(row.added for row in rows),
            sum(row.discharged for row in rows),
            tuple(sum(row.histogram[i] for row in rows) for i in range(DOD_BINS)),
        ),
        None,
    )
    known = [(row, c) for row, c in zip(rows, capacities, strict=True) if c is not None]
    if known:
        together["added_energy_wh"] = sum(row.added / 100 * c for row, c in known)
        together["discharged_energy_wh"] = sum(row.discharged / 100 * c for row, c in known)
    return together
