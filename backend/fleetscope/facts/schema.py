"""Schema of the DuckDB fact store as ordered migrations (see docs/facts.md for every column).

A migration is a function that takes the write connection inside a transaction. ``migrate``
applies the ones newer than ``schema_version`` and records each; never edit a released
migration, append a new one.
"""

from collections.abc import Callable
from datetime import UTC, datetime

import duckdb

from fleetscope.facts import action_rows, battery_hours, rawlog, rollup_spans
from fleetscope.facts.rollup import CYCLE_BUCKET_COLUMNS, CYCLE_BUCKET_COUNT
from fleetscope.facts.site_rollup import rebuild_site_rollups

Migration = Callable[[duckdb.DuckDBPyConnection], None]

_INITIAL_TABLES = (
    # Raw messages: compressed frames per ingested batch, plus one key row per message for
    # duplicate detection and arrival order (see facts/rawlog.py for the frame layout).
    """CREATE TABLE raw_chunks (
        chunk_id BIGINT PRIMARY KEY,
        first_seq BIGINT NOT NULL,
        last_seq BIGINT NOT NULL,
        frame_count INTEGER NOT NULL,
        received_from TIMESTAMPTZ NOT NULL,
        received_to TIMESTAMPTZ NOT NULL,
        codec VARCHAR NOT NULL,
        data BLOB NOT NULL
    )""",
    """CREATE TABLE raw_keys (
        seq BIGINT NOT NULL,
        vehicle_id INTEGER NOT NULL,
        kind VARCHAR NOT NULL,
        header_id BIGINT NOT NULL,
        sent_at TIMESTAMPTZ NOT NULL
    )""",
    """CREATE TABLE dead_letters (
        id BIGINT NOT NULL,
        received_at TIMESTAMPTZ NOT NULL,
        topic VARCHAR NOT NULL,
        payload BLOB NOT NULL,
        reason VARCHAR NOT NULL
    )""",
    # The site time zone each vehicle's rollups were cut in (copied from the app store).
    """CREATE TABLE vehicle_zones (
        vehicle_id INTEGER PRIMARY KEY,
        site_id INTEGER NOT NULL,
        time_zone VARCHAR NOT NULL
    )""",
    """CREATE TABLE state_intervals (
        vehicle_id INTEGER NOT NULL,
        state VARCHAR NOT NULL,
        start_at TIMESTAMPTZ NOT NULL,
        end_at TIMESTAMPTZ NOT NULL
    )""",
    """CREATE TABLE orders (
        vehicle_id INTEGER NOT NULL,
        order_id VARCHAR NOT NULL,
        workflow VARCHAR NOT NULL,
        start_at TIMESTAMPTZ NOT NULL,
        end_at TIMESTAMPTZ NOT NULL,
        outcome VARCHAR NOT NULL,
        distance_m DOUBLE NOT NULL,
        nodes_traversed INTEGER NOT NULL,
        nodes_total INTEGER NOT NULL,
        paused_s DOUBLE NOT NULL,
        waiting_s DOUBLE NOT NULL,
        error_count INTEGER NOT NULL
    )""",
    """CREATE TABLE actions (
        vehicle_id INTEGER NOT NULL,
        action_id VARCHAR NOT NULL,
        action_type VARCHAR NOT NULL,
        order_id VARCHAR NOT NULL,
        first_seen_at TIMESTAMPTZ NOT NULL,
        started_at TIMESTAMPTZ,
        end_at TIMESTAMPTZ NOT NULL,
        status VARCHAR NOT NULL
    )""",
    """CREATE TABLE error_episodes (
        vehicle_id INTEGER NOT NULL,
        error_type VARCHAR NOT NULL,
        level VARCHAR NOT NULL,
        description VARCHAR NOT NULL,
        references_json VARCHAR NOT NULL,
        start_at TIMESTAMPTZ NOT NULL,
        end_at TIMESTAMPTZ NOT NULL,
        x DOUBLE,
        y DOUBLE,
        map_id VARCHAR NOT NULL,
        order_id VARCHAR NOT NULL
    )""",
    """CREATE TABLE battery_samples (
        vehicle_id INTEGER NOT NULL,
        sampled_at TIMESTAMPTZ NOT NULL,
        charge DOUBLE NOT NULL,
        charging BOOLEAN NOT NULL,
        voltage DOUBLE,
        health DOUBLE
    )""",
    """CREATE TABLE charge_sessions (
        vehicle_id INTEGER NOT NULL,
        start_at TIMESTAMPTZ NOT NULL,
        end_at TIMESTAMPTZ NOT NULL,
        start_charge DOUBLE NOT NULL,
        end_charge DOUBLE NOT NULL,
        peak_before DOUBLE NOT NULL
    )""",
    """CREATE TABLE track_points (
        vehicle_id INTEGER NOT NULL,
        sampled_at TIMESTAMPTZ NOT NULL,
        x DOUBLE NOT NULL,
        y DOUBLE NOT NULL,
        map_id VARCHAR NOT NULL,
        distance_m DOUBLE NOT NULL
    )""",
    # Machine state of each vehicle's deriver, written in the transaction of the facts it made.
    """CREATE TABLE deriver_snapshots (
        vehicle_id INTEGER PRIMARY KEY,
        snapshot JSON NOT NULL,
        last_seq BIGINT NOT NULL
    )""",
    """CREATE TABLE live_status (
        vehicle_id INTEGER PRIMARY KEY,
        state VARCHAR NOT NULL,
        since TIMESTAMPTZ NOT NULL,
        last_message_at TIMESTAMPTZ,
        order_id VARCHAR NOT NULL,
        workflow VARCHAR NOT NULL,
        charge DOUBLE,
        charging BOOLEAN NOT NULL,
        active_errors JSON NOT NULL,
        x DOUBLE,
        y DOUBLE,
        map_id VARCHAR NOT NULL
    )""",
)


_COLUMN_TYPES = {
    "sum": "DOUBLE NOT NULL DEFAULT 0",
    "count": "BIGINT NOT NULL DEFAULT 0",
    "min": "DOUBLE",
    "max": "DOUBLE",
    # Version 1 only: fixed size so the buckets of any two rows line up when added.
    "hist": f"INTEGER[{CYCLE_BUCKET_COUNT}] NOT NULL",
}
_ROLLUP_KEYS = (("rollup_daily", "day DATE"), ("rollup_hourly", "hour_utc TIMESTAMPTZ"))

# The rollup measures as migration 1 created them (frozen: a released migration never
# changes); later migrations reshape the tables towards ``rollup.MEASURES``.
_MEASURES_V1: tuple[tuple[str, str], ...] = (
    *((f"{state}_s", "sum") for state in ("offline", "error", "manual", "charging")),
    *((f"{state}_s", "sum") for state in ("working", "idle")),
    ("orders_finished", "count"),
    ("orders_failed", "count"),
    ("orders_cancelled", "count"),
    ("cycle_s_sum", "sum"),
    ("cycle_s_max", "max"),
    ("cycle_hist", "hist"),
    ("errors_warning", "count"),
    ("errors_urgent", "count"),
    ("errors_critical", "count"),
    ("errors_fatal", "count"),
    ("stop_errors", "count"),
    ("stop_error_s", "sum"),
    ("distance_m", "sum"),
    ("loads_handled", "count"),
    ("battery_samples", "count"),
    ("battery_charge_sum", "sum"),
    ("battery_charge_min", "min"),
    ("charge_sessions", "count"),
    ("charged_pct", "sum"),
    ("discharged_pct", "sum"),
)
# Version 2: the histogram as one count column per bucket (``rollup.MEASURES`` today).
_MEASURES_V2: tuple[tuple[str, str], ...] = tuple(
    measure
    for name, kind in _MEASURES_V1
    for measure in (
        ((column, "count") for column in CYCLE_BUCKET_COLUMNS) if kind == "hist" else [(name, kind)]
    )
)


def _create_rollups(
    connection: duckdb.DuckDBPyConnection,
    measures: tuple[tuple[str, str], ...],
    *,
    suffix: str = "",
) -> None:
    columns = ",\n        ".join(f"{name} {_COLUMN_TYPES[kind]}" for name, kind in measures)
    for table, key in _ROLLUP_KEYS:
        connection.execute(
            f"""CREATE TABLE {table}{suffix} (
        vehicle_id INTEGER NOT NULL,
        {key} NOT NULL,
        {columns},
        PRIMARY KEY (vehicle_id, {key.split()[0]})
    )"""
        )


def _initial(connection: duckdb.DuckDBPyConnection) -> None:
    for statement in _INITIAL_TABLES:
        connection.execute(statement)
    _create_rollups(connection, _MEASURES_V1)


def _cycle_buckets_as_columns(connection: duckdb.DuckDBPyConnection) -> None:
    """Rollups: the ARRAY histogram becomes one column per bucket (copied, then swapped)."""
    _create_rollups(connection, _MEASURES_V2, suffix="_v2")
    bucket_of = {column: index for index, column in enumerate(CYCLE_BUCKET_COLUMNS)}
    values = ", ".join(
        f"cycle_hist[{bucket_of[name] + 1}]" if name in bucket_of else name
        for name, _ in _MEASURES_V2
    )
    names = ", ".join(name for name, _ in _MEASURES_V2)
    for table, key in _ROLLUP_KEYS:
        key_column = key.split()[0]
        connection.execute(
            f"INSERT INTO {table}_v2 (vehicle_id, {key_column}, {names}) "  # noqa: S608 - constants only
            f"SELECT vehicle_id, {key_column}, {values} FROM {table}"
        )
        connection.execute(f"DROP TABLE {table}")
        connection.execute(f"ALTER TABLE {table}_v2 RENAME TO {table}")


def _site_rollups(connection: duckdb.DuckDBPyConnection) -> None:
    """Rollups per site (sums over its vehicles) and their members, filled from the vehicle
    rollups already stored. The measures are one DOUBLE array in ``_MEASURES_V2`` order:
    a site has few rows, and DuckDB binds a query naming 66 columns in several milliseconds
    but reads one array column of a few hundred rows in one (measured)."""
    width = len(_MEASURES_V2)
    for table, key in (
        ("rollup_site_daily", "day DATE"),
        ("rollup_site_hourly", "hour_utc TIMESTAMPTZ"),
    ):
        connection.execute(
            f"""CREATE TABLE {table} (
        site_id INTEGER NOT NULL,
        {key} NOT NULL,
        measures DOUBLE[{width}] NOT NULL,
        PRIMARY KEY (site_id, {key.split()[0]})
    )"""
        )
    connection.execute(
        """CREATE TABLE site_rollup_members (
        site_id INTEGER NOT NULL,
        vehicle_id INTEGER NOT NULL,
        PRIMARY KEY (site_id, vehicle_id)
    )"""
    )
    rebuild_site_rollups(connection, measures=_MEASURES_V2)


def _battery_hours(connection: duckdb.DuckDBPyConnection) -> None:
    """The battery page's measures per vehicle and UTC hour, filled from the samples stored
    (a few seconds for a year of a hundred vehicles), with the default offline cap (a store
    configured otherwise applies its own with a rebuild, like its offline intervals)."""
    connection.execute(battery_hours.CREATE_TABLE)
    battery_hours.fill(connection, cap_us=battery_hours.DEFAULT_CAP_US, discharge=False)


def _offline_spans(connection: duckdb.DuckDBPyConnection) -> None:
    """Long offline intervals beside the rollups, whole (``facts/rollup_spans.py``). Empty:
    the intervals stored before were split into rollup rows, which stay valid."""
    connection.execute(rollup_spans.CREATE_TABLE)


# Dead letters stored before migration 6 keep this much of their payload (the default of
# the setting ``dead_letter_payload_bytes``; a released migration never reads settings).
_DEAD_LETTER_PAYLOAD_BYTES_V6 = 64 * 1024


def _bounded_dead_letters(connection: duckdb.DuckDBPyConnection) -> None:
    """Dead letters name their source and category and keep their payload's full size and
    SHA-256, the payload itself only up to a size; what a source sends beyond its cap per
    minute is counted in ``dead_letter_drops`` (ingest/dead_letters.py)."""
    for column, declaration, value in (
        ("source", "VARCHAR NOT NULL DEFAULT 'unknown'", "'unknown'"),
        ("category", "VARCHAR NOT NULL DEFAULT 'unknown'", "'unknown'"),
        ("payload_size", "BIGINT NOT NULL DEFAULT 0", "octet_length(payload)"),
        ("payload_sha256", "VARCHAR NOT NULL DEFAULT ''", "sha256(payload)"),
    ):
        connection.execute(f"ALTER TABLE dead_letters ADD COLUMN {column} {declaration}")
        connection.execute(f"UPDATE dead_letters SET {column} = {value}")  # noqa: S608 - constants
    connection.execute(
        "UPDATE dead_letters SET payload = payload[1:?] WHERE octet_length(payload) > ?",
        [_DEAD_LETTER_PAYLOAD_BYTES_V6, _DEAD_LETTER_PAYLOAD_BYTES_V6],
    )
    connection.execute(
        """CREATE TABLE dead_letter_drops (
        source VARCHAR NOT NULL,
        minute TIMESTAMPTZ NOT NULL,
        category VARCHAR NOT NULL,
        dropped BIGINT NOT NULL,
        PRIMARY KEY (source, minute, category)
    )"""
    )


def _battery_holds(connection: duckdb.DuckDBPyConnection) -> None:
    """Battery samples carry what the reports since the previous sample held (seconds, the
    charge integrated over them, the points it fell: the time-weighted mean charge and the
    discharge inside T), and the battery page's hourly rows the discharge. Zero for the
    samples stored before (and so in their hours): ``fleetscope rebuild`` derives them, and
    the rollups' weights of the mean charge, from the raw log."""
    for column in ("held_s", "held_charge_s", "discharged"):
        connection.execute(
            f"ALTER TABLE battery_samples ADD COLUMN {column} DOUBLE NOT NULL DEFAULT 0"
        )
    connection.execute(
        f"ALTER TABLE {battery_hours.TABLE} ADD COLUMN discharged DOUBLE NOT NULL DEFAULT 0"
    )


def _load_handling(connection: duckdb.DuckDBPyConnection) -> None:
    """Actions say whether they are load handling (VDA 5050's pick, drop, load, unload in any
    case, or one of the site's own types, as the derivation was configured); stored actions
    by VDA 5050's names, a site's own types with ``fleetscope rebuild``."""
    connection.execute(
        "ALTER TABLE actions ADD COLUMN load_handling BOOLEAN NOT NULL DEFAULT false"
    )
    connection.execute(
        "UPDATE actions SET load_handling = true "
        "WHERE lower(action_type) IN ('pick', 'drop', 'load', 'unload')"
    )


def _raw_log_segments(connection: duckdb.DuckDBPyConnection) -> None:
    """The raw log in segment tables behind the view ``raw_chunks`` (facts/rawlog.py): the
    table so far becomes the first segment as it is (a rename, no copy) and, if it holds
    chunks, new chunks go to a second one, since it may already exceed a segment's cap."""
    connection.execute(f"ALTER TABLE raw_chunks RENAME TO {rawlog.segment_table(1)}")
    row = connection.execute(f"SELECT count(*) FROM {rawlog.segment_table(1)}").fetchone()  # noqa: S608
    if row and row[0]:
        rawlog.create_segment(connection, segment=2)
    else:
        rawlog.define_view(connection)


def _coded_actions(connection: duckdb.DuckDBPyConnection) -> None:
    """Actions keep a code of their type, their status as an ENUM and the buckets of their
    run and wait (facts/action_rows.py): the table is written again, in order of end."""
    connection.execute(action_rows.TYPES_DDL)
    connection.execute(
        f"""CREATE TABLE actions_coded (
        vehicle_id INTEGER NOT NULL,
        action_id VARCHAR NOT NULL,
        action_type VARCHAR NOT NULL,
        order_id VARCHAR NOT NULL,
        first_seen_at TIMESTAMPTZ NOT NULL,
        started_at TIMESTAMPTZ,
        end_at TIMESTAMPTZ NOT NULL,
        status {action_rows.STATUS_TYPE} NOT NULL,
        load_handling BOOLEAN NOT NULL DEFAULT false,
        action_type_code INTEGER NOT NULL,
        run_bucket SMALLINT,
        wait_bucket SMALLINT
    )"""
    )
    action_rows.insert_actions(
        connection, source="(SELECT * FROM actions ORDER BY end_at)", target="actions_coded"
    )
    connection.execute("DROP TABLE actions")
    connection.execute("ALTER TABLE actions_coded RENAME TO actions")


def _translated_dead_letters(connection: duckdb.DuckDBPyConnection) -> None:
    """A dead letter keeps its reason in every language (language -> text), so that a
    superuser reads it in theirs; those stored before keep only ``reason``, in English."""
    connection.execute("ALTER TABLE dead_letters ADD COLUMN reasons MAP(VARCHAR, VARCHAR)")


def _dead_letter_ids(connection: duckdb.DuckDBPyConnection) -> None:
    """The next dead letter's id, kept: ``max(id) + 1`` would give a deleted letter's id
    (the last one, deleted by an administrator) to the next one after a restart, and the
    audit log's entry about the deleted letter would name a live one."""
    connection.execute("CREATE TABLE dead_letter_ids (next_id BIGINT NOT NULL)")
    connection.execute(
        "INSERT INTO dead_letter_ids SELECT coalesce(max(id), 0) + 1 FROM dead_letters"
    )


def _closing_battery_samples(connection: duckdb.DuckDBPyConnection) -> None:
    """A battery sample may close the reports' hold at the instant the vehicle went offline
    (derive/battery.py); the samples stored before close nothing (``fleetscope rebuild``
    derives them again from the raw log)."""
    connection.execute(
        "ALTER TABLE battery_samples ADD COLUMN closes BOOLEAN NOT NULL DEFAULT false"
    )


def _live_battery_holds(connection: duckdb.DuckDBPyConnection) -> None:
    """A vehicle's battery hold since its last sample (``LiveStatus.held_until``): an answer
    up to now counts it; the rows stored before hold none until the vehicle's next report."""
    for column in ("held_until TIMESTAMPTZ", "held_s DOUBLE", "held_charge_s DOUBLE"):
        default = "" if column.endswith("TIMESTAMPTZ") else " NOT NULL DEFAULT 0"
        connection.execute(f"ALTER TABLE live_status ADD COLUMN {column}{default}")


def _battery_hold_lows_and_falls(connection: duckdb.DuckDBPyConnection) -> None:
    """The lowest charge that held in a sample's hold (``BatterySample.held_low``: a report
    that is no sample counts for the minimum), and the lowest charge and the points the
    charge fell in a vehicle's open hold (``LiveStatus``), which an answer up to now counts.
    Samples stored before have none (``fleetscope rebuild`` derives them again); live rows
    have none until the vehicle's next report."""
    connection.execute("ALTER TABLE battery_samples ADD COLUMN held_low DOUBLE")
    connection.execute("ALTER TABLE live_status ADD COLUMN held_low DOUBLE")
    connection.execute(
        "ALTER TABLE live_status ADD COLUMN held_discharged DOUBLE NOT NULL DEFAULT 0"
    )


MIGRATIONS: tuple[Migration, ...] = (
    _initial,
    _cycle_buckets_as_columns,
    _site_rollups,
    _battery_hours,
    _offline_spans,
    _bounded_dead_letters,
    _battery_holds,
    _load_handling,
    _raw_log_segments,
    _coded_actions,
    _translated_dead_letters,
    _dead_letter_ids,
    _closing_battery_samples,
    _live_battery_holds,
    _battery_hold_lows_and_falls,
)


def current_version(connection: duckdb.DuckDBPyConnection) -> int:
    connection.execute(
        "CREATE TABLE IF NOT EXISTS schema_version "
        "(version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)"
    )
    row = connection.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(
    connection: duckdb.DuckDBPyConnection, *, migrations: tuple[Migration, ...] = MIGRATIONS
) -> int:
    """Bring the schema up to date; each migration commits with its version row. Returns it."""
    version = current_version(connection)
    if version > len(migrations):
        raise RuntimeError(
            f"fact store schema version {version} is newer than this Fleetscope "
            f"({len(migrations)}); upgrade Fleetscope"
        )
    for number, migration in enumerate(migrations[version:], start=version + 1):
        connection.execute("BEGIN TRANSACTION")
        try:
            migration(connection)
            connection.execute(
                "INSERT INTO schema_version VALUES (?, ?)", [number, datetime.now(UTC)]
            )
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    return len(migrations)
