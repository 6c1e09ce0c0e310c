"""The analytics questions in plain SQL on the raw facts: the baseline of ``bench_live.py``.

Each question is answered the straightforward way, by one or a few SQL statements over the
fact tables (no rollups, nothing held between calls): state seconds summed from the state
intervals clipped to the windows of T, orders and actions counted where they end, errors
where they start, cycle-time percentiles with ``quantile_cont`` over the orders of T, lists
by ``ORDER BY ... LIMIT/OFFSET``. T is given as windows (site-local days, or the night shift
of each day, clipped to now) with the previous period of equal length where the resource
shows one. Figures are fetched and dropped: only the cost is measured.
"""

from collections.abc import Callable
from functools import partial
from typing import Any

import duckdb
from bench_support import Window

Sql = Callable[[str], list[Any]]

W = "WITH w AS (SELECT unnest($p) AS p, unnest($d) AS d, unnest($ws) AS ws, unnest($we) AS we) "
SELECTED = "list_contains($v, vehicle_id)"
CYCLE = "(epoch_us(end_at) - epoch_us(start_at)) / 1e6"
STOP = "level IN ('CRITICAL', 'FATAL')"
# The rollups' cycle-time buckets: [0, 5 s), then 2^(1/4) wider each, 48 in all.
BUCKET = f"CASE WHEN {CYCLE} < 5 THEN 0 ELSE least(47, 1 + floor(4 * log2({CYCLE} / 5))) END"
PAGE = 50


def utc_day(column: str) -> str:
    """The UTC day of an instant as days since 1970: the key its window is found by."""
    return f"(epoch_us({column}) // 86400000000)"


def at(table: str, column: str, select: str, where: str = "") -> str:
    """Rows of ``table`` whose ``column`` lies in a window, grouped by period (``p``).

    A window (a site-local day, at most 25 hours, or a night shift) starts on the instant's
    UTC day or one of the two before: the three are joined by equality, then the instant is
    tested against the window (a range join over hundreds of windows takes DuckDB seconds
    to minutes, and a time zone conversion per row costs more than the query)."""
    day = utc_day(column)
    return (
        f"{W}SELECT p, {select} FROM (SELECT *, unnest([{day} - 2, {day} - 1, {day}]) AS k "  # noqa: S608 - constants
        f"FROM {table} WHERE {column} >= $lo AND {column} < $hi "
        f"AND {SELECTED} {where}) f JOIN w ON w.d = f.k AND {column} >= ws AND {column} < we "
        "GROUP BY ALL"
    )


def states(keys: str) -> str:
    """Seconds per state (and ``keys``) of the state intervals clipped to the windows."""
    days = f"unnest(range({utc_day('start_at')} - 2, {utc_day('end_at')} + 1)) AS k"
    return (
        f"{W}SELECT p, {keys} state, sum(epoch_us(least(end_at, we)) "  # noqa: S608 - constants
        f"- epoch_us(greatest(start_at, ws))) / 1e6 AS seconds FROM (SELECT *, {days} "
        f"FROM state_intervals WHERE start_at < $hi AND end_at > $lo AND {SELECTED}) f "
        "JOIN w ON w.d = f.k AND start_at < we AND end_at > ws GROUP BY ALL"
    )


def productivity(sql: Sql, *, keys: str) -> None:
    orders = (
        f"{keys} count(*) FILTER (WHERE outcome = 'finished') AS finished, count(*) AS ended, "
        f"avg({CYCLE}) FILTER (WHERE outcome = 'finished') AS mean_cycle"
    )
    errors = (
        f"{keys} count(*) AS errors, count(*) FILTER (WHERE {STOP}) AS stops, "
        f"sum({CYCLE}) FILTER (WHERE {STOP}) AS stop_seconds"
    )
    loads = "AND status = 'FINISHED' AND lower(action_type) IN ('pick', 'drop', 'load', 'unload')"
    sql(states(keys))
    sql(at("orders", "end_at", orders))
    sql(at("error_episodes", "start_at", errors))
    sql(at("track_points", "sampled_at", f"{keys} sum(distance_m) AS meters"))
    sql(at("actions", "end_at", f"{keys} count(*) AS loads", loads))


def dashboard(sql: Sql) -> None:
    productivity(sql, keys="d,")  # the tiles' sparklines: per day
    finished = "AND outcome = 'finished'"
    sql(at("orders", "end_at", f"quantile_cont({CYCLE}, 0.5) AS median_cycle", finished))


def processes(sql: Sql, *, one_workflow: bool = False) -> None:
    only = "AND workflow = $wf" if one_workflow else ""
    figures = (
        "count(*) FILTER (WHERE outcome = 'finished') AS finished, "
        "count(*) FILTER (WHERE outcome = 'failed') AS failed, "
        "count(*) FILTER (WHERE outcome = 'cancelled') AS cancelled, "
        f"quantile_cont({CYCLE}, [0.5, 0.9, 0.95]) FILTER (WHERE outcome = 'finished') AS q, "
        f"max({CYCLE}) FILTER (WHERE outcome = 'finished') AS longest, "
        f"avg({CYCLE}) FILTER (WHERE outcome = 'finished') AS mean, "
        "sum(paused_s) AS paused, sum(waiting_s) AS waiting"
    )
    if not one_workflow:
        sql(at("orders", "end_at", f"vehicle_id, {figures}", only))
    sql(at("orders", "end_at", figures, only))
    sql(at("orders", "end_at", f"{BUCKET} AS bucket, count(*)", f"AND outcome = 'finished' {only}"))


def workflows(sql: Sql, *, where: str = "") -> None:
    sql(
        at(
            "orders",
            "end_at",
            "workflow, count(*) AS orders, count(*) FILTER (WHERE outcome = 'finished') AS ok, "
            f"quantile_cont({CYCLE}, [0.5, 0.9]) FILTER (WHERE outcome = 'finished') AS q",
            where,
        )
    )


# A heatmap cell's workflows: the orders ended on a site-local Monday, 10:00-11:00.
MONDAY_TEN = "AND isodow(timezone($zone, end_at)) = 1 AND hour(timezone($zone, end_at)) = 10"


def in_t(column: str) -> str:
    """An instant in T, for the lists (the windows' days joined by equality, as in ``at``)."""
    return (
        f"{column} >= $lo AND {column} < $hi AND {SELECTED} AND EXISTS (SELECT 1 FROM w "  # noqa: S608
        f"WHERE w.d BETWEEN {utc_day(column)} - 2 AND {utc_day(column)} "
        f"AND {column} >= ws AND {column} < we)"
    )


def page(sql: Sql, *, table: str, where: str, order: str, last: bool = False) -> None:
    """A list page as ``LIMIT``/``OFFSET`` after counting the list (the last page: its offset)."""
    total = sql(f"{W}SELECT count(*) FROM {table} WHERE {where}")[0][0]  # noqa: S608 - constants
    offset = max(0, (total - 1) // PAGE * PAGE) if last else 0
    sql(f"{W}SELECT * FROM {table} WHERE {where} ORDER BY {order} LIMIT {PAGE} OFFSET {offset}")  # noqa: S608


def actions(sql: Sql) -> None:
    ran = "epoch_us(end_at) - epoch_us(started_at)"
    wait = "epoch_us(started_at) - epoch_us(first_seen_at)"
    sql(
        at(
            "actions",
            "end_at",
            "action_type, count(*) AS n, count(*) FILTER (WHERE status = 'FAILED') AS failed, "
            f"quantile_cont({ran}, [0.5, 0.9]) FILTER (WHERE status = 'FINISHED' "
            f"AND started_at IS NOT NULL) AS q, avg({wait}) AS mean_wait, "
            f"quantile_cont({wait}, 0.5) AS median_wait",
            "AND status IN ('FINISHED', 'FAILED')",
        )
    )


def failures(sql: Sql) -> None:
    sql(at("error_episodes", "start_at", f"error_type, level, count(*), sum({CYCLE})"))
    sql(
        at(
            "error_episodes",
            "start_at",
            f"vehicle_id, count(*) AS episodes, count(*) FILTER (WHERE {STOP}) AS stops, "
            f"sum({CYCLE}) FILTER (WHERE {STOP}) AS downtime",
        )
    )
    sql(states("vehicle_id,"))  # planned time: MTBF
    sql(at("orders", "end_at", "vehicle_id, count(*) AS orders"))


def failure_matrix(sql: Sql) -> None:
    worst = (
        "max(CASE level WHEN 'FATAL' THEN 4 WHEN 'CRITICAL' THEN 3 WHEN 'URGENT' THEN 2 ELSE 1 END)"
    )
    sql(
        at(
            "error_episodes",
            "start_at",
            f"error_type, vehicle_id, count(*), {worst}, min(start_at), max(start_at)",
        )
    )


def failure_map(sql: Sql) -> None:
    track = f"sampled_at >= $hi - INTERVAL 30 DAY AND sampled_at < $hi AND {SELECTED}"
    sql(
        f"WITH b AS (SELECT map_id, min(x) AS x0, min(y) AS y0, greatest(max(x) - min(x), "  # noqa: S608 - constants
        f"max(y) - min(y), 1) / 120 AS cell FROM track_points WHERE {track} GROUP BY ALL) "
        "SELECT map_id, floor((x - x0) / cell), floor((y - y0) / cell), count(*) "
        f"FROM track_points JOIN b USING (map_id) WHERE {track} GROUP BY ALL"
    )
    positioned = f"{in_t('start_at')} AND x IS NOT NULL"
    sql(
        f"{W}, b AS (SELECT map_id, min(x) AS x0, min(y) AS y0, greatest(max(x) - min(x), "  # noqa: S608 - constants
        f"max(y) - min(y), 1) / 40 AS cell FROM error_episodes WHERE {positioned} GROUP BY ALL) "
        "SELECT map_id, floor((x - x0) / cell), floor((y - y0) / cell), count(*) "
        f"FROM error_episodes JOIN b USING (map_id) WHERE {positioned} GROUP BY ALL"
    )
    sql(
        f"{W}SELECT * FROM error_episodes WHERE {positioned} "  # noqa: S608 - constants
        "QUALIFY row_number() OVER (PARTITION BY map_id ORDER BY start_at DESC) <= 2000"
    )


def statusboard(sql: Sql) -> None:
    sql(f"SELECT * FROM live_status WHERE {SELECTED}")  # noqa: S608 - constants


def battery(sql: Sql, *, combined: bool = False) -> None:
    bucket = "time_bucket(to_microseconds(((epoch_us($hi) - epoch_us($lo)) / 250)::BIGINT), "
    if combined:  # one line: 250 buckets of T, the time-weighted mean charge, mean health
        sql(
            f"{W}SELECT {bucket}sampled_at, $lo) AS b, "  # noqa: S608 - constants
            "sum(held_charge_s) / nullif(sum(held_s), 0), avg(health) "
            f"FROM battery_samples WHERE {in_t('sampled_at')} GROUP BY ALL"
        )
    else:  # the lines: 250 buckets of T per vehicle, lowest and highest charge, mean health
        sql(
            f"{W}SELECT vehicle_id, {bucket}sampled_at, $lo) AS b, "  # noqa: S608 - constants
            "min(charge), max(charge), avg(health) "
            f"FROM battery_samples WHERE {in_t('sampled_at')} GROUP BY ALL"
        )
    # Each sample holds the time and charge-seconds since the one before (the facts'
    # ``held_s``, ``held_charge_s``): time-weighted mean, and time under 20 % (capped at the
    # offline timeout), without ordering the samples.
    sql(
        at(
            "battery_samples",
            "sampled_at",
            "vehicle_id, sum(held_charge_s) / nullif(sum(held_s), 0) AS mean_charge, "
            "min(charge), arg_max(health, sampled_at), regr_slope(health, epoch(sampled_at)), "
            "sum(least(held_s, 65)) FILTER (WHERE held_charge_s < 20 * held_s) AS below_low",
        )
    )
    sql(
        at(
            "charge_sessions",
            "start_at",
            f"vehicle_id, floor(least(99, greatest(0, peak_before - start_charge)) / 10) AS depth,"
            f" count(*), avg({CYCLE}), sum(end_charge - start_charge)",
        )
    )
    sql(states("vehicle_id,"))  # charging share


NEWEST = "start_at DESC, vehicle_id"
ORDERS = f"workflow = $wf AND {in_t('end_at')}"
FAILED = f"action_type = $at AND status = 'FAILED' AND {in_t('end_at')}"
ERROR_PAGE = partial(page, table="error_episodes", where=in_t("start_at"), order=NEWEST)
SESSION_PAGE = partial(page, table="charge_sessions", where=in_t("start_at"), order=NEWEST)
# name -> (how it is answered, with the previous period)
QUESTIONS: dict[str, tuple[Callable[[Sql], None], bool]] = {
    "productivity_vehicle": (partial(productivity, keys="vehicle_id,"), True),
    "productivity_fleet": (partial(productivity, keys=""), True),
    "history_vehicle": (partial(productivity, keys="d, vehicle_id,"), False),
    "history_fleet": (partial(productivity, keys="d,"), False),
    "dashboard": (dashboard, True),
    "statusboard": (statusboard, False),
    "processes": (processes, True),
    "workflows": (workflows, True),
    "workflows_cell": (partial(workflows, where=MONDAY_TEN), True),
    "workflow_orders": (partial(page, table="orders", where=ORDERS, order=NEWEST), False),
    "workflow_histogram": (partial(processes, one_workflow=True), True),
    "actions": (actions, True),
    "action_failures": (partial(page, table="actions", where=FAILED, order="end_at DESC"), False),
    "failures": (failures, True),
    "failure_matrix": (failure_matrix, False),
    "failure_map": (failure_map, False),
    "error_history_first": (ERROR_PAGE, False),
    "error_history_last": (partial(ERROR_PAGE, last=True), False),
    "battery": (battery, True),
    "battery_fleet": (partial(battery, combined=True), True),
    "charge_sessions_first": (SESSION_PAGE, False),
    "charge_sessions_last": (partial(SESSION_PAGE, last=True), False),
}


def answer(
    connection: duckdb.DuckDBPyConnection, name: str, *, spans: list[Window], values: dict[str, Any]
) -> None:
    """Runs question ``name`` over ``spans`` (from ``windows``) and fetches every row;
    ``values``: ``v`` the vehicle ids, ``wf`` the workflow, ``at`` the action type, ``zone``
    the site's time zone."""
    bound: dict[str, Any] = {
        **values,
        "p": [w[0] for w in spans],
        "d": [w[1] for w in spans],
        "ws": [w[2] for w in spans],
        "we": [w[3] for w in spans],
        "lo": min(w[2] for w in spans),
        "hi": max(w[3] for w in spans),
    }

    def sql(text: str) -> list[Any]:
        used = {key: value for key, value in bound.items() if f"${key}" in text}
        rows: list[Any] = connection.execute(text, used).fetchall()
        return rows

    QUESTIONS[name][0](sql)
