"""Reading the vehicles' rollups: whole site-local days from ``rollup_daily`` (T without a
shift; only for vehicles whose days were cut in their site's zone, ``vehicle_zones``) and
whole UTC hours from ``rollup_hourly``, each row with the bucket of its window."""

import itertools
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
import numpy as np

from fleetscope.analytics.core.measure_table import COLUMNS, NARROW, MeasureTable
from fleetscope.analytics.core.periods import Window, midnight
from fleetscope.facts.rollup import CYCLE_BUCKET_COLUMNS, MEASURES

FLEET = 0

# Whole-hour ranges expanded to their hours inside DuckDB (passing a year of single hours
# as a list parameter costs more than the query), each hour with its range's bucket.
HOURS_OF_RANGES = (
    "(SELECT unnest(generate_series(lo, hi - INTERVAL 1 HOUR, INTERVAL 1 HOUR)) AS hour_utc, "
    "bucket FROM (SELECT unnest(?::TIMESTAMPTZ[]) AS lo, unnest(?::TIMESTAMPTZ[]) AS hi, "
    "unnest(?::INTEGER[]) AS bucket))"
)
_DAYS_OF_RANGES = (
    "(SELECT unnest(generate_series(lo, hi, INTERVAL 1 DAY))::DATE AS day, bucket "
    "FROM (SELECT unnest(?::DATE[]) AS lo, unnest(?::DATE[]) AS hi, "
    "unnest(?::INTEGER[]) AS bucket))"
)
# How each column of ``measure_table.COLUMNS`` combines (``facts.rollup.MEASURES``): counts
# as BIGINT (DuckDB sums integers into HUGEINT, which numpy has no type for), minimum NaN
# for none.
_KIND: dict[str, str] = dict(MEASURES)
# Up to this many spans, a daily row's bucket comes from a CASE (``_day_buckets``).
CASE_SPANS = 4
_ERRORS = " + ".join(f"errors_{level}" for level in ("warning", "urgent", "critical", "fatal"))


def _source(column: str) -> tuple[str, str]:
    return (_ERRORS, "count") if column == "errors" else (column, _KIND[column])


_MEASURE_COLUMNS = tuple(_source(column) for column in COLUMNS[:NARROW])
_HIST_COLUMNS = tuple(_source(column) for column in CYCLE_BUCKET_COLUMNS)
_COMBINED = {
    "sum": "sum({})",
    "count": "sum({})::BIGINT",
    "min": "coalesce(min({}), 'NaN'::DOUBLE)",
}
_AS_IS = {"sum": "{}", "count": "({})::BIGINT", "min": "coalesce({}, 'NaN'::DOUBLE)"}
_UNREAD = {"sum": "0::DOUBLE", "count": "0::BIGINT", "min": "'NaN'::DOUBLE"}


def _measures(*, with_cycles: bool, grouped: bool, only: frozenset[str] | None = None) -> str:
    """The select list: combined per group or row by row; columns outside ``only`` unread
    (30 night shifts' hourly read of 9 measures takes 14 ms where 17 take 18)."""
    forms = _COMBINED if grouped else _AS_IS
    columns = (*_MEASURE_COLUMNS, *(_HIST_COLUMNS if with_cycles else ()))
    return ", ".join(
        forms[kind].format(column) if only is None or name in only else _UNREAD[kind]
        for name, (column, kind) in zip(COLUMNS, columns, strict=False)
    )


def vehicle_column(by_vehicle: bool, alias: str) -> str:
    return f"{alias}.vehicle_id" if by_vehicle else str(FLEET)


def range_parameters(ranges: Sequence[tuple[Window, int]]) -> list[Any]:
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
    rest = []
    day_start, day_end = midnight(first, zone), midnight(end_day, zone)
    if window.start < day_start:
        rest.append(Window(window.start, day_start))
    if day_end < window.end:
        rest.append(Window(day_end, window.end))
    return (first, end_day - timedelta(days=1)), rest


def read_daily(
    cursor: duckdb.DuckDBPyConnection,
    *,
    vehicle_ids: list[int],
    days: Sequence[tuple[tuple[date, date], int]],
    by_vehicle: bool,
    with_cycles: bool,
    result: MeasureTable,
    only: frozenset[str] | None = None,
) -> None:
    # A vehicle's day in a bucket of its own (a history by day) is one row: no grouping,
    # which saves DuckDB a hash aggregate over thousands of one-row groups.
    grouped = not by_vehicle or any(first != last for (first, last), _ in days)
    measures = _measures(with_cycles=with_cycles, grouped=grouped, only=only)
    bucket, joined, kept, parameters = _day_buckets(days)
    sql = (
        f"SELECT {vehicle_column(by_vehicle, 'r')}, {bucket}, {measures} "  # noqa: S608 - constants only
        f"FROM rollup_daily r {joined}"
        f"WHERE list_contains(?::INTEGER[], r.vehicle_id) AND r.day >= ? AND r.day <= ?{kept}"
        + (" GROUP BY ALL" if grouped else "")
    )
    parameters += [
        vehicle_ids,
        min(span[0] for span, _ in days),
        max(span[1] for span, _ in days),
    ]
    _add_rows(cursor.execute(sql, parameters), result)


def _day_buckets(
    days: Sequence[tuple[tuple[date, date], int]],
) -> tuple[str, str, str, list[Any]]:
    """A daily row's bucket: the select expression, the join or condition keeping only the
    spans' rows, and their parameters. A few spans by a ``CASE`` (2 x 30 days of 100
    vehicles: 2.8 ms against 4.4 for the join), many (a history) by joining their days."""
    if len(days) > CASE_SPANS:
        return (
            "sel.bucket",
            f"JOIN {_DAYS_OF_RANGES} sel ON r.day = sel.day ",
            "",
            [
                [span[0] for span, _ in days],
                [span[1] for span, _ in days],
                [bucket for _, bucket in days],
            ],
        )
    spans = sorted(days)
    case = "CASE" + " WHEN r.day BETWEEN ? AND ? THEN ?" * len(spans) + " END"
    parameters: list[Any] = [value for (first, last), b in spans for value in (first, last, b)]
    gapless = all(
        later[0][0] == earlier[0][1] + timedelta(days=1)
        for earlier, later in itertools.pairwise(spans)
    )
    # Rows between two spans have no bucket: kept out unless the spans leave no gap.
    return f"{case} AS bucket", "", "" if gapless else " AND bucket IS NOT NULL", parameters


def read_hourly(
    cursor: duckdb.DuckDBPyConnection,
    *,
    vehicle_ids: list[int],
    ranges: Sequence[tuple[Window, int]],
    by_vehicle: bool,
    with_cycles: bool,
    result: MeasureTable,
    only: frozenset[str] | None = None,
) -> None:
    measures = _measures(with_cycles=with_cycles, grouped=True, only=only)
    sql = (
        f"SELECT {vehicle_column(by_vehicle, 'r')}, sel.bucket, {measures} "  # noqa: S608 - constants only
        f"FROM rollup_hourly r JOIN {HOURS_OF_RANGES} sel ON r.hour_utc = sel.hour_utc "
        "WHERE list_contains(?::INTEGER[], r.vehicle_id) AND r.hour_utc >= ? AND r.hour_utc < ? "
        "GROUP BY ALL"
    )
    parameters = [
        *range_parameters(ranges),
        vehicle_ids,
        min(window.start for window, _ in ranges),
        max(window.end for window, _ in ranges),
    ]
    _add_rows(cursor.execute(sql, parameters), result)


def _add_rows(result_set: duckdb.DuckDBPyConnection, table: MeasureTable) -> None:
    """Add a read's rows (vehicle, bucket, measures in ``COLUMNS`` order) as arrays."""
    columns = list(result_set.fetchnumpy().values())
    if len(columns[0]) == 0:
        return
    table.add_rows(
        vehicles=columns[0].tolist(),
        buckets=columns[1].tolist(),
        values=np.column_stack(columns[2:]).astype(np.float64),
    )
