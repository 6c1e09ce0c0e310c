"""Percentiles of durations, grouped, in one statement: exact up to 31 days, else histograms.

product.md section 3: percentiles are exact (linear interpolation between the closest
ranks, ``quantile_cont``) for periods of up to 31 days; longer periods may use mergeable
histograms with at most 0.5 % relative error. ``quantile_cont`` holds every value of a
group in memory and cannot spill (a year of 300 vehicles' actions does not fit DuckDB's
512 MiB), so a longer period counts its values per logarithmic bucket instead: an
ordinary grouped count, bounded by the number of buckets and spilled like any aggregate.
A bucket ``b`` holds ``(g^(b-1), g^b]`` with ``g = (1 + a) / (1 - a)``, and its midpoint
``2 g^b / (g + 1)`` is within ``a`` of every value in it (DDSketch's mapping). The value
at each rank is its bucket's midpoint and the ranks are interpolated as ``quantile_cont``
does, so each percentile stays within ``a`` of the exact one. Values are non-negative
integers (microseconds); 0 has a bucket of its own, read as 0.
"""

import math
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import duckdb

from fleetscope.analytics.core.periods import DaySpan

EXACT_UP_TO = timedelta(days=31)
# Below the promised 0.5 %: a value on a bucket's edge may land on either side by rounding.
RELATIVE_ACCURACY = 0.0049
_GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY)
_ZERO = -(2**31)  # the bucket of 0

PERCENTILES_EXACT = (
    "true: the percentiles are exact (linear interpolation between the closest ranks), as "
    "for periods up to 31 days; false: from a histogram, within 0.5 %"
)
Key = tuple[Any, ...]  # the grouped columns' values, None where a grouping set leaves one out


def exact_for(span: DaySpan) -> bool:
    """Whether percentiles over ``span`` (a period, or its previous one) are exact."""
    if span.clip is not None:
        return span.clip.end - span.clip.start <= EXACT_UP_TO
    return span.days <= EXACT_UP_TO.days


def percentile_sql(
    rows: tuple[str, list[Any]],
    *,
    value: str,
    sets: Sequence[Sequence[str]],
    quantiles: Sequence[float],
    exact: bool,
) -> tuple[str, list[Any]]:
    """SQL and parameters of the ``quantiles`` (a list column ``quantiles``) of ``value`` over
    the subquery ``rows`` per group of each grouping set in ``sets``: the columns named in
    any set come first, in order, NULL where the set leaves one out. Groups without a
    non-NULL value are absent. ``value`` and ``sets`` are constants of the caller."""
    columns = list(dict.fromkeys(column for grouping in sets for column in grouping))
    rows_sql, parameters = rows
    keys = ", ".join(columns)
    source = f"(SELECT * FROM ({rows_sql}) WHERE {value} IS NOT NULL)"  # noqa: S608
    # The quantiles are the caller's float constants: DuckDB wants them constant.
    listed = f"[{', '.join(repr(float(q)) for q in quantiles)}]"
    if not exact:
        sql = _histogram_sql(keys=keys, sets=sets, value=value, source=source, listed=listed)
        return sql, parameters
    grouping = ", ".join(f"({', '.join(grouping)})" for grouping in sets)
    return (
        f"SELECT {keys}, quantile_cont({value}, {listed}) AS quantiles FROM {source} "  # noqa: S608 - constants only
        f"GROUP BY GROUPING SETS ({grouping})"
    ), parameters


def percentiles(
    cursor: duckdb.DuckDBPyConnection,
    rows: tuple[str, list[Any]],
    *,
    value: str,
    sets: Sequence[Sequence[str]],
    quantiles: Sequence[float],
    exact: bool,
) -> dict[Key, list[float]]:
    """``percentile_sql``'s groups: key (the columns of ``sets``) to the quantiles."""
    sql, parameters = percentile_sql(rows, value=value, sets=sets, quantiles=quantiles, exact=exact)
    return {
        tuple(row[:-1]): [float(v) for v in row[-1]]
        for row in cursor.execute(sql, parameters).fetchall()
    }


def _histogram_sql(
    *, keys: str, sets: Sequence[Sequence[str]], value: str, source: str, listed: str
) -> str:
    """Counts per (group, bucket); per group and quantile the buckets of the two closest
    ranks (the first bucket whose running count passes each); their midpoints interpolated.
    ``gid`` tells the grouping sets apart (a NULL key column is left out, not a value)."""
    log_gamma = math.log(_GAMMA)
    bucket = (
        f"CASE WHEN {value} <= 0 THEN {_ZERO} ELSE ceil(ln({value}) / {log_gamma!r})::INTEGER END"
    )
    midpoint = (
        f"CASE WHEN {{0}} = {_ZERO} THEN 0.0 ELSE 2 * pow({_GAMMA!r}, {{0}}) / {_GAMMA + 1!r} END"
    )
    with_bucket = ", ".join(f"({', '.join([*grouping, 'b'])})" for grouping in sets)
    group = f"gid, {keys}"
    return (
        f"WITH h AS (SELECT {keys}, grouping({keys}) AS gid, b, count(*) AS n "  # noqa: S608 - constants only
        f"FROM (SELECT *, {bucket} AS b FROM {source}) GROUP BY GROUPING SETS ({with_bucket})), "
        f"c AS (SELECT *, sum(n) OVER (PARTITION BY {group} ORDER BY b) AS upto, "
        f"sum(n) OVER (PARTITION BY {group}) - 1 AS last FROM h), "
        "r AS (SELECT c.*, q.i, q.q * last AS pos, least(floor(q.q * last) + 1, last) AS above "
        f"FROM c, (SELECT unnest({listed}) AS q, generate_subscripts({listed}, 1) AS i) q), "
        f"p AS (SELECT {group}, i, arg_min(b, upto) FILTER (WHERE upto > floor(pos)) AS lo, "
        "arg_min(b, upto) FILTER (WHERE upto > above) AS hi, "
        f"any_value(pos - floor(pos)) AS frac FROM r GROUP BY {group}, i) "
        f"SELECT {keys}, list({midpoint.format('lo')} + frac * ({midpoint.format('hi')} - "
        f"{midpoint.format('lo')}) ORDER BY i) AS quantiles FROM p GROUP BY {group}"
    )
