"""Fleet measures from the site rollups (``facts.site_rollup``), when the selected vehicles
are exactly the ones a site's rows hold. A site's row packs its measures in one array: the
rows come with their buckets and are summed in NumPy, which costs a third of the CPU of a
GROUP BY over every measure in SQL.
"""

from typing import Any

import duckdb
import numpy as np

from fleetscope.analytics.core.measure_table import COLUMN, COLUMNS, MIN_COLUMN, MeasureTable
from fleetscope.analytics.core.rollups import (
    DAYS_OF_RANGES,
    ERROR_LEVELS,
    FLEET,
    HOURS_OF_RANGES,
    Days,
    Hours,
    day_parameters,
    hour_bounds,
    range_parameters,
)
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
        _read(cursor, "daily", "day", DAYS_OF_RANGES, [*day_parameters(days), site_id], result)
    if hours:
        parameters = [*range_parameters(hours), *hour_bounds(hours), site_id]
        _read(cursor, "hourly", "hour_utc", HOURS_OF_RANGES, parameters, result)


def _read(
    cursor: duckdb.DuckDBPyConnection,
    suffix: str,
    key: str,
    ranges: str,
    parameters: list[Any],
    result: MeasureTable,
) -> None:
    """The site's rows of the days or hours of ``ranges`` (as the vehicles' rollups join
    them), summed per bucket."""
    arrow = cursor.sql(
        f"SELECT sel.bucket, r.measures FROM rollup_site_{suffix} r "  # noqa: S608 - constants only
        f"JOIN {ranges} sel ON r.{key} = sel.{key} "
        f"WHERE r.{key} >= ? AND r.{key} < ? AND r.site_id = ? ORDER BY sel.bucket, r.{key}",
        params=parameters,
    ).to_arrow_table()
    if not arrow.num_rows:
        return
    buckets = arrow.column(0).to_numpy()
    flat = arrow.column(1).combine_chunks().flatten().to_numpy(zero_copy_only=False)
    packed = np.asarray(flat, dtype=np.float64).reshape(len(buckets), len(MEASURE_NAMES))
    values = packed[:, _PACKED]
    values[:, COLUMN["errors"]] = packed[:, _PACKED_ERRORS].sum(axis=1)
    found, first_rows = np.unique(buckets, return_index=True)
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
