"""Fleet measures from the site rollups (``facts.site_rollup``), when the selected vehicles
are exactly the ones a site's rows hold.

A site's row packs its measures in one array: the period's rows come in one small Arrow
read, go into their buckets by binary search over the (disjoint) windows and are summed
per bucket in NumPy. DuckDB binds a GROUP BY naming every measure in more time than all of
this takes, and summing them as long rows (bucket, measure) in SQL costs 2-3 times the CPU
(a year of a site's hours, measured).
"""

from collections.abc import Sequence
from datetime import date

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.core.measure_table import (
    COLUMNS,
    MIN_COLUMN,
    NARROW,
    Matrix,
    MeasureTable,
)
from fleetscope.analytics.core.periods import Window
from fleetscope.analytics.core.rollups import FLEET
from fleetscope.facts.rawlog import to_micros
from fleetscope.facts.rollup import MEASURE_NAMES
from fleetscope.facts.site_rollup import MEMBERS_TABLE

Ints = npt.NDArray[np.int64]
_EPOCH = date(1970, 1, 1)
_ERROR_LEVELS = tuple(
    MEASURE_NAMES.index(f"errors_{level}") for level in ("warning", "urgent", "critical", "fatal")
)
# Where each column of ``measure_table.COLUMNS`` is in the packed array (errors: summed).
_SOURCE = np.array(
    [0 if column == "errors" else MEASURE_NAMES.index(column) for column in COLUMNS],
    dtype=np.intp,
)
_ERRORS_COLUMN = COLUMNS.index("errors")
_WIDTH = len(MEASURE_NAMES)  # of the packed array


def in_windows(positions: Ints, *, starts: Ints, ends: Ints) -> tuple[npt.NDArray[np.bool_], Ints]:
    """Which positions lie in one of the disjoint windows ``[starts, ends)`` (sorted by
    start), and the index of that window (meaningless where outside), by binary search."""
    window = np.searchsorted(starts, positions, side="right") - 1
    inside = window >= 0
    inside[inside] = positions[inside] < ends[window[inside]]
    return inside, window


def site_rollup_usable(
    cursor: duckdb.DuckDBPyConnection,
    *,
    site_id: int,
    vehicle_ids: list[int],
    days_cut_in: str | None = None,
) -> bool:
    """Whether the site's rollups are the sum over exactly ``vehicle_ids``: the site's
    members are those of these vehicles that ever reported (only they have rollup rows, and
    each has a ``vehicle_zones`` row from its first batch), and none of them was counted at
    another site as well. With ``days_cut_in`` (daily rows to be read), all of them must
    have had their days cut in that zone."""
    rows = cursor.execute(
        f"SELECT site_id, vehicle_id, NULL FROM {MEMBERS_TABLE} "  # noqa: S608 - constant name
        "UNION ALL SELECT NULL, vehicle_id, time_zone FROM vehicle_zones "
        "WHERE list_contains(?::INTEGER[], vehicle_id)",
        [vehicle_ids],
    ).fetchall()
    selected = set(vehicle_ids)
    reported = {int(vehicle) for site, vehicle, _ in rows if site is None}
    members = {int(vehicle) for site, vehicle, _ in rows if site == site_id}
    counted_elsewhere = any(
        site is not None and site != site_id and vehicle in selected for site, vehicle, _ in rows
    )
    other_zone = days_cut_in is not None and any(
        site is None and zone != days_cut_in for site, _, zone in rows
    )
    return bool(members) and members == reported and not counted_elsewhere and not other_zone


def read_site_hourly(
    cursor: duckdb.DuckDBPyConnection,
    *,
    site_id: int,
    ranges: Sequence[tuple[Window, int]],
    with_cycles: bool,
    result: MeasureTable,
) -> None:
    """The site's whole UTC hours in ``ranges`` (windows on full hours, each with its bucket)."""
    _read(
        cursor,
        "SELECT epoch_us(hour_utc), measures FROM rollup_site_hourly "
        "WHERE site_id = ? AND hour_utc >= ? AND hour_utc < ?",
        [site_id, min(w.start for w, _ in ranges), max(w.end for w, _ in ranges)],
        [(to_micros(window.start), to_micros(window.end), bucket) for window, bucket in ranges],
        with_cycles=with_cycles,
        result=result,
    )


def read_site_daily(
    cursor: duckdb.DuckDBPyConnection,
    *,
    site_id: int,
    days: Sequence[tuple[tuple[date, date], int]],
    with_cycles: bool,
    result: MeasureTable,
) -> None:
    """The site's local days in ``days`` (first and last day, inclusive, with the bucket)."""
    _read(
        cursor,
        "SELECT datediff('day', DATE '1970-01-01', day), measures FROM rollup_site_daily "
        "WHERE site_id = ? AND day >= ? AND day <= ?",
        [site_id, min(span[0] for span, _ in days), max(span[1] for span, _ in days)],
        [((first - _EPOCH).days, (last - _EPOCH).days + 1, b) for (first, last), b in days],
        with_cycles=with_cycles,
        result=result,
    )


def _read(
    cursor: duckdb.DuckDBPyConnection,
    sql: str,
    parameters: list[object],
    windows: list[tuple[int, int, int]],
    *,
    with_cycles: bool,
    result: MeasureTable,
) -> None:
    """The rows of ``sql`` (position, measures) summed per bucket of ``windows`` (start,
    end and bucket in the positions' unit: microseconds or day numbers)."""
    positions, matrix = _rows(cursor, sql, parameters)
    starts, ends, buckets = (list(column) for column in zip(*windows, strict=True))
    _add_by_bucket(
        positions, matrix, (starts, ends, buckets), with_cycles=with_cycles, result=result
    )


def _rows(
    cursor: duckdb.DuckDBPyConnection, sql: str, parameters: list[object]
) -> tuple[Ints, Matrix]:
    """The rows' positions (hour or day numbers) and measures (one row each)."""
    table = cursor.sql(sql, params=parameters).to_arrow_table()
    positions = table.column(0).to_numpy().astype(np.int64)
    flat = table.column(1).combine_chunks().flatten().to_numpy(zero_copy_only=False)
    return positions, np.asarray(flat, dtype=np.float64).reshape(len(positions), _WIDTH)


def _add_by_bucket(
    positions: Ints,
    matrix: Matrix,
    windows: tuple[list[int], list[int], list[int]],
    *,
    with_cycles: bool,
    result: MeasureTable,
) -> None:
    """Sum the rows in each bucket (rows outside every window are dropped) into ``result``."""
    if len(positions) == 0:
        return
    starts, ends, buckets = (np.array(values, dtype=np.int64) for values in windows)
    order = np.argsort(starts)
    inside, window = in_windows(positions, starts=starts[order], ends=ends[order])
    buckets = buckets[order]
    if not inside.any():
        return
    row_buckets = buckets[window[inside]]
    width = len(COLUMNS) if with_cycles else NARROW
    kept = matrix[inside]
    values = kept[:, _SOURCE[:width]]
    values[:, _ERRORS_COLUMN] = kept[:, _ERROR_LEVELS].sum(axis=1)
    by_bucket = np.argsort(row_buckets, kind="stable")
    found, first_rows = np.unique(row_buckets[by_bucket], return_index=True)
    values = values[by_bucket]
    sums = np.add.reduceat(values, first_rows, axis=0)
    sums[:, MIN_COLUMN] = np.fmin.reduceat(values[:, MIN_COLUMN], first_rows)
    result.add_rows(vehicles=[FLEET] * len(found), buckets=found.tolist(), values=sums)
