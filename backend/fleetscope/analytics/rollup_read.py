"""Reading the rollups: whole site-local days from ``rollup_daily`` (T without a shift),
whole UTC hours from ``rollup_hourly``; each with the bucket of its window.

Daily rows are cut at the midnights of the zone recorded in ``vehicle_zones``; they are
used only for vehicles whose recorded zone is their site's zone now, otherwise the hours.
"""

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import duckdb

from fleetscope.analytics.measures import STATES, Measures
from fleetscope.analytics.periods import Window, midnight
from fleetscope.facts.rollup import CYCLE_BUCKET_COLUMNS

Key = tuple[int, int]  # (vehicle id, or FLEET when summed over vehicles; bucket)
FLEET = 0
VEHICLES = "(SELECT unnest(?::INTEGER[]))"

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
_HIST_SUMS = ", ".join(f"sum({column})::BIGINT" for column in CYCLE_BUCKET_COLUMNS)
# Counts as BIGINT: DuckDB sums integers into HUGEINT, which is slower to hand to Python.
_MEASURES = (
    ", ".join(f"sum({state}_s)" for state in STATES)
    + ", sum(orders_finished)::BIGINT, sum(orders_failed)::BIGINT"
    + ", sum(orders_cancelled)::BIGINT"
    + ", sum(errors_warning + errors_urgent + errors_critical + errors_fatal)::BIGINT"
    + ", sum(stop_errors)::BIGINT, sum(stop_error_s), sum(distance_m)"
    + ", sum(loads_handled)::BIGINT, sum(battery_samples)::BIGINT, sum(battery_charge_sum)"
    + ", min(battery_charge_min)"
)


def vehicle_column(by_vehicle: bool, alias: str) -> str:
    return f"{alias}.vehicle_id" if by_vehicle else str(FLEET)


def entry(result: dict[Key, Measures], key: Key) -> Measures:
    measures = result.get(key)
    if measures is None:
        measures = result[key] = Measures()
    return measures


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


def vehicles_cut_in(
    cursor: duckdb.DuckDBPyConnection, vehicle_ids: list[int], zone: ZoneInfo
) -> set[int]:
    """The vehicles whose daily rollups were cut at ``zone``'s midnights."""
    rows = cursor.execute(
        f"SELECT vehicle_id FROM vehicle_zones WHERE vehicle_id IN {VEHICLES} "  # noqa: S608 - constants only
        "AND time_zone = ?",
        [vehicle_ids, str(zone)],
    ).fetchall()
    return {int(row[0]) for row in rows}


def read_daily(
    cursor: duckdb.DuckDBPyConnection,
    *,
    vehicle_ids: list[int],
    days: Sequence[tuple[tuple[date, date], int]],
    by_vehicle: bool,
    with_cycles: bool,
    result: dict[Key, Measures],
) -> None:
    hist = f", {_HIST_SUMS}" if with_cycles else ""
    sql = (
        f"SELECT {vehicle_column(by_vehicle, 'r')}, sel.bucket, {_MEASURES}{hist} "  # noqa: S608 - constants only
        f"FROM rollup_daily r JOIN {_DAYS_OF_RANGES} sel ON r.day = sel.day "
        f"WHERE r.vehicle_id IN {VEHICLES} AND r.day >= ? AND r.day <= ? GROUP BY ALL"
    )
    parameters = [
        [span[0] for span, _ in days],
        [span[1] for span, _ in days],
        [bucket for _, bucket in days],
        vehicle_ids,
        min(span[0] for span, _ in days),
        max(span[1] for span, _ in days),
    ]
    _add_rows(cursor.execute(sql, parameters).fetchall(), result, with_cycles=with_cycles)


def read_hourly(
    cursor: duckdb.DuckDBPyConnection,
    *,
    vehicle_ids: list[int],
    ranges: Sequence[tuple[Window, int]],
    by_vehicle: bool,
    with_cycles: bool,
    result: dict[Key, Measures],
) -> None:
    hist = f", {_HIST_SUMS}" if with_cycles else ""
    sql = (
        f"SELECT {vehicle_column(by_vehicle, 'r')}, sel.bucket, {_MEASURES}{hist} "  # noqa: S608 - constants only
        f"FROM rollup_hourly r JOIN {HOURS_OF_RANGES} sel ON r.hour_utc = sel.hour_utc "
        f"WHERE r.vehicle_id IN {VEHICLES} AND r.hour_utc >= ? AND r.hour_utc < ? "
        "GROUP BY ALL"
    )
    parameters = [
        *range_parameters(ranges),
        vehicle_ids,
        min(window.start for window, _ in ranges),
        max(window.end for window, _ in ranges),
    ]
    _add_rows(cursor.execute(sql, parameters).fetchall(), result, with_cycles=with_cycles)


def _add_rows(rows: list[Any], result: dict[Key, Measures], *, with_cycles: bool) -> None:
    # Sums of NOT NULL columns over at least one row are never NULL; only the minimum is.
    state_count = len(STATES)
    for row in rows:
        rest = row[2 + state_count :]
        measures = Measures(
            states=dict(zip(STATES, row[2 : 2 + state_count], strict=True)),
            orders_finished=rest[0],
            orders_failed=rest[1],
            orders_cancelled=rest[2],
            cycle_hist=list(rest[11:]) if with_cycles else Measures().cycle_hist,
            errors=rest[3],
            stop_errors=rest[4],
            stop_error_s=rest[5],
            distance_m=rest[6],
            loads_handled=rest[7],
            battery_samples=rest[8],
            battery_charge_sum=rest[9],
            battery_charge_min=rest[10],
        )
        key = (row[0], row[1])
        existing = result.get(key)
        if existing is None:
            result[key] = measures
        else:
            existing.add(measures)
