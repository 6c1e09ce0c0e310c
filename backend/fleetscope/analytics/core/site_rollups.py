"""Fleet measures from the site rollups (``facts.site_rollup``), when the selected vehicles
are exactly the ones a site's rows hold: a hundredth of the rows of the vehicles' rollups.

A site's row packs its measures in one array (``facts.rollup.MEASURES`` order). The read
picks the columns of ``measure_table.COLUMNS`` from it and sums them per bucket as long
rows (bucket, column, value): a GROUP BY naming every measure would cost DuckDB more time
to bind than the whole read takes.
"""

from collections.abc import Sequence
from datetime import date
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.core.measure_table import COLUMNS, MIN_COLUMN, NARROW, MeasureTable
from fleetscope.analytics.core.periods import Window
from fleetscope.analytics.core.rollups import FLEET
from fleetscope.facts.rawlog import to_micros
from fleetscope.facts.rollup import MEASURE_NAMES
from fleetscope.facts.site_rollup import MEMBERS_TABLE

Ints = npt.NDArray[np.int64]
_EPOCH = date(1970, 1, 1)
_LEVELS = ("warning", "urgent", "critical", "fatal")
# Entries of the packed array (1-based) for each column of ``COLUMNS`` (errors: a
# placeholder, summed from the levels appended after them).
_PICKED = [
    *(1 if column == "errors" else MEASURE_NAMES.index(column) + 1 for column in COLUMNS),
    *(MEASURE_NAMES.index(f"errors_{level}") + 1 for level in _LEVELS),
]
_ERRORS_COLUMN = COLUMNS.index("errors")
_SQL = (
    "SELECT bucket, i, CASE WHEN i = {min} THEN coalesce(min(v), 'NaN'::DOUBLE) ELSE sum(v) END "
    "FROM (SELECT w.bucket, unnest(list_select(r.measures::DOUBLE[], ?::INTEGER[])) AS v, "
    "unnest(range(?)) AS i FROM {table} r JOIN (SELECT unnest(?::BIGINT[]) AS lo, "
    "unnest(?::BIGINT[]) AS hi, unnest(?::INTEGER[]) AS bucket) w "
    "ON {position} >= w.lo AND {position} < w.hi "
    "WHERE r.site_id = ? AND {bounds}) GROUP BY bucket, i"
)


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
        table="rollup_site_hourly",
        position="epoch_us(r.hour_utc)",
        # Bounds on the column itself: the zone maps skip row groups outside them.
        bounds=(
            "r.hour_utc >= ? AND r.hour_utc < ?",
            [min(w.start for w, _ in ranges), max(w.end for w, _ in ranges)],
        ),
        windows=[(to_micros(w.start), to_micros(w.end), bucket) for w, bucket in ranges],
        site_id=site_id,
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
        table="rollup_site_daily",
        position="datediff('day', DATE '1970-01-01', r.day)",
        bounds=(
            "r.day >= ? AND r.day <= ?",
            [min(s[0] for s, _ in days), max(s[1] for s, _ in days)],
        ),
        windows=[((first - _EPOCH).days, (last - _EPOCH).days + 1, b) for (first, last), b in days],
        site_id=site_id,
        with_cycles=with_cycles,
        result=result,
    )


def _read(
    cursor: duckdb.DuckDBPyConnection,
    *,
    table: str,
    position: str,
    bounds: tuple[str, list[Any]],
    windows: list[tuple[int, int, int]],
    site_id: int,
    with_cycles: bool,
    result: MeasureTable,
) -> None:
    """The rows whose ``position`` (microseconds or day number) lies in one of ``windows``
    (start, end, bucket), summed per bucket into ``result``."""
    width = len(COLUMNS) if with_cycles else NARROW
    picked = [*_PICKED[:width], *_PICKED[len(COLUMNS) :]]
    starts, ends, buckets = (list(column) for column in zip(*windows, strict=True))
    sql = _SQL.format(min=MIN_COLUMN, table=table, position=position, bounds=bounds[0])
    parameters = [picked, len(picked), starts, ends, buckets, site_id, *bounds[1]]
    found = cursor.execute(sql, parameters).fetchnumpy()
    bucket_of, column, value = (found[name] for name in list(found))
    if len(bucket_of) == 0:
        return
    keys, rows = np.unique(bucket_of.astype(np.int64), return_inverse=True)
    matrix = np.zeros((len(keys), len(picked)))
    matrix[rows, column.astype(np.intp)] = value.astype(np.float64)
    values = matrix[:, :width]
    values[:, _ERRORS_COLUMN] = matrix[:, width:].sum(axis=1)
    result.add_rows(vehicles=[FLEET] * len(keys), buckets=keys.tolist(), values=values)
