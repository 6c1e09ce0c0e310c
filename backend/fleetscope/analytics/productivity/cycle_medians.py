"""Exact order cycle-time medians per bucket, as Processes computes them (product.md section 3,
"Percentiles": the same figure is the same number on every page).

The dashboard's cycle-time tile and its sparkline read the finished orders of each bucket
(orders count where they end) and take DuckDB's ``quantile_cont`` of their cycle times in
integer microseconds (linear interpolation between the closest ranks), as Processes does
(``order_summary``): the period's median is the one Processes shows for the same selection.
The rollups' histogram (buckets 19 % wide) is not used.
"""

from collections.abc import Sequence

import duckdb

from fleetscope.analytics.core.facts import Selection, SiteSlice, rows_in_periods
from fleetscope.analytics.core.plan import Collected
from fleetscope.analytics.processes.order_summary import ORDER_COLUMNS


def cycle_medians(
    cursor: duckdb.DuckDBPyConnection,
    collected: Collected,
    *,
    buckets: Sequence[int],
    groups: Sequence[Sequence[int]] = (),
) -> tuple[list[float | None], list[float | None]]:
    """The median cycle time of the finished orders ending in each of ``buckets`` (the
    windows ``collected`` read for them; disjoint), and of each union of buckets in
    ``groups`` (a period made of its buckets; groups disjoint); None without a finished
    order. One query: the buckets and the groups are two grouping sets."""
    selection = Selection(
        [
            SiteSlice(
                list(site.group.vehicle_ids),
                sorted(
                    (
                        (window, bucket)
                        for bucket in buckets
                        for window in site.windows.get(bucket, ())
                    ),
                    key=lambda tagged: tagged[0].start,
                ),
            )
            for site in collected.sites
        ]
    )
    rows_sql, parameters = rows_in_periods(
        selection, table="orders", at="end_at", columns=ORDER_COLUMNS
    )
    group_of: dict[int, int] = {}
    for index, members in enumerate(groups):
        for bucket in members:
            if bucket in group_of:
                raise ValueError(f"bucket {bucket} is in two groups")
            group_of[bucket] = index
    found = cursor.execute(
        "SELECT grouping(bucket), bucket, grp, quantile_cont(cycle_us, 0.5) "  # noqa: S608 - constants only
        "FROM (SELECT bucket, cycle_us, "
        "map_extract(MAP(?::INTEGER[], ?::INTEGER[]), bucket)[1] AS grp "
        f"FROM ({rows_sql}) WHERE outcome = 'finished') "
        "GROUP BY GROUPING SETS ((bucket), (grp))",
        [list(group_of), list(group_of.values()), *parameters],
    ).fetchall()
    per_bucket: dict[int, float] = {}
    per_group: dict[int, float] = {}
    for by_group, bucket, group, median in found:
        if by_group and group is not None:
            per_group[int(group)] = median / 1e6
        elif not by_group:
            per_bucket[int(bucket)] = median / 1e6
    return (
        [per_bucket.get(bucket) for bucket in buckets],
        [per_group.get(index) for index in range(len(groups))],
    )
