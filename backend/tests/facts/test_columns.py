"""Facts and keys written as Arrow columns: exact times, every column in its place."""

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fleetscope.facts.action_rows import NAMED_COLUMNS
from fleetscope.facts.columns import FACT_COLUMNS, time_column
from fleetscope.facts.model import (
    ActionRecord,
    BatterySample,
    ChargeSession,
    ErrorEpisode,
    OrderOutcome,
    OrderRun,
    StateInterval,
    TrackPoint,
    VehicleState,
)
from fleetscope.facts.rawlog import FrameKind, RawFrame
from fleetscope.facts.rows import FACT_TABLES, fact_row
from fleetscope.facts.store import FactStore, StoreBatch, StoredKey

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
T0 = datetime(2026, 3, 2, 8, 0, 0, 123_457, tzinfo=UTC)


def test_times_keep_every_microsecond_from_1970_to_2106() -> None:
    rng = random.Random(5050)
    moments = [EPOCH + timedelta(microseconds=rng.randrange(2**32 * 10**6)) for _ in range(20_000)]
    moments += [EPOCH, datetime(2106, 2, 7, 6, 28, 15, 999_999, tzinfo=UTC), None]  # type: ignore[list-item]
    column = time_column(moments).to_pylist()
    assert column == moments


def test_every_fact_type_reads_back_as_written(tmp_path: Path) -> None:
    later = T0 + timedelta(seconds=90, microseconds=1)
    facts = [
        StateInterval(7, VehicleState.WORKING, T0, later),
        OrderRun(7, "T-1", "T", T0, later, OrderOutcome.FAILED, 12.5, 3, 4, 1.5, 2.5, 1),
        ActionRecord(7, "a1", "pick", "T-1", T0, None, later, "FAILED"),
        ActionRecord(7, "a2", "drop", "", T0, T0, later, "FINISHED"),
        ErrorEpisode(7, "blocked", "WARNING", "in aisle", "{}", T0, later, None, 2.0, "m", ""),
        BatterySample(7, T0, 55.5, True, None, 97.0),
        ChargeSession(7, T0, later, 20.0, 80.0, 95.0),
        TrackPoint(7, T0, 1.25, -2.5, "hall", 4.75),
    ]
    assert {type(fact) for fact in facts} == set(FACT_COLUMNS)
    with FactStore(tmp_path / "facts.duckdb") as store:
        seq = store.allocate_seq(1)
        store.write_batch(
            StoreBatch(
                zones={7: (1, "Europe/Berlin")},
                frames=[RawFrame(FrameKind.MESSAGE, seq, T0, 7, "uagv/v2/A/S/state", b"{}")],
                keys=[StoredKey(seq, (7, "state", 42, later))],
                facts=facts,
            )
        )
        assert store.find_stored([(7, "state", 42, later)]) == {(7, "state", 42, later)}
        cursor = store.cursor()
        try:
            for fact in facts:
                table = FACT_TABLES[type(fact)]
                # Actions' code and buckets are computed as they are stored (test_action_rows).
                columns = NAMED_COLUMNS if table == "actions" else "*"
                rows = cursor.execute(f"SELECT {columns} FROM {table}").fetchall()  # noqa: S608
                assert fact_row(fact) in rows, table
        finally:
            cursor.close()
