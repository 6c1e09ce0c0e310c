"""Finished orders by site-local weekday and hour of day (the productivity heatmap).

An order counts in the hour it ended, as in the rollups. Whole hours come from the hourly
rollup (grouped by hour first, so the zone conversion runs once per hour, not per row), or
from the site's hourly rollup when it holds exactly the vehicles (``site_rollup_read``);
partial pieces from the orders themselves.
"""

from datetime import datetime
from typing import Any

import duckdb

from fleetscope.analytics.periods import Window, split_hour_ranges
from fleetscope.analytics.rollup_read import HOURS_OF_RANGES, range_parameters
from fleetscope.analytics.site_rollup_read import site_rollup_usable
from fleetscope.facts.rollup import MEASURE_NAMES

WEEKDAYS = 7
HOURS = 24
_SITE_FINISHED = f"r.measures[{MEASURE_NAMES.index('orders_finished') + 1}]"  # 1-based


def empty_heatmap() -> list[list[int]]:
    return [[0] * HOURS for _ in range(WEEKDAYS)]


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
    rows: list[tuple[int, int, int]] = []
    if ranges:
        # One range (T without a shift) is a plain time filter; many (a shift) a join on
        # their hours expanded inside DuckDB.
        by_site = site_id is not None and site_rollup_usable(
            cursor, site_id=site_id, vehicle_ids=vehicle_ids
        )
        table = "rollup_site_hourly" if by_site else "rollup_hourly"
        if len(ranges) == 1:
            hours = f"{table} r WHERE r.hour_utc >= ? AND r.hour_utc < ?"
            hour_params: list[Any] = [ranges[0][0].start, ranges[0][0].end]
        else:
            hours = (
                f"{table} r JOIN {HOURS_OF_RANGES} sel ON r.hour_utc = sel.hour_utc "
                "WHERE r.hour_utc >= ? AND r.hour_utc < ?"
            )
            hour_params = [*range_parameters(ranges), ranges[0][0].start, ranges[-1][0].end]
        finished_sum = _SITE_FINISHED if by_site else "r.orders_finished"
        owner = "r.site_id = ?" if by_site else "list_contains(?::INTEGER[], r.vehicle_id)"
        rows += cursor.execute(
            f"WITH per_hour AS (SELECT r.hour_utc, sum({finished_sum}) AS finished "  # noqa: S608 - constants only
            f"FROM {hours} AND {owner} GROUP BY r.hour_utc) "
            "SELECT isodow(timezone(?, hour_utc)) - 1, hour(timezone(?, hour_utc)), "
            "sum(finished)::BIGINT FROM per_hour GROUP BY ALL",
            [*hour_params, site_id if by_site else vehicle_ids, zone, zone],
        ).fetchall()
    if pieces:
        rows += cursor.execute(
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
