"""Charge sessions of the battery page, per selected vehicle and bucket (period, previous).

Sessions starting in T: count, mean duration, mean added charge (end - start); depth of
discharge per cycle = the highest charge since the previous session ended (``peak_before``)
- the charge at this session's start, in a histogram of 10-point bins; energy in Wh =
percent / 100 x the vehicle's battery capacity, for vehicles whose capacity is known.

DuckDB sums the sessions in T per bucket and vehicle (with the depth histogram); the sums
go into arrays indexed by bucket and vehicle, from which the figures of each vehicle and of
all of them together are read.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

import duckdb
import numpy as np
import numpy.typing as npt
from pydantic import Field
from typing_extensions import TypedDict

from fleetscope.analytics.core.facts import Selection, rows_in_periods
from fleetscope.appstore.schemas import camel_case

DOD_BIN = 10
DOD_BINS = 10
_BUCKETS = 2  # fact_rows.CURRENT and PREVIOUS

_SESSION_COLUMNS = (
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


@dataclass(frozen=True, slots=True)
class SessionTotals:
    """Sums over the sessions starting in T, indexed [bucket, vehicle] in the order of the
    selected vehicles (the histogram [bucket, vehicle, depth bin])."""

    count: npt.NDArray[np.int64]
    duration: npt.NDArray[np.float64]
    added: npt.NDArray[np.float64]
    discharged: npt.NDArray[np.float64]
    histogram: npt.NDArray[np.int64]


def session_totals(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    *,
    vehicle_ids: Sequence[int],
) -> SessionTotals:
    """The sessions starting in T of ``selection`` (both buckets), summed per bucket and
    vehicle of ``vehicle_ids`` (every vehicle of the selection is one of them)."""
    rows_sql, parameters = rows_in_periods(
        selection, table="charge_sessions", at="start_at", columns=_SESSION_COLUMNS
    )
    depth_bin = f"least({DOD_BINS - 1}, floor(dod / {DOD_BIN}))::INTEGER"
    found = cursor.execute(
        "SELECT bucket, vehicle_id, count(*), sum(duration_s), sum(added), sum(dod), "  # noqa: S608 - constants only
        f"histogram({depth_bin}) FROM ({rows_sql}) GROUP BY bucket, vehicle_id",
        parameters,
    ).fetchall()
    position = {vehicle_id: index for index, vehicle_id in enumerate(vehicle_ids)}
    shape = (_BUCKETS, len(vehicle_ids))
    totals = SessionTotals(
        count=np.zeros(shape, np.int64),
        duration=np.zeros(shape),
        added=np.zeros(shape),
        discharged=np.zeros(shape),
        histogram=np.zeros((*shape, DOD_BINS), np.int64),
    )
    for bucket, vehicle_id, count, duration, added, discharged, depths in found:
        cell = (bucket, position[vehicle_id])
        totals.count[cell] = count
        totals.duration[cell] = duration
        totals.added[cell] = added
        totals.discharged[cell] = discharged
        for depth_bin_index, cycles in depths.items():
            totals.histogram[(*cell, depth_bin_index)] = cycles
    return totals


def _figures(
    count: int,
    duration: float,
    added: float,
    discharged: float,
    histogram: list[int],
    energy: tuple[float, float] | None,
) -> SessionFigures:
    return SessionFigures(
        count=count,
        mean_duration_seconds=duration / count if count else None,
        mean_added_charge=added / count if count else None,
        added_charge=added,
        discharged=discharged,
        equivalent_full_cycles=discharged / 100,
        mean_depth_of_discharge=discharged / count if count else None,
        depth_histogram=histogram,
        added_energy_wh=energy[0] if energy else None,
        discharged_energy_wh=energy[1] if energy else None,
    )


def vehicle_session_figures(
    totals: SessionTotals, bucket: int, *, capacities: Sequence[float | None]
) -> list[SessionFigures]:
    """The figures of each selected vehicle in ``bucket``, in the order of the vehicles."""
    columns = zip(
        totals.count[bucket].tolist(),
        totals.duration[bucket].tolist(),
        totals.added[bucket].tolist(),
        totals.discharged[bucket].tolist(),
        totals.histogram[bucket].tolist(),
        capacities,
        strict=True,
    )
    return [
        _figures(
            count,
            duration,
            added,
            discharged,
            histogram,
            None if capacity is None else (added / 100 * capacity, discharged / 100 * capacity),
        )
        for count, duration, added, discharged, histogram, capacity in columns
    ]


def fleet_session_figures(
    totals: SessionTotals, bucket: int, *, capacities: Sequence[float | None]
) -> SessionFigures:
    """The figures of all selected vehicles together in ``bucket``; energy over the vehicles
    whose capacity is known (null if none is)."""
    added = totals.added[bucket].tolist()
    discharged = totals.discharged[bucket].tolist()
    known = [
        (a, d, c) for a, d, c in zip(added, discharged, capacities, strict=True) if c is not None
    ]
    # Python's sums, one vehicle after the other: the figures of one vehicle and of several
    # are added the same way.
    energy = None
    if known:
        energy = (sum(a / 100 * c for a, _, c in known), sum(d / 100 * c for _, d, c in known))
    return _figures(
        int(totals.count[bucket].sum()),
        sum(totals.duration[bucket].tolist()),
        sum(added),
        sum(discharged),
        totals.histogram[bucket].sum(axis=0).tolist(),
        energy,
    )
