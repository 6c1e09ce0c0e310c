"""The fact store: schema and migrations, one transaction per batch, dedup keys, raw log."""

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from fleetscope.facts import schema
from fleetscope.facts.dead_letters import DeadLetterFilter
from fleetscope.facts.model import OrderOutcome, OrderRun, StateInterval, TrackPoint, VehicleState
from fleetscope.facts.rawlog import FrameKind, RawFrame
from fleetscope.facts.store import DeadLetter, FactStore, StoreBatch, StoredKey
from fleetscope.facts.store_batch import DeadLetterCategory

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def _batch(store: FactStore, *, header_id: int = 1) -> StoreBatch:
    seq = store.allocate_seq(1)
    key = (7, "state", header_id, T0)
    return StoreBatch(
        zones={7: (1, "Europe/Berlin")},
        frames=[RawFrame(FrameKind.MESSAGE, seq, T0, 7, "uagv/v2/Acme/S1/state", b'{"a": 1}')],
        keys=[StoredKey(seq, key)],
        facts=[
            StateInterval(7, VehicleState.WORKING, T0, T0 + timedelta(minutes=30)),
            OrderRun(
                7,
                "T-1",
                "T",
                T0,
                T0 + timedelta(seconds=90),
                OrderOutcome.FINISHED,
                12.0,
                3,
                3,
                0.0,
                0.0,
                0,
            ),
            TrackPoint(7, T0, 1.0, 2.0, "hall", 4.5),
        ],
        snapshots={7: ({"state": "working"}, seq)},
    )


def test_migrations_create_schema_once_and_record_version(tmp_path: Path) -> None:
    path = tmp_path / "facts.duckdb"
    with FactStore(path) as store:
        cursor = store.cursor()
        tables = {row[0] for row in cursor.execute("SHOW TABLES").fetchall()}
        cursor.close()
    assert {
        "schema_version",
        "raw_chunks",
        "raw_keys",
        "dead_letters",
        "state_intervals",
        "orders",
        "actions",
        "error_episodes",
        "battery_samples",
        "charge_sessions",
        "track_points",
        "deriver_snapshots",
        "live_status",
        "rollup_daily",
        "rollup_hourly",
        "vehicle_zones",
    } <= tables
    with FactStore(path):  # reopening applies nothing twice
        pass
    connection = duckdb.connect(str(path))
    versions = connection.execute("SELECT version FROM schema_version ORDER BY 1").fetchall()
    assert versions == [(n,) for n in range(1, len(schema.MIGRATIONS) + 1)]
    connection.close()


def test_a_new_migration_is_applied_in_order_and_a_newer_store_is_refused() -> None:
    connection = duckdb.connect()
    schema.migrate(connection)

    def add_column(conn: duckdb.DuckDBPyConnection) -> None:
        conn.execute("ALTER TABLE orders ADD COLUMN note VARCHAR")

    newer = (*schema.MIGRATIONS, add_column)
    assert schema.migrate(connection, migrations=newer) == len(newer)
    columns = {row[0] for row in connection.execute("DESCRIBE orders").fetchall()}
    assert "note" in columns
    with pytest.raises(RuntimeError, match="newer than this Fleetscope"):
        schema.migrate(connection)


def test_a_failing_migration_leaves_the_version_unchanged() -> None:
    connection = duckdb.connect()
    schema.migrate(connection)

    def broken(conn: duckdb.DuckDBPyConnection) -> None:
        conn.execute("CREATE TABLE half_done (x INTEGER)")
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        schema.migrate(connection, migrations=(*schema.MIGRATIONS, broken))
    assert schema.current_version(connection) == len(schema.MIGRATIONS)
    tables = {row[0] for row in connection.execute("SHOW TABLES").fetchall()}
    assert "half_done" not in tables


def test_batch_lands_with_facts_keys_rollups_and_snapshot(tmp_path: Path) -> None:
    with FactStore(tmp_path / "facts.duckdb") as store:
        store.write_batch(_batch(store))
        counts = store.table_counts()
        assert counts["state_intervals"] == counts["orders"] == counts["track_points"] == 1
        assert counts["raw_keys"] == 1 and counts["deriver_snapshots"] == 1
        assert store.find_stored([(7, "state", 1, T0), (7, "state", 2, T0)]) == {
            (7, "state", 1, T0)
        }
        assert store.load_snapshot(7) == {"state": "working"}
        frames = list(store.iter_raw_frames())
        assert [(f.seq, f.topic, f.payload) for f in frames] == [
            (1, "uagv/v2/Acme/S1/state", b'{"a": 1}')
        ]
        cursor = store.cursor()
        row = cursor.execute(
            "SELECT day, working_s, orders_finished, cycle_s_sum, distance_m FROM rollup_daily"
        ).fetchone()
        cursor.close()
    assert row is not None
    assert (str(row[0]), row[1], row[2], row[3], row[4]) == ("2026-03-02", 1800.0, 1, 90.0, 4.5)


def test_a_failed_write_leaves_nothing_behind(tmp_path: Path) -> None:
    with FactStore(tmp_path / "facts.duckdb") as store:
        batch = _batch(store)
        # A frame whose vehicle id does not fit INTEGER fails the raw_keys insert mid-batch.
        batch.keys.append(StoredKey(99, (2**40, "state", 1, T0)))
        with pytest.raises(duckdb.Error):
            store.write_batch(batch)
        counts = store.table_counts()
        assert set(counts.values()) == {0}
        store.write_batch(_batch(store, header_id=2))  # the store still works afterwards
        assert store.table_counts()["orders"] == 1


def test_sequence_numbers_continue_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "facts.duckdb"
    with FactStore(path) as store:
        store.write_batch(_batch(store))
    with FactStore(path) as store:
        assert store.allocate_seq(1) == 2


def test_dead_letters_are_counted_and_paged_newest_first(tmp_path: Path) -> None:
    with FactStore(tmp_path / "facts.duckdb") as store:
        letters = [
            DeadLetter(
                received_at=T0,
                source="import",
                category=DeadLetterCategory.MESSAGE,
                topic=f"t/{i}",
                payload=b"\xff not utf-8",
                payload_size=12,
                payload_sha256="",
                reason=f"reason {i}",
                # The first as stored before reasons were kept per language: English only.
                reasons={} if i == 0 else {"en": f"reason {i}", "de": f"Grund {i}"},
            )
            for i in range(3)
        ]
        store.write_batch(StoreBatch(dead_letters=letters))
        count, items = store.dead_letter_page(limit=2, offset=0)
        german = store.dead_letter_page(limit=3, offset=0, language="de")[1]
        found = store.dead_letter_page(
            limit=3, offset=0, filters=DeadLetterFilter(reason="GRUND"), language="de"
        )
    assert count == 3
    assert [item["reason"] for item in items] == ["reason 2", "reason 1"]
    assert items[0]["payload"].endswith("not utf-8")
    assert [item["reason"] for item in german] == ["Grund 2", "Grund 1", "reason 0"]
    assert found[0] == 2
    assert [item["reason"] for item in found[1]] == ["Grund 2", "Grund 1"]


def test_reset_derived_keeps_the_raw_log(tmp_path: Path) -> None:
    with FactStore(tmp_path / "facts.duckdb") as store:
        store.write_batch(_batch(store))
        store.reset_derived()
        counts = store.table_counts()
        assert counts["orders"] == counts["rollup_daily"] == counts["deriver_snapshots"] == 0
        assert counts["raw_keys"] == 1
        assert len(list(store.iter_raw_frames())) == 1


def test_every_reader_reads_in_utc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Readers (and a reader beside one) get UTC from the store, not from a statement each,
    whatever the machine's zone (DuckDB's default)."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    with FactStore(tmp_path / "facts.duckdb") as store:
        reader = store.cursor()
        beside = reader.cursor()
        for cursor in (reader, beside):
            zone = cursor.execute("SELECT current_setting('TimeZone')").fetchall()[0][0]
            assert zone == "UTC"
            local = cursor.execute("SELECT TIMESTAMPTZ '2026-03-01 12:00:00+00'::VARCHAR")
            assert local.fetchall()[0][0] == "2026-03-01 12:00:00+00"
        beside.close()
        reader.close()
    monkeypatch.undo()
    time.tzset()
