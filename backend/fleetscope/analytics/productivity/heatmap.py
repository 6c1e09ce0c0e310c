"""Finished orders by site-local weekday and hour of day (the productivity heatmap).

An order counts in the hour it ended, as in the rollups. Whole hours come from the hourly
rollup (grouped by hour first, so the zone conversion runs once per hour, not per row), or
from the site's hourly rollup when it holds exactly the vehicles (``site_rollup_read``);
partial pieces from the orders themselves.
"""

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
import numpy as np

from fleetscope.analytics.core.local_time import Ints, local_weekday_hour
from fleetscope.analytics.core.periods import Window, split_hour_ranges
from fleetscope.analytics.core.rollups import HOURS_OF_RANGES, range_parameters
from fleetscope.analytics.core.site_rollups import in_windows, site_rollup_usable
from fleetscope.facts.rawlog import to_micros
from fleetscope.facts.rollup import MEASURE_NAMES

WEEKDAYS = 7
HOURS = 24
_SITE_FINISHED = f"r.measures[{MEASURE_NAMES.index('orders_finished') + 1}]"  # 1-based


def empty_heatmap() -> list[list[int]]:
    return [[0] * HOURS for _ in range(WEEKDAYS)]


Hours = tuple[Ints, Ints]  # UTC hour (µs) and the finished orders ended in it


def _vehicle_hours(
    cursor: duckdb.DuckDBPyConnection, *, vehicle_ids: list[int], ranges: list[tuple[Window, int]]
) -> Hours:
    """The vehicles' finished orders per rollup hour in ``ranges``."""
    # One range (T without a shift) is a plain time filter; many (a shift) a join on their
    # hours expanded inside DuckDB.
    if len(ranges) == 1:
        hours = "rollup_hourly r WHERE r.hour_utc >= ? AND r.hour_utc < ?"
        hour_params: list[Any] = [ranges[0][0].start, ranges[0][0].end]
    else:
        hours = (
            f"rollup_hourly r JOIN {HOURS_OF_RANGES} sel ON r.hour_utc = sel.hour_utc "
            "WHERE r.hour_utc >= ? AND r.hour_utc < ?"
        )
        hour_params = [*range_parameters(ranges), ranges[0][0].start, ranges[-1][0].end]
    found = cursor.execute(
        "SELECT epoch_us(r.hour_utc) AS at, sum(r.orders_finished)::BIGINT AS finished "  # noqa: S608 - constants only
        f"FROM {hours} AND list_contains(?::INTEGER[], r.vehicle_id) GROUP BY r.hour_utc",
        [*hour_params, vehicle_ids],
    ).fetchnumpy()
    return found["at"].astype(np.int64), found["finished"].astype(np.int64)


def _site_hours(
    cursor: duckdb.DuckDBPyConnection, *, site_id: int, ranges: list[tuple[Window, int]]
) -> Hours:
    """The same from the site's rollup hours: one row per hour already, so the hours from
    the first to the last range are read as they are (no join, no grouping; a year is 8,760
    rows) and the ranges applied here."""
    found = cursor.execute(
        f"SELECT epoch_us(hour_utc) AS at, {_SITE_FINISHED} AS finished "  # noqa: S608 - constants only
        "FROM rollup_site_hourly r WHERE r.site_id = ? AND r.hour_utc >= ? AND r.hour_utc < ? "
        f"AND {_SITE_FINISHED} > 0",
        [site_id, ranges[0][0].start, ranges[-1][0].end],
    ).fetchnumpy()
    at = found["at"].astype(np.int64)
    kept, _ = in_windows(
        at,
        starts=np.array([to_micros(window.start) for window, _ in ranges], dtype=np.int64),
        ends=np.array([to_micros(window.end) for window, _ in ranges], dtype=np.int64),
    )
    return at[kept], found["finished"][kept].astype(np.int64)


def _add_hours(heatmap: list[list[int]], hours: Hours, *, zone: str) -> None:
    at, finished = hours
    weekdays, clock_hours = local_weekday_hour(ZoneInfo(zone), at)
    grid = np.zeros((WEEKDAYS, HOURS), dtype=np.int64)
    np.add.at(grid, (weekdays, clock_hours), finished)
    for weekday, row in enumerate(grid.tolist()):
        for hour, count in enumerate(row):
            heatmap[weekday][hour] += count


def add_order_heatmap(
    cursor: duckdb.DuckDBPyConnection,
    heatmap: list[list[int]],
    *,
    vehicle_ids: list[int],
    windows: list[Window],
    zone: str,
    tail_until: datetime | None,
    site_id: int | None = None,
    use_rollups: bool = True,
) -> None:
    """Adds the finished orders of ``vehicle_ids`` in ``windows`` (one site, ``site_id``)
    to ``heatmap``.

    ``tail_until``: see ``split_hour_ranges``."""
    if not vehicle_ids or not windows:
        return
    if use_rollups:
        split = split_hour_ranges(windows, tail_until=tail_until)
        ranges, pieces = [(whole, 0) for whole in split.ranges], split.pieces
    else:
        ranges, pieces = [], list(windows)
    if ranges:
        if site_id is not None and site_rollup_usable(
            cursor, site_id=site_id, vehicle_ids=vehicle_ids
        ):
            hours = _site_hours(cursor, site_id=site_id, ranges=ranges)
        else:
            hours = _vehicle_hours(cursor, vehicle_ids=vehicle_ids, ranges=ranges)
        _add_hours(heatmap, hours, zone=zone)
    if pieces:
        rows = cursor.execute(
            "SELECT isodow(timezone(?, o.end_at)) - 1, hour(timezone(?, o.end_at)), count(*) "
            "FROM orders o JOIN (SELECT unnest(?::TIMESTAMPTZ[]) AS lo, "
            "unnest(?::TIMESTAMPTZ[]) AS hi) p ON o.end_at >= p.lo AND o.end_at < p.hi "
            "WHERE list_contains(?::INTEGER[], o.vehicle_id) AND o.outcome = 'finished' "
            "AND o.end_at >= ? AND o.end_at < ? GROUP BY ALL",
            [
                zone,
                zone,
                [piece.start for piece in pieces],
                [piece.end for piece in pieces],
                vehicle_ids,
                min(piece.start for piece in pieces),
                max(piece.end for piece in pieces),
            ],
        ).fetchall()
        for weekday, hour, finished in rows:
            heatmap[int(weekday)][int(hour)] += int(finished or 0)
