"""The rollup tables' migrations: the newest schema holds exactly ``rollup.MEASURES``, and a
store of schema version 1 (histogram as an ARRAY column) keeps every value when migrated."""

from datetime import date

import duckdb

from fleetscope.facts import schema
from fleetscope.facts.rollup import CYCLE_BUCKET_COLUMNS, CYCLE_BUCKET_COUNT, MEASURE_NAMES


def _columns(connection: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [str(row[0]) for row in connection.execute(f"DESCRIBE {table}").fetchall()]


def test_the_newest_schema_has_exactly_the_measures_of_the_accumulator() -> None:
    connection = duckdb.connect()
    schema.migrate(connection)
    assert _columns(connection, "rollup_daily") == ["vehicle_id", "day", *MEASURE_NAMES]
    assert _columns(connection, "rollup_hourly") == ["vehicle_id", "hour_utc", *MEASURE_NAMES]


def test_version_1_histograms_become_bucket_columns_without_losing_a_value() -> None:
    connection = duckdb.connect()
    schema.migrate(connection, migrations=schema.MIGRATIONS[:1])
    histogram = [0] * CYCLE_BUCKET_COUNT
    histogram[3], histogram[47] = 5, 2
    connection.execute(
        "INSERT INTO rollup_daily (vehicle_id, day, orders_finished, cycle_s_sum, cycle_s_max, "
        "cycle_hist, battery_charge_min) VALUES (7, ?, 7, 900.5, 400.0, ?, 12.5)",
        [date(2026, 3, 29), histogram],
    )
    assert schema.migrate(connection) == len(schema.MIGRATIONS)
    columns = ", ".join(CYCLE_BUCKET_COLUMNS)
    row = connection.execute(
        f"SELECT vehicle_id, day, orders_finished, cycle_s_sum, cycle_s_max, battery_charge_min, "  # noqa: S608 - constants only
        f"{columns} FROM rollup_daily"
    ).fetchone()
    assert row is not None
    assert row[:6] == (7, date(2026, 3, 29), 7, 900.5, 400.0, 12.5)
    assert list(row[6:]) == histogram
    primary_keys = connection.execute(
        "SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'rollup_daily' "
        "AND constraint_type = 'PRIMARY KEY'"
    ).fetchone()
    assert primary_keys == (1,)
