"""Actions as stored: a code per type, an ENUM status, the buckets of run and wait, written
the same by every writer (a batch, the migration of an older store, a partition's merge)."""

import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb

from fleetscope.facts import schema
from fleetscope.facts.buckets import GAMMA, RELATIVE_ACCURACY, ZERO_BUCKET
from fleetscope.facts.merge import absorb_partition
from fleetscope.facts.model import ActionRecord
from fleetscope.facts.store import FactStore, StoreBatch

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
STORED = (
    "SELECT a.action_id, a.action_type, t.action_type, a.status, a.run_bucket, a.wait_bucket "
    "FROM actions a JOIN action_types t ON t.code = a.action_type_code ORDER BY a.action_id"
)


def _bucket(microseconds: int) -> int:
    """The bucket by its definition: the b with g^(b-1) < value <= g^b (0 has its own)."""
    if microseconds <= 0:
        return ZERO_BUCKET
    b = math.ceil(math.log(microseconds) / math.log(GAMMA))
    assert GAMMA ** (b - 1) < microseconds <= GAMMA**b * (1 + 1e-12)
    midpoint = 2 * GAMMA**b / (GAMMA + 1)
    assert abs(midpoint - microseconds) <= RELATIVE_ACCURACY * microseconds
    return b


def _action(
    action_id: str,
    action_type: str,
    *,
    wait_s: float | None,
    run_s: float,
    status: str,
    vehicle_id: int = 7,
) -> ActionRecord:
    started = None if wait_s is None else T0 + timedelta(seconds=wait_s)
    end = (started or T0) + timedelta(seconds=run_s)
    return ActionRecord(vehicle_id, action_id, action_type, "", T0, started, end, status)


def _batch(*actions: ActionRecord) -> StoreBatch:
    zones = {action.vehicle_id: (1, "Europe/Berlin") for action in actions}
    return StoreBatch(zones=zones, facts=list(actions))


def _rows(store: FactStore) -> list[tuple[object, ...]]:
    cursor = store.cursor()
    try:
        return cursor.execute(STORED).fetchall()
    finally:
        cursor.close()


def test_each_type_is_named_once_and_buckets_follow_their_definition(tmp_path: Path) -> None:
    with FactStore(tmp_path / "facts.duckdb") as store:
        store.write_batch(
            _batch(
                _action("a1", "pick", wait_s=14.981205, run_s=19.998889, status="FINISHED"),
                _action("a2", "drop", wait_s=0, run_s=442.015967, status="FINISHED"),
            )
        )
        store.write_batch(
            _batch(
                _action("a3", "pick", wait_s=3.000001, run_s=0.000001, status="FINISHED"),
                _action("a4", "Charge", wait_s=2.5, run_s=60, status="FAILED"),
                _action("a5", "pick", wait_s=None, run_s=1, status="FAILED"),
            )
        )
        assert _rows(store) == [
            ("a1", "pick", "pick", "FINISHED", _bucket(19_998_889), _bucket(14_981_205)),
            ("a2", "drop", "drop", "FINISHED", _bucket(442_015_967), ZERO_BUCKET),
            ("a3", "pick", "pick", "FINISHED", _bucket(1), _bucket(3_000_001)),
            # A failed action has no run; one that never ran no wait either.
            ("a4", "Charge", "Charge", "FAILED", None, _bucket(2_500_000)),
            ("a5", "pick", "pick", "FAILED", None, None),
        ]
        cursor = store.cursor()
        try:
            names = cursor.execute("SELECT action_type FROM action_types").fetchall()
        finally:
            cursor.close()
        assert sorted(names) == [("Charge",), ("drop",), ("pick",)]


def test_an_older_store_s_actions_are_coded_when_it_is_opened(tmp_path: Path) -> None:
    path = tmp_path / "facts.duckdb"
    connection = duckdb.connect(str(path))
    schema.migrate(connection, migrations=schema.MIGRATIONS[:9])  # before the codes
    # Stored out of their order of end: the migration writes them in it.
    for number, (action_type, status, end_s) in enumerate(
        (("drop", "FINISHED", 50), ("pick", "FAILED", 20), ("drop", "FINISHED", 30)), start=1
    ):
        connection.execute(
            "INSERT INTO actions VALUES (7, ?, ?, '', ?, ?, ?, ?, false)",
            [
                f"a{number}",
                action_type,
                T0,
                T0 + timedelta(seconds=5),
                T0 + timedelta(seconds=end_s),
                status,
            ],
        )
    connection.close()
    with FactStore(path) as store:
        assert _rows(store) == [
            ("a1", "drop", "drop", "FINISHED", _bucket(45_000_000), _bucket(5_000_000)),
            ("a2", "pick", "pick", "FAILED", None, _bucket(5_000_000)),
            ("a3", "drop", "drop", "FINISHED", _bucket(25_000_000), _bucket(5_000_000)),
        ]
        cursor = store.cursor()
        try:
            in_order = cursor.execute("SELECT action_id FROM actions ORDER BY rowid").fetchall()
        finally:
            cursor.close()
        assert in_order == [("a2",), ("a3",), ("a1",)]


def test_a_partition_s_actions_get_the_main_store_s_codes(tmp_path: Path) -> None:
    part = tmp_path / "part.duckdb"
    with FactStore(part, seq_base=100) as partition:  # codes pick 1, drop 2 here
        partition.write_batch(
            _batch(
                _action("p1", "pick", wait_s=1, run_s=2, status="FINISHED", vehicle_id=8),
                _action("p2", "drop", wait_s=1, run_s=3, status="FINISHED", vehicle_id=8),
            )
        )
    with FactStore(tmp_path / "main.duckdb") as store:  # drop 1 here
        store.write_batch(_batch(_action("m1", "drop", wait_s=1, run_s=4, status="FINISHED")))
        absorb_partition(store, path=part)
        assert [(row[0], row[1], row[2]) for row in _rows(store)] == [
            ("m1", "drop", "drop"),
            ("p1", "pick", "pick"),
            ("p2", "drop", "drop"),
        ]
