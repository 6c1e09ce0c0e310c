"""Reading the rollups, each row into the bucket of its window: whole site-local days from
``rollup_daily`` (T without a shift; only vehicles whose days were cut in their site's zone)
and whole UTC hours from ``rollup_hourly``; the vehicles' rows (``facts.rollup``), or a
site's (``facts.site_rollup``) when the selected vehicles are exactly its members.
"""

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
import numpy as np

from fleetscope.analytics.core.measure_table import COLUMN, COLUMNS, MIN_COLUMN, MeasureTable
from fleetscope.analytics.core.periods import Window, midnight
from fleetscope.facts.rollup import MEASURE_NAMES, MEASURES
from fleetscope.facts.site_rollup import MEMBERS_TABLE

FLEET = 0
Days = Sequence[tuple[tuple[date, date], int]]  # (first day, last day), bucket
Hours = Sequence[tuple[Window, int]]  # a window on full UTC hours, bucket

# Ranges expanded to their hours (days) inside DuckDB, each with its range's bucket: passing
# a year of single hours as a list parameter costs more than the query.
HOURS_OF_RANGES = (
    "(SELECT unnest(generate_series(lo, hi - INTERVAL 1 HOUR, INTERVAL 1 HOUR)) AS hour_utc, "
    "bucket FROM (SELECT unnest(?::TIMESTAMPTZ[]) AS lo, unnest(?::TIMESTAMPTZ[]) AS hi, "
    "unnest(?::INTEGER[]) AS bucket))"
)
DAYS_OF_RANGES = (
    "(SELECT unnest(generate_series(lo, hi, INTERVAL 1 DAY))::DATE AS day, bucket "
    "FROM (SELECT unnest(?::DATE[]) AS lo, unnest(?::DATE[]) AS hi, "
    "unnest(?::INTEGER[]) AS bucket))"
)
ERROR_LEVELS = tuple(f"errors_{level}" for level in ("warning", "urgent", "critical", "fatal"))
_KIND = dict(MEASURES) | {"errors": "count"}
_SOURCE = {column: column for column in COLUMNS} | {"errors": " + ".join(ERROR_LEVELS)}
# Counts as BIGINT (DuckDB sums integers into HUGEINT, which NumPy has no type for); the
# minimum NaN for none.
_COMBINED = {"sum": "sum({})", "count": "sum({})::BIGINT", "min": "coalesce(min({}), 'NaN')"}
_UNREAD = {"sum": "0::DOUBLE", "count": "0::BIGINT", "min": "'NaN'::DOUBLE"}
# Where each column is in a site row's packed array (errors: the levels, summed).
_PACKED = np.array([MEASURE_NAMES.index(c) if c != "errors" else 0 for c in COLUMNS])
_PACKED_ERRORS = [MEASURE_NAMES.index(level) for level in ERROR_LEVELS]


def range_parameters(ranges: Hours) -> list[Any]:
    """The three list parameters of ``HOURS_OF_RANGES``."""
    return [[w.start for w, _ in ranges], [w.end for w, _ in ranges], [b for _, b in ranges]]


def whole_days(window: Window, zone: ZoneInfo) -> tuple[tuple[date, date] | None, list[Window]]:
    """The whole local days inside ``window`` (first, last) and the rest of the window."""
    first = window.start.astimezone(zone).date()
    if midnight(first, zone) < window.start:
        first += timedelta(days=1)
    end_day = window.end.astimezone(zone).date()  # days before this one may be whole
    if first >= end_day:
        return None, [window]
    day_start, day_end = midnight(first, zone), midnight(end_day, zone)
    rest = [Window(window.start, day_start), Window(day_end, window.end)]
    return (first, end_day - timedelta(days=1)), [part for part in rest if part.seconds > 0]


def day_parameters(days: Days) -> list[Any]:
    """The three list parameters of ``DAYS_OF_RANGES`` and the bounds of the days."""
    firsts, lasts = [s[0] for s, _ in days], [s[1] for s, _ in days]
    return [firsts, lasts, [b for _, b in days], min(firsts), max(lasts) + timedelta(days=1)]


def hour_bounds(hours: Hours) -> list[datetime]:
    return [min(w.start for w, _ in hours), max(w.end for w, _ in hours)]


def read_rollups(
    cursor: duckdb.DuckDBPyConnection,
    *,
    vehicle_ids: list[int],
    days: Days,
    hours: Hours,
    by_vehicle: bool,
    result: MeasureTable,
    only: frozenset[str] | None = None,
) -> None:
    """The vehicles' rollup rows of ``days`` and ``hours`` per vehicle (or summed as
    ``FLEET``). ``only``: the columns needed (fewer to sum), the rest stays zero."""
    selections = []
    if days:
        selections.append(("daily", "day", DAYS_OF_RANGES, day_parameters(days)))
    if hours:
        ranges = range_parameters(hours) + hour_bounds(hours)
        selections.append(("hourly", "hour_utc", HOURS_OF_RANGES, ranges))
    for suffix, key, selected, parameters in selections:
        measures = ", ".join(
            (_COMBINED if only is None or c in only else _UNREAD)[_KIND[c]].format(_SOURCE[c])
            for c in COLUMNS
        )
        sql = (
            f"SELECT {'r.vehicle_id' if by_vehicle else FLEET}, sel.bucket, {measures} "  # noqa: S608 - constants only
            f"FROM rollup_{suffix} r JOIN {selected} sel ON r.{key} = sel.{key} "
            f"WHERE r.{key} >= ? AND r.{key} < ? AND list_contains(?::INTEGER[], r.vehicle_id)"
            " GROUP BY ALL"
        )
        rows = cursor.execute(sql, [*parameters, vehicle_ids]).fetchnumpy()
        vehicles, buckets, *columns = rows.values()
        if len(vehicles):
            values = np.column_stack(columns).astype(np.float64)
            result.add_rows(vehicles=vehicles.tolist(), buckets=buckets.tolist(), values=values)


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
