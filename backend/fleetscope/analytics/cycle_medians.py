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
from fleetscope.analytics.sorted_durations import Figures, SortedDurations

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
    found = cursor.execute(
        f"SELECT bucket, cycle_us FROM ({rows_sql}) WHERE outcome = 'finished'",  # noqa: S608 - constants only
        parameters,
    ).fetchnumpy()
    order_buckets = np.asarray(found["bucket"], dtype=np.int64)
    micros = np.asarray(found["cycle_us"], dtype=np.int64)
    per_bucket = SortedDurations(order_buckets, micros).groups(list(buckets), [MEDIAN])
    group_of = {bucket: index for index, members in enumerate(groups) for bucket in members}
    present, inverse = np.unique(order_buckets, return_inverse=True)
    codes = np.array([group_of.get(b, -1) for b in present.tolist()], dtype=np.int64)[inverse]
    kept = codes >= 0
    per_group = SortedDurations(codes[kept], micros[kept]).groups(
        list(range(len(groups))), [MEDIAN]
    )

    def medians(figures: list[Figures | None]) -> list[float | None]:
        return [None if item is None else item.quantiles[0] for item in figures]

    return medians(per_bucket), medians(per_group)
