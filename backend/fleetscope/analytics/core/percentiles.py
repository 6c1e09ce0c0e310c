"""Percentiles of durations (integer microseconds), grouped, in one statement: exact up to 31
days, else from logarithmic buckets (``facts.buckets``) within 0.49 %: ``quantile_cont`` holds
a group's values in memory and cannot spill, a count per bucket is an ordinary aggregate."""

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import duckdb

from fleetscope.analytics.core.periods import DaySpan
from fleetscope.facts.buckets import bucket_sql, midpoint_sql

EXACT_UP_TO = timedelta(days=31)

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
    bucket: str | None = None,
) -> tuple[str, list[Any]]:
    """SQL of the ``quantiles`` (list column ``quantiles``) of ``value`` over ``rows`` per group
    of each grouping set: the sets' columns first, NULL where a set leaves one out; groups
    without a value are absent. ``bucket``: a column holding ``value``'s stored bucket."""
    columns = list(dict.fromkeys(column for grouping in sets for column in grouping))
    rows_sql, parameters = rows
    keys = ", ".join(columns)
    if not exact:
        # Counts per (group, bucket); ``gid`` tells the grouping sets apart (a NULL key
        # column is left out, not a value).
        read = bucket or bucket_sql(value)
        with_bucket = ", ".join(f"({', '.join([*grouping, 'b'])})" for grouping in sets)
        counts = (
            f"SELECT {keys}, grouping({keys}) AS gid, b, count(*) AS n FROM (SELECT *, "  # noqa: S608 - constants only
            f"{read} AS b FROM ({rows_sql}) WHERE {bucket or value} IS NOT NULL) "
            f"GROUP BY GROUPING SETS ({with_bucket})"
        )
        found = histogram_quantiles_sql(counts, group=f"gid, {keys}", quantiles=quantiles)
        return f"SELECT * EXCLUDE (gid) FROM ({found})", parameters  # noqa: S608
    # The quantiles are the caller's float constants: DuckDB wants them constant.
    listed = f"[{', '.join(repr(float(q)) for q in quantiles)}]"
    source = f"(SELECT * FROM ({rows_sql}) WHERE {value} IS NOT NULL)"  # noqa: S608
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
    bucket: str | None = None,
) -> dict[Key, list[float]]:
    """``percentile_sql``'s groups: key (the columns of ``sets``) to the quantiles."""
    sql, parameters = percentile_sql(
        rows, value=value, sets=sets, quantiles=quantiles, exact=exact, bucket=bucket
    )
    return {
        tuple(row[:-1]): [float(v) for v in row[-1]]
        for row in cursor.execute(sql, parameters).fetchall()
    }


def histogram_quantiles_sql(counts: str, *, group: str, quantiles: Sequence[float]) -> str:
    """SQL of the ``quantiles`` per group of ``counts`` (columns ``group``, bucket ``b``, count
    ``n``): per quantile the buckets of the two closest ranks, their midpoints interpolated."""
    # The quantiles are the caller's float constants: DuckDB wants them constant.
    listed = f"[{', '.join(repr(float(q)) for q in quantiles)}]"
    lo, hi = midpoint_sql("lo"), midpoint_sql("hi")
    return (
        f"WITH c AS (SELECT *, sum(n) OVER (PARTITION BY {group} ORDER BY b) AS upto, "  # noqa: S608 - constants only
        f"sum(n) OVER (PARTITION BY {group}) - 1 AS last FROM ({counts})), "
        "r AS (SELECT c.*, q.i, q.q * last AS pos, least(floor(q.q * last) + 1, last) AS above "
        f"FROM c, (SELECT unnest({listed}) AS q, generate_subscripts({listed}, 1) AS i) q), "
        f"p AS (SELECT {group}, i, arg_min(b, upto) FILTER (WHERE upto > floor(pos)) AS lo, "
        "arg_min(b, upto) FILTER (WHERE upto > above) AS hi, "
        f"any_value(pos - floor(pos)) AS frac FROM r GROUP BY {group}, i) "
        f"SELECT {group}, list({lo} + frac * ({hi} - {lo}) ORDER BY i) AS quantiles "
        f"FROM p GROUP BY {group}"
    )
