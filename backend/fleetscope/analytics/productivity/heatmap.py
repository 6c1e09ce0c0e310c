"""Finished orders by site-local weekday and hour of day (the productivity heatmap).

An order counts in the hour it ended, as in the rollups. Whole hours come from the hourly
rollup, or from the site's hourly rollup when it holds exactly the vehicles
(``site_rollup_read``), summed per UTC hour first so the zone conversion runs once per hour,
not per row; partial pieces come from the orders themselves.
"""

from datetime import datetime
from typing import Any

import duckdb

from fleetscope.analytics.core.periods import HourRanges, Window, split_hour_ranges
from fleetscope.analytics.core.rollups import HOURS_OF_RANGES, range_parameters
from fleetscope.analytics.core.site_rollups import site_rollup_usable
from fleetscope.facts.rollup import MEASURE_NAMES

_SITE_FINISHED = f"measures[{MEASURE_NAMES.index('orders_finished') + 1}]"  # 1-based
_PIECES = (
    "SELECT o.end_at AS ended, 1 AS finished FROM orders o "
    "JOIN (SELECT unnest(?::TIMESTAMPTZ[]) AS lo, unnest(?::TIMESTAMPTZ[]) AS hi) p "
    "ON o.end_at >= p.lo AND o.end_at < p.hi "
    "WHERE list_contains(?::INTEGER[], o.vehicle_id) AND o.outcome = 'finished' "
    "AND o.end_at >= ? AND o.end_at < ?"
)
# (ended, finished) rows -> (local weekday 0 = Monday, local hour, finished); only hours
# with orders are converted (``timezone()`` costs a few µs a row).
_LOCAL = (
    "SELECT isodow(local) - 1, hour(local), sum(finished)::BIGINT "
    "FROM (SELECT timezone(?, ended) AS local, finished FROM ({})) GROUP BY ALL"
)


def empty_heatmap() -> list[list[int]]:
    return [[0] * 24 for _ in range(7)]


def _whole_hours(
    *, vehicle_ids: list[int], ranges: list[Window], site_id: int | None
) -> tuple[str, list[Any]]:
    """The (hour, finished orders) rows of the whole hours in ``ranges``: one range (T
    without a shift) is a plain time filter, several (a shift) a join on their hours."""
    bounds = [ranges[0].start, ranges[-1].end]
    join, params = "", []
    if len(ranges) > 1:
        join = f"JOIN {HOURS_OF_RANGES} sel ON r.hour_utc = sel.hour_utc "
        params = range_parameters([(window, 0) for window in ranges])
    if site_id is not None:  # the site's rollup holds one row per hour already
        return (
            f"SELECT r.hour_utc AS ended, r.{_SITE_FINISHED} AS finished "  # noqa: S608 - constants only
            f"FROM rollup_site_hourly r {join}"
            "WHERE r.site_id = ? AND r.hour_utc >= ? AND r.hour_utc < ? "
            f"AND r.{_SITE_FINISHED} > 0",
            [*params, site_id, *bounds],
        )
    return (
        "SELECT r.hour_utc AS ended, sum(r.orders_finished) AS finished "  # noqa: S608 - constants only
        f"FROM rollup_hourly r {join}WHERE r.hour_utc >= ? AND r.hour_utc < ? "
        "AND list_contains(?::INTEGER[], r.vehicle_id) GROUP BY r.hour_utc "
        "HAVING sum(r.orders_finished) > 0",
        [*params, *bounds, vehicle_ids],
    )


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
    to ``heatmap``. ``tail_until``: see ``split_hour_ranges``."""
    if not vehicle_ids or not windows:
        return
    split = HourRanges(ranges=[], pieces=windows)
    if use_rollups:
        split = split_hour_ranges(windows, tail_until=tail_until)
    sources: list[str] = []
    params: list[Any] = [zone]
    if split.ranges:
        if site_id is not None and not site_rollup_usable(
            cursor, site_id=site_id, vehicle_ids=vehicle_ids
        ):
            site_id = None
        sql, whole_params = _whole_hours(
            vehicle_ids=vehicle_ids, ranges=split.ranges, site_id=site_id
        )
        sources.append(sql)
        params += whole_params
    if pieces := split.pieces:
        sources.append(_PIECES)
        starts, ends = [piece.start for piece in pieces], [piece.end for piece in pieces]
        params += [starts, ends, vehicle_ids, min(starts), max(ends)]
    sql = _LOCAL.format(" UNION ALL ".join(sources))
    for weekday, hour, finished in cursor.execute(sql, params).fetchall():
        heatmap[weekday][hour] += finished
