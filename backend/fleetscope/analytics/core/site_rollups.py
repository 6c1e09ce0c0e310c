"""Fleet measures from the site rollups (``facts.site_rollup``), when the selected vehicles
are exactly the ones a site's rows hold.

A site's row packs its measures in one array: the period's rows come in one small Arrow
read, go into their buckets by binary search over the (disjoint) windows and are summed per
bucket in NumPy. DuckDB binds a GROUP BY naming every measure in more time than all of this
takes, and summing them as long rows (bucket, measure) in SQL costs 2-3 times the CPU (a
year of a site's hours, measured).
"""

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import duckdb
import numpy as np

from fleetscope.analytics.core.measure_table import COLUMN, COLUMNS, MIN_COLUMN, MeasureTable
from fleetscope.analytics.core.rollups import (
    ERROR_LEVELS,
    FLEET,
    Days,
    Hours,
    day_bounds,
    hour_bounds,
)
from fleetscope.facts.rawlog import to_micros
from fleetscope.facts.rollup import MEASURE_NAMES
from fleetscope.facts.site_rollup import MEMBERS_TABLE

# Where each column is in a site row's packed array (errors: the levels, summed).
_PACKED = np.array([MEASURE_NAMES.index(c) if c != "errors" else 0 for c in COLUMNS])
_PACKED_ERRORS = [MEASURE_NAMES.index(level) for level in ERROR_LEVELS]


def read_site_rollups(
    cursor: duckdb.DuckDBPyConnection,
    *,
    site_id: int,
    days: Days,
    hours: Hours,
    result: MeasureTable,
) -> None:
    """The site's rollup rows of ``days`` and ``hours``, summed as ``FLEET``."""
    if days:
        # A day's position: its midnight in UTC, as ``epoch_us`` takes a DATE.
        windows = [(_micros(f), _micros(t + timedelta(days=1)), b) for (f, t), b in days]
        _read(cursor, "rollup_site_daily", "day", [site_id, *day_bounds(days)], windows, result)
    if hours:
        windows = [(to_micros(w.start), to_micros(w.end), b) for w, b in hours]
        parameters = [site_id, *hour_bounds(hours)]
        _read(cursor, "rollup_site_hourly", "hour_utc", parameters, windows, result)


def _micros(day: date) -> int:
    return to_micros(datetime.combine(day, time(), UTC))


def _read(
    cursor: duckdb.DuckDBPyConnection,
    table: str,
    key: str,
    parameters: list[Any],
    windows: list[tuple[int, int, int]],
    result: MeasureTable,
) -> None:
    """The site's rows summed per bucket of ``windows`` (start and end in microseconds)."""
    arrow = cursor.sql(
        f"SELECT epoch_us({key}), measures FROM {table} "  # noqa: S608 - constants only
        f"WHERE site_id = ? AND {key} >= ? AND {key} < ?",
        params=parameters,
    ).to_arrow_table()
    positions = arrow.column(0).to_numpy().astype(np.int64)
    flat = arrow.column(1).combine_chunks().flatten().to_numpy(zero_copy_only=False)
    packed = np.asarray(flat, dtype=np.float64).reshape(len(positions), len(MEASURE_NAMES))
    starts, ends, buckets = np.array(sorted(windows), dtype=np.int64).T
    # The window of each row by binary search (windows are disjoint); rows outside dropped.
    window = np.searchsorted(starts, positions, side="right") - 1
    inside = window >= 0
    inside[inside] = positions[inside] < ends[window[inside]]
    if not inside.any():
        return
    packed = packed[inside]
    values = packed[:, _PACKED]
    values[:, COLUMN["errors"]] = packed[:, _PACKED_ERRORS].sum(axis=1)
    row_buckets = buckets[window[inside]]
    by_bucket = np.argsort(row_buckets, kind="stable")
    found, first_rows = np.unique(row_buckets[by_bucket], return_index=True)
    values = values[by_bucket]
    sums = np.add.reduceat(values, first_rows, axis=0)
    sums[:, MIN_COLUMN] = np.fmin.reduceat(values[:, MIN_COLUMN], first_rows)
    result.add_rows(vehicles=[FLEET] * len(found), buckets=found.tolist(), values=sums)


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
    reported = {int(vehicle) for site, vehicle, _ in rows if site is None}
    members = {int(vehicle) for site, vehicle, _ in rows if site == site_id}
    selected = set(vehicle_ids)
    elsewhere = any(site not in (None, site_id) and v in selected for site, v, _ in rows)
    other_zone = days_cut_in is not None and any(
        site is None and zone != days_cut_in for site, _, zone in rows
    )
    return bool(members) and members == reported and not elsewhere and not other_zone
