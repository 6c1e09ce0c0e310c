"""A large fleet's facts for the analytics benchmark, generated straight into a fact store.

100 vehicles x 365 days by default (about 25 M fact rows): states, orders, pick/drop actions,
track points (where each order ends, in a 100 x 60 m hall), battery samples, error episodes
(positioned in the same hall) and charge sessions up to now, with the
hourly and daily rollups, the site rollups summed from them and the hourly battery rows,
plus an app store (one organization, one Europe/Berlin site with the default shifts, the
vehicles, and ``customer@bench.fleetscope`` / ``bench``).

The ingest path folds rollups in Python while it writes facts, which would take far longer
than the two minutes this generator may take, so facts are generated set-based inside
DuckDB (deterministic pseudo-random values from ``hash``) and the rollups computed there
with the same rules. ``verify_rollups`` then folds one whole vehicle's facts through the
fact store's own ``RollupAccumulator`` and requires every hourly rollup row to match, so
the benchmark reads rollups exactly as ingestion would have written them. Times have
millisecond resolution, as vehicles report them: durations then rarely repeat, which keeps
methods that profit from repeated values honest.

    .venv/bin/python benchmarks/generate_fleet.py --out var/bench [--vehicles 100] [--days 365]
        [--memory-limit 6GB]  (without: DuckDB's default, about 20 GB at 300 vehicles)
"""

import argparse
import math
import shutil
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import duckdb

from fleetscope.appstore.db import create_db_engine, make_session_factory, migrate_engine
from fleetscope.appstore.models import Organization, Role, Site, User, Vehicle
from fleetscope.appstore.security import hash_password
from fleetscope.appstore.shifts import default_shifts
from fleetscope.facts import action_rows, battery_hours
from fleetscope.facts.model import (
    ActionRecord,
    BatterySample,
    ChargeSession,
    ErrorEpisode,
    Fact,
    OrderOutcome,
    OrderRun,
    StateInterval,
    TrackPoint,
    VehicleState,
)
from fleetscope.facts.rollup import (
    CYCLE_BUCKET_BASE_S,
    CYCLE_BUCKET_COLUMNS,
    CYCLE_BUCKET_COUNT,
    HELD_START_SQL,
    MEASURES,
    RollupAccumulator,
)
from fleetscope.facts.site_rollup import rebuild_site_rollups
from fleetscope.facts.store import FactStore

ZONE = "Europe/Berlin"
BENCH_USER = "customer@bench.fleetscope"
BENCH_PASSWORD = "bench"

# name -> SQL producing the facts; {n} vehicles, {start}/{end} as parameters $1/$2.
_FACTS = {
    "state_intervals": """
        WITH raw AS (
            SELECT v, i, 60000 + rnd(v, i, 'd', 2340000) AS dur, rnd(v, i, 's', 100) AS pick
            FROM range(1, {n} + 1) a(v), range(0, {per_vehicle}) b(i)
        ), timed AS (
            SELECT v, pick, sum(dur) OVER (PARTITION BY v ORDER BY i) AS upto, dur FROM raw
        )
        SELECT v, CASE WHEN pick < 45 THEN 'working' WHEN pick < 75 THEN 'idle'
                       WHEN pick < 87 THEN 'charging' WHEN pick < 91 THEN 'error'
                       WHEN pick < 94 THEN 'manual' ELSE 'offline' END,
               $1 + to_seconds((upto - dur) / 1000), least($2, $1 + to_seconds(upto / 1000))
        FROM timed WHERE $1 + to_seconds((upto - dur) / 1000) < $2""",
    "orders": """
        SELECT v, 'T-' || v || '-' || k,
               ['TRANSPORT_A', 'REPLENISH', 'PICK_TO_LINE'][1 + rnd(v, k, 'w', 3)],
               $1 + to_seconds(k * 900 + rnd(v, k, 'j', 300000) / 1000),
               $1 + to_seconds(k * 900 + rnd(v, k, 'j', 300000) / 1000 + 60
                               + rnd(v, k, 'c', 840000) / 1000),
               CASE WHEN rnd(v, k, 'o', 100) < 90 THEN 'finished'
                    WHEN rnd(v, k, 'o', 100) < 96 THEN 'failed' ELSE 'cancelled' END,
               20 + rnd(v, k, 'm', 180), 4, 4,
               CASE WHEN rnd(v, k, 'p', 10) = 0 THEN rnd(v, k, 'ps', 120000) / 1000 ELSE 0 END,
               rnd(v, k, 'ws', 35000) / 1000, 0
        FROM range(1, {n} + 1) a(v), range(0, {orders}) b(k)
        WHERE $1 + to_seconds(k * 900 + 1200) < $2""",
    "actions": """
        WITH timed AS (
            SELECT *, start_at + to_seconds(rnd(vehicle_id, order_id, 'pw', 30000) / 1000)
                          AS pick_started,
                      start_at + to_seconds(rnd(vehicle_id, order_id, 'pw', 30000) / 1000 + 15
                                            + rnd(vehicle_id, order_id, 'pr', 10000) / 1000)
                          AS pick_end
            FROM orders WHERE outcome = 'finished'
        )
        SELECT vehicle_id, order_id || '-' || kind AS action_id, kind AS action_type, order_id,
               start_at AS first_seen_at,
               CASE WHEN kind = 'pick' THEN pick_started
                    ELSE pick_end + to_seconds(rnd(vehicle_id, order_id, 'dw', 5000) / 1000) END
                   AS started_at,
               CASE WHEN kind = 'pick' THEN pick_end ELSE end_at END AS end_at,
               'FINISHED' AS status, true AS load_handling
        FROM timed, (VALUES ('pick'), ('drop')) t(kind)""",
    "track_points": """
        SELECT vehicle_id, end_at, rnd(vehicle_id, order_id, 'x', 100000) / 1000.0,
               rnd(vehicle_id, order_id, 'y', 60000) / 1000.0, 'hall-1', distance_m
        FROM orders""",
    # Each sample after the first closes the previous one's hold: 600 s at its charge (also
    # the hold's lowest).
    "battery_samples": """
        SELECT v, $1 + to_seconds(k * 600), 20 + (k * 7 + v * 13) % 80, (k / 6) % 8 = 0, 48.0, 97.0,
               CASE WHEN k > 0 THEN 600.0 ELSE 0.0 END,
               CASE WHEN k > 0 THEN 600.0 * (20 + ((k - 1) * 7 + v * 13) % 80) ELSE 0.0 END,
               CASE WHEN k > 0 THEN greatest(0, ((k - 1) * 7 + v * 13) % 80 - (k * 7 + v * 13) % 80)
                    ELSE 0.0 END,
               false, CASE WHEN k > 0 THEN 20 + ((k - 1) * 7 + v * 13) % 80 END
        FROM range(1, {n} + 1) a(v), range(0, {samples}) b(k)
        WHERE $1 + to_seconds(k * 600) < $2""",
    "error_episodes": """
        SELECT v, ['laserBlocked', 'pathBlocked', 'loadMissing'][1 + rnd(v, k, 't', 3)],
               CASE WHEN rnd(v, k, 'l', 100) < 25 THEN 'FATAL'
                    WHEN rnd(v, k, 'l', 100) < 30 THEN 'CRITICAL' ELSE 'WARNING' END,
               '', '{{}}', $1 + to_seconds(k * 14400 + rnd(v, k, 'j', 7200000) / 1000),
               $1 + to_seconds(k * 14400 + rnd(v, k, 'j', 7200000) / 1000 + 30
                               + rnd(v, k, 'd', 1800000) / 1000),
               rnd(v, k, 'x', 100000) / 1000.0, rnd(v, k, 'y', 60000) / 1000.0, 'hall-1', ''
        FROM range(1, {n} + 1) a(v), range(0, {errors}) b(k)
        WHERE $1 + to_seconds(k * 14400 + 9100) < $2""",
    "charge_sessions": """
        SELECT v, $1 + to_seconds(k * 28800 + 3600), $1 + to_seconds(k * 28800 + 6600),
               25.0 + rnd(v, k, 'q', 10), 90.0, 95.0
        FROM range(1, {n} + 1) a(v), range(0, {charges}) b(k)
        WHERE $1 + to_seconds(k * 28800 + 6600) < $2""",
}

# Position of each table's time column: rows go in in time order, as ingestion appends them,
# so DuckDB's zone maps can skip row groups outside a queried period.
_TIME_COLUMN = {
    "state_intervals": 3,
    "orders": 5,
    "actions": 7,
    "track_points": 2,
    "battery_samples": 2,
    "error_episodes": 6,
    "charge_sessions": 2,
}

_HOUR = "date_trunc('hour', {0})"
_CYCLE = "epoch(end_at) - epoch(start_at)"
_BUCKET = (
    f"CASE WHEN {_CYCLE} < {CYCLE_BUCKET_BASE_S} THEN 0 ELSE least({CYCLE_BUCKET_COUNT - 1}, "
    f"1 + floor(4 * log2(({_CYCLE}) / {CYCLE_BUCKET_BASE_S}))::INTEGER) END"
)
# Contributions of each fact table to the hourly rollup: (source, {measure: expression}).
_CONTRIBUTIONS: list[tuple[str, dict[str, str]]] = [
    (
        "(SELECT vehicle_id, state, h AS hour_utc, epoch(least(end_at, h + INTERVAL 1 HOUR)) "
        "- epoch(greatest(start_at, h)) AS s FROM (SELECT *, unnest(generate_series("
        "date_trunc('hour', start_at), end_at - INTERVAL 1 MICROSECOND, INTERVAL 1 HOUR)) AS h "
        "FROM state_intervals))",
        {
            f"{state.value}_s": f"sum(s) FILTER (WHERE state = '{state.value}')"
            for state in VehicleState
        },
    ),
    (
        f"(SELECT *, {_HOUR.format('end_at')} AS hour_utc, {_BUCKET} AS bucket FROM orders)",  # noqa: S608 - constants
        {
            "orders_finished": "count(*) FILTER (WHERE outcome = 'finished')",
            "orders_failed": "count(*) FILTER (WHERE outcome = 'failed')",
            "orders_cancelled": "count(*) FILTER (WHERE outcome = 'cancelled')",
            "cycle_s_sum": f"sum({_CYCLE}) FILTER (WHERE outcome = 'finished')",
            "cycle_s_max": f"max({_CYCLE}) FILTER (WHERE outcome = 'finished')",
            **{
                column: f"count(*) FILTER (WHERE outcome = 'finished' AND bucket = {index})"
                for index, column in enumerate(CYCLE_BUCKET_COLUMNS)
            },
        },
    ),
    (
        f"(SELECT *, {_HOUR.format('start_at')} AS hour_utc FROM error_episodes)",  # noqa: S608 - constants
        {
            **{
                f"errors_{level}": f"count(*) FILTER (WHERE level = '{level.upper()}')"
                for level in ("warning", "urgent", "critical", "fatal")
            },
            "stop_errors": "count(*) FILTER (WHERE level IN ('CRITICAL', 'FATAL'))",
            "stop_error_s": f"sum({_CYCLE}) FILTER (WHERE level IN ('CRITICAL', 'FATAL'))",
        },
    ),
    (
        f"(SELECT *, {_HOUR.format('end_at')} AS hour_utc FROM actions)",  # noqa: S608 - constants
        {
            "loads_handled": "count(*) FILTER (WHERE status = 'FINISHED' AND lower(action_type) "
            "IN ('pick', 'drop', 'load', 'unload'))"
        },
    ),
    (
        f"(SELECT *, {_HOUR.format('sampled_at')} AS hour_utc FROM track_points)",  # noqa: S608 - constants
        {"distance_m": "sum(distance_m)"},
    ),
    (
        f"(SELECT *, {_HOUR.format('sampled_at')} AS hour_utc FROM battery_samples)",  # noqa: S608 - constants
        {"battery_charge_min": "min(charge)"},
    ),
    (
        # The hold counts where it starts (``facts.rollup.held_start``), in microseconds.
        f"(SELECT *, {_HOUR.format(HELD_START_SQL)} AS hour_utc FROM battery_samples "  # noqa: S608 - constants
        "WHERE held_s > 0)",
        {
            "battery_samples": "sum(round(held_s * 1000000))::BIGINT",
            "battery_charge_sum": "sum(held_charge_s)",
        },
    ),
    (
        f"(SELECT *, {_HOUR.format('start_at')} AS hour_utc FROM charge_sessions)",  # noqa: S608 - constants
        {
            "charge_sessions": "count(*)",
            "charged_pct": "sum(greatest(0, end_charge - start_charge))",
            "discharged_pct": "sum(greatest(0, peak_before - start_charge))",
        },
    ),
]


def _empty(kind: str) -> str:
    return "NULL::DOUBLE" if kind in ("min", "max") else "0"


def _fold(name: str, kind: str) -> str:
    """How contributions of one hour from several tables combine into the rollup value."""
    if kind == "min":
        return f"min({name})"
    if kind == "max":
        return f"max({name})"
    return f"sum({name})"


def hourly_rollup_sql() -> str:
    parts = []
    for source, expressions in _CONTRIBUTIONS:
        columns = ", ".join(
            f"{expressions.get(name, _empty(kind))} AS {name}" for name, kind in MEASURES
        )
        parts.append(f"SELECT vehicle_id, hour_utc, {columns} FROM {source} GROUP BY ALL")  # noqa: S608
    folded = ", ".join(_fold(name, kind) for name, kind in MEASURES)
    union = " UNION ALL ".join(parts)
    return (
        f"INSERT INTO rollup_hourly SELECT vehicle_id, hour_utc, {folded} "  # noqa: S608 - constants
        # In time order, as ingestion appends them: the zone maps then skip other periods.
        f"FROM ({union}) GROUP BY ALL ORDER BY hour_utc, vehicle_id"
    )


def daily_rollup_sql() -> str:
    """Whole-hour zone offsets (Berlin): each UTC hour lies in one local day."""
    folded = [_fold(name, kind) for name, kind in MEASURES]
    return (
        f"INSERT INTO rollup_daily SELECT vehicle_id, timezone('{ZONE}', hour_utc)::DATE, "  # noqa: S608
        f"{', '.join(folded)} FROM rollup_hourly GROUP BY ALL ORDER BY 2, 1"
    )


def _facts_of(connection: duckdb.DuckDBPyConnection, vehicle_id: int) -> list[Fact]:
    def rows(sql: str) -> list[Any]:
        return connection.execute(sql, [vehicle_id]).fetchall()

    facts: list[Fact] = []
    facts += [
        StateInterval(v, VehicleState(s), a, b)
        for v, s, a, b in rows("SELECT * FROM state_intervals WHERE vehicle_id = ?")
    ]
    facts += [
        OrderRun(r[0], r[1], r[2], r[3], r[4], OrderOutcome(r[5]), *r[6:])
        for r in rows("SELECT * FROM orders WHERE vehicle_id = ?")
    ]
    facts += [
        ActionRecord(*r)
        for r in rows(f"SELECT {action_rows.NAMED_COLUMNS} FROM actions WHERE vehicle_id = ?")  # noqa: S608
    ]
    facts += [ErrorEpisode(*r) for r in rows("SELECT * FROM error_episodes WHERE vehicle_id = ?")]
    facts += [BatterySample(*r) for r in rows("SELECT * FROM battery_samples WHERE vehicle_id = ?")]
    facts += [ChargeSession(*r) for r in rows("SELECT * FROM charge_sessions WHERE vehicle_id = ?")]
    facts += [TrackPoint(*r) for r in rows("SELECT * FROM track_points WHERE vehicle_id = ?")]
    return facts


def verify_rollups(connection: duckdb.DuckDBPyConnection, *, vehicle_id: int = 1) -> int:
    """Every hourly rollup row of one vehicle equals what the fact store's own code makes."""
    accumulator = RollupAccumulator(zone_of=lambda _: ZoneInfo(ZONE))
    accumulator.add_all(_facts_of(connection, vehicle_id))
    expected = {row[1]: row[2:] for row in accumulator.hourly_rows()}
    stored = {
        row[1]: row[2:]
        for row in connection.execute(
            "SELECT * FROM rollup_hourly WHERE vehicle_id = ?", [vehicle_id]
        ).fetchall()
    }
    if set(expected) != set(stored):
        raise AssertionError(f"hours differ: {len(expected)} expected, {len(stored)} stored")
    for hour, values in expected.items():
        for (name, _), want, got in zip(MEASURES, values, stored[hour], strict=True):
            if isinstance(want, list):
                same = list(want) == list(got)
            elif want is None or got is None:
                same = want is None and got is None
            else:
                same = math.isclose(float(want), float(got), rel_tol=1e-9, abs_tol=1e-6)
            if not same:
                raise AssertionError(f"rollup {hour} {name}: expected {want}, stored {got}")
    return len(expected)


def _app_store(folder: Path, vehicles: int) -> None:
    engine = create_db_engine(url=f"sqlite:///{folder / 'fleetscope.sqlite'}")
    migrate_engine(engine)
    with make_session_factory(engine)() as session:
        organization = Organization(name="Benchmark Logistics")
        session.add(organization)
        session.flush()
        site = Site(
            organization_id=organization.id,
            name="Big Hall",
            time_zone=ZONE,
            shifts=default_shifts(),
            workflow_rules=[],
        )
        session.add(site)
        session.flush()
        for number in range(1, vehicles + 1):
            session.add(
                Vehicle(
                    id=number,
                    site_id=site.id,
                    manufacturer="Bench",
                    serial_number=f"B-{number:03d}",
                    name=f"Vehicle {number:03d}",
                )
            )
        session.add(
            User(
                email=BENCH_USER,
                password_hash=hash_password(BENCH_PASSWORD),
                role=Role.CUSTOMER.value,
                organization_id=organization.id,
            )
        )
        session.commit()
    engine.dispose()


def generate(
    folder: Path, *, vehicles: int, days: int, now: datetime, memory_limit: str | None = None
) -> dict[str, float]:
    """``memory_limit``: DuckDB's for the generation, else its default (80 % of the RAM:
    10 GB at 100 vehicles, 20 GB at 300); below that it spills to disk and takes longer."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    timings: dict[str, float] = {}
    clock = time.perf_counter()
    _app_store(folder, vehicles)
    zone = ZoneInfo(ZONE)
    first_day = now.astimezone(zone).date() - timedelta(days=days)
    start = datetime.combine(first_day, datetime.min.time(), zone).astimezone(UTC)
    seconds = (now - start).total_seconds()
    sizes = {
        "n": vehicles,
        "per_vehicle": math.ceil(seconds / 1230) + 10,
        "orders": math.ceil(seconds / 900),
        "samples": math.ceil(seconds / 600),
        "errors": math.ceil(seconds / 14400),
        "charges": math.ceil(seconds / 28800),
    }
    FactStore(folder / "facts.duckdb").close()  # the schema, by the fact store's migrations
    config: dict[str, str | bool | int | float | list[str]] = (
        {"memory_limit": memory_limit} if memory_limit else {}
    )
    connection = duckdb.connect(str(folder / "facts.duckdb"), config=config)
    connection.execute("SET TimeZone = 'UTC'")
    # A deterministic pseudo-random integer in [0, m) for a fact's identity (a, b, c).
    connection.execute("CREATE TEMP MACRO rnd(a, b, c, m) AS (hash(a, b, c) % m)::BIGINT")
    timings["app store"] = time.perf_counter() - clock
    for table, sql in _FACTS.items():
        clock = time.perf_counter()
        # Rows in time order, as ingestion appends them: zone maps then prune time ranges.
        if table == "actions":  # coded as the fact store stores them, in order of end
            action_rows.insert_actions(connection, source=f"({sql.format(**sizes)})")
        else:
            connection.execute(
                f"INSERT INTO {table} SELECT * FROM ({sql.format(**sizes)}) "  # noqa: S608 - constants
                f"ORDER BY {_TIME_COLUMN[table]}",
                [start, now] if "$1" in sql else [],
            )
        timings[table] = time.perf_counter() - clock
    connection.execute(
        "INSERT INTO vehicle_zones SELECT v, 1, ? FROM range(1, ? + 1) a(v)", [ZONE, vehicles]
    )
    # Each vehicle's last state is still open: it lives in live_status, not in the facts.
    connection.execute(
        "INSERT INTO live_status (vehicle_id, state, since, last_message_at, order_id, "
        "workflow, charge, charging, active_errors, x, y, map_id) "
        "SELECT vehicle_id, state, start_at, ?::TIMESTAMPTZ, "
        "'', '', 60.0, state = 'charging', '[]', 1.0, 2.0, 'hall-1' FROM state_intervals "
        "QUALIFY row_number() OVER (PARTITION BY vehicle_id ORDER BY start_at DESC) = 1",
        [now - timedelta(seconds=5)],
    )
    connection.execute(
        "DELETE FROM state_intervals WHERE (vehicle_id, start_at) IN "
        "(SELECT vehicle_id, since FROM live_status)"
    )
    clock = time.perf_counter()
    connection.execute(hourly_rollup_sql())
    connection.execute(daily_rollup_sql())
    rebuild_site_rollups(connection)
    battery_hours.fill(connection, cap_us=battery_hours.DEFAULT_CAP_US)  # the store's own
    timings["rollups"] = time.perf_counter() - clock
    clock = time.perf_counter()
    timings["verified hours"] = verify_rollups(connection)
    timings["verify"] = time.perf_counter() - clock
    connection.execute("CHECKPOINT")
    connection.close()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("var/bench"))
    parser.add_argument("--vehicles", type=int, default=100)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--memory-limit", help="DuckDB's for the generation, e.g. 6GB")
    args = parser.parse_args()
    started = time.perf_counter()
    timings = generate(
        args.out,
        vehicles=args.vehicles,
        days=args.days,
        now=datetime.now(UTC),
        memory_limit=args.memory_limit,
    )
    for step, value in timings.items():
        print(f"{step:>16}: {value:8.2f}")
    with FactStore(args.out / "facts.duckdb") as store:
        for table, count in store.table_counts().items():
            print(f"{table:>18}: {count:>12,}")
    print(f"generated in {time.perf_counter() - started:.1f} s into {args.out}")


if __name__ == "__main__":
    main()
