"""Merging partition stores: parallel bulk loading on several cores.

DuckDB allows one writing process per file, and decoding plus derivation are bound to one
core per Python process. For an initial backfill, each worker process therefore ingests a
disjoint set of vehicles into a partition file of its own (``FactStore(path, seq_base=...)``
with non-overlapping sequence ranges), and the main store absorbs the partitions with plain
SQL (``INSERT ... SELECT``), which DuckDB runs at millions of rows per second.

Partitions must not hold vehicles that already have raw messages in the main store (their
duplicates and machine state could not be reconciled); ``absorb_partition`` refuses them.
"""

from pathlib import Path

import duckdb

from fleetscope.facts import action_rows, battery_hours, dead_letters, rawlog, rollup_spans
from fleetscope.facts.rollup import merge_statements
from fleetscope.facts.rows import FACT_TABLES
from fleetscope.facts.site_rollup import rebuild_site_rollups
from fleetscope.facts.store import FactStore

# Tables copied as they are (disjoint vehicles and sequence ranges); actions get the main
# store's codes of their types.
_PLAIN = (
    *(table for table in FACT_TABLES.values() if table != "actions"),
    battery_hours.TABLE,
    rollup_spans.TABLE,
    "raw_keys",
    "deriver_snapshots",
    "live_status",
    "vehicle_zones",
)
_ALIAS = "partition_store"


class PartitionConflictError(ValueError):
    """The partition holds vehicles the main store already has raw messages for."""


def absorb_partition(store: FactStore, *, path: Path) -> int:
    """Copy everything of the partition file at ``path`` into ``store``; returns its messages."""
    with store.exclusive() as connection:
        connection.execute(f"ATTACH ? AS {_ALIAS} (READ_ONLY)", [str(path)])
        try:
            overlap = connection.execute(
                f"SELECT count(*) FROM (SELECT DISTINCT vehicle_id FROM {_ALIAS}.raw_keys) p "  # noqa: S608
                "WHERE p.vehicle_id IN (SELECT DISTINCT vehicle_id FROM raw_keys)"
            ).fetchone()
            if overlap and overlap[0]:
                raise PartitionConflictError(
                    f"{path}: {overlap[0]} vehicles already have messages in the fact store"
                )
            connection.execute("BEGIN TRANSACTION")
            try:
                messages = _copy(connection)
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        finally:
            connection.execute(f"DETACH {_ALIAS}")
    return messages


def _copy(connection: duckdb.DuckDBPyConnection) -> int:
    for table in _PLAIN:
        connection.execute(f"INSERT INTO {table} SELECT * FROM {_ALIAS}.{table}")  # noqa: S608
    action_rows.insert_actions(connection, source=f"{_ALIAS}.actions")
    _copy_raw_log(connection)
    # Dead-letter ids are local to each file: renumbered above the main store's.
    dead_letters.merge_from(connection, table=f"{_ALIAS}.dead_letters")
    # Dropped counts of the same source and minute (several "import" partitions) add up.
    connection.execute(
        f"INSERT INTO dead_letter_drops SELECT * FROM {_ALIAS}.dead_letter_drops "  # noqa: S608
        "ON CONFLICT DO UPDATE SET dropped = dropped + excluded.dropped"
    )
    for table, key in (
        ("rollup_daily", ("vehicle_id", "day")),
        ("rollup_hourly", ("vehicle_id", "hour_utc")),
    ):
        for statement in merge_statements(table, key, f"{_ALIAS}.{table}"):
            connection.execute(statement)
    # Partitions hold disjoint vehicles but may share sites: the sites' sums start over from
    # the merged vehicle rollups (seconds for a year of a hundred vehicles).
    rebuild_site_rollups(connection)
    row = connection.execute(f"SELECT count(*) FROM {_ALIAS}.raw_keys").fetchone()  # noqa: S608
    return int(row[0]) if row else 0


def _copy_raw_log(connection: duckdb.DuckDBPyConnection) -> None:
    """Each segment of the partition becomes a segment of the main store after its newest
    (so none outgrows its cap), with chunk ids renumbered above the main store's."""
    row = connection.execute("SELECT coalesce(max(chunk_id), 0) FROM raw_chunks").fetchone()
    offset = int(row[0]) if row else 0
    sources = rawlog.segments(connection, database=_ALIAS)
    if not sources:
        # A partition file of a Fleetscope before the segments: opening it migrates it.
        raise ValueError("the partition's raw log has no segments: open it once with FactStore")
    segment = rawlog.segments(connection)[-1]
    for source in sources:
        segment += 1
        rawlog.create_segment(connection, segment=segment)
        connection.execute(
            f"INSERT INTO {rawlog.segment_table(segment)} SELECT chunk_id + ?, "  # noqa: S608
            f"* EXCLUDE (chunk_id) FROM {_ALIAS}.{rawlog.segment_table(source)}",
            [offset],
        )
