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


def test_version_2_stores_get_site_rollups_summed_from_their_vehicle_rollups() -> None:
    connection = duckdb.connect()
    schema.migrate(connection, migrations=schema.MIGRATIONS[:2])
    connection.execute(
        "INSERT INTO vehicle_zones VALUES (1, 10, 'Europe/Berlin'), (2, 10, 'Europe/Berlin'), "
        "(3, 20, 'Asia/Kolkata')"
    )
    day = date(2026, 3, 29)
    for vehicle, finished, minimum in ((1, 4, 30.0), (2, 6, None), (3, 1, 80.0)):
        connection.execute(
            "INSERT INTO rollup_daily (vehicle_id, day, orders_finished, working_s, "
            "battery_charge_min) VALUES (?, ?, ?, ?, ?)",
            [vehicle, day, finished, 100.0 * vehicle, minimum],
        )
    assert schema.migrate(connection) == len(schema.MIGRATIONS)
    finished, working, lowest = (
        MEASURE_NAMES.index(name) for name in ("orders_finished", "working_s", "battery_charge_min")
    )
    rows = connection.execute(
        "SELECT site_id, day, measures FROM rollup_site_daily ORDER BY site_id"
    ).fetchall()
    assert [(site, when) for site, when, _ in rows] == [(10, day), (20, day)]
    berlin, kolkata = (measures for _, _, measures in rows)
    assert (berlin[finished], berlin[working], berlin[lowest]) == (10, 300.0, 30.0)
    assert (kolkata[finished], kolkata[working], kolkata[lowest]) == (1, 300.0, 80.0)
    members = connection.execute("SELECT * FROM site_rollup_members ORDER BY ALL").fetchall()
    assert members == [(10, 1), (10, 2), (20, 3)]
