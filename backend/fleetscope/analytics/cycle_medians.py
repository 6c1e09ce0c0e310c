"""Exact order cycle-time medians per bucket, as Processes computes them (product.md section 3,
"Percentiles": the same figure is the same number on every page).

The dashboard's cycle-time tile and its sparkline read the finished orders of each bucket
(orders count where they end) and take ``quantile_cont`` of their cycle times (linear
interpolation between the closest ranks) with ``SortedDurations``, the code behind the
Processes page's figures: the period's median is the one Processes shows for the same
selection, to the last digit. The rollups' histogram (buckets 19 % wide) is not used.
"""

from collections.abc import Sequence

import duckdb
import numpy as np

from fleetscope.analytics.fact_rows import Selection, SiteSlice, rows_in_periods
from fleetscope.analytics.order_summary import ORDER_COLUMNS
from fleetscope.analytics.plan import Collected
from fleetscope.analytics.sorted_durations import Figures, SortedDurations, packed_key_sql

MEDIAN = 0.5


def cycle_medians(
    cursor: duckdb.DuckDBPyConnection,
    collected: Collected,
    *,
    buckets: Sequence[int],
    groups: Sequence[Sequence[int]] = (),
) -> tuple[list[float | None], list[float | None]]:
    """The median cycle time of the finished orders ending in each of ``buckets`` (the
    windows ``collected`` read for them; disjoint), and of each union of buckets in
    ``groups`` (a period made of its buckets); None without a finished order."""
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
    # DuckDB packs each order's bucket and duration into one sortable key (``SortedDurations``:
    # NULL for a duration beyond 6.4 days, then the columns are read as they are).
    cursor.abort()
    source = f"FROM ({rows_sql}) WHERE outcome = 'finished'"
    keys = cursor.sql(
        f"SELECT {packed_key_sql('bucket', 'cycle_us')} {source}",
        params=parameters,
    ).to_arrow_table()
    if keys.column(0).null_count == 0:
        durations = SortedDurations.of_keys(keys.column(0).to_numpy().astype(np.int64))
    else:
        found = cursor.sql(
            f"SELECT bucket::BIGINT, cycle_us {source}",
            params=parameters,
        ).to_arrow_table()
        durations = SortedDurations(found.column(0).to_numpy(), found.column(1).to_numpy())
    per_bucket = durations.groups(list(buckets), [MEDIAN])
    # A period's median from its buckets' sorted runs, as Processes finds the fleet's.
    per_group = [durations.union(list(members), [MEDIAN]) for members in groups]

    def medians(figures: list[Figures | None]) -> list[float | None]:
        return [None if item is None else item.quantiles[0] for item in figures]

    return medians(per_bucket), medians(per_group)
