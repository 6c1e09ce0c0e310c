"""The DuckDB fact store: one ``FactStore`` owns the only write connection of the process.

Writers hand a complete ``StoreBatch`` to ``write_batch``: raw frames, dedup keys, facts,
rollups, deriver snapshots, live statuses and dead letters land in one transaction, so a
crash never leaves facts without the machine state that produced them. Everything is
bulk-inserted with DuckDB appenders (row-by-row inserts manage about 500 rows/s).
Readers (analytics, API) take ``cursor()``: a connection of their own to the same database.
"""

import json
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

import duckdb

from fleetscope.facts import action_rows, battery_hours, dead_letters, rawlog, rollup_spans, schema
from fleetscope.facts.columns import fact_table, facts_by_type, key_table
from fleetscope.facts.dead_letters import DeadLetterCount, DeadLetterFilter
from fleetscope.facts.model import BatterySample
from fleetscope.facts.rollup import MEASURE_NAMES, RollupAccumulator
from fleetscope.facts.rollup_writer import RollupWriter, WrittenRollups
from fleetscope.facts.rows import FACT_TABLES, Row, live_row
from fleetscope.facts.site_rollup import MEMBERS_TABLE, SITE_TABLES
from fleetscope.facts.store_batch import DeadLetter, DedupKey, StoreBatch, StoredKey
from fleetscope.private_files import make_private_if_present, private_dir

DERIVED_TABLES = (
    *FACT_TABLES.values(),
    "rollup_daily",
    "rollup_hourly",
    rollup_spans.TABLE,
    battery_hours.TABLE,
    *(site_table for site_table, _, _ in SITE_TABLES),
    MEMBERS_TABLE,
    "deriver_snapshots",
)


class FactStoreLockedError(RuntimeError):
    """Another process (usually the running server) holds the fact store file."""


class FactStore:
    def __init__(
        self,
        path: Path | str,
        *,
        seq_base: int = 0,
        offline_after_s: float | None = None,
        memory_limit: str | None = None,
        threads: int | None = None,
    ) -> None:
        """``seq_base``: arrival sequence numbers start above it (disjoint partitions).
        ``offline_after_s``: the derivation's offline timeout (settings), which also caps a
        step under 20 % charge in the hourly battery rows; the derivation's default if None.
        ``memory_limit`` (a DuckDB size such as ``512MiB``) and ``threads``: DuckDB's own
        bounds for every query and write of this store; DuckDB's defaults (80 % of the RAM,
        one thread per core) if None.
        """
        self.path = Path(path)
        if str(path) != ":memory:":
            private_dir(self.path.parent)
        # Whatever the history, the process stays bounded: beyond the memory limit DuckDB
        # evicts cached blocks and spills sorts and hash tables to ``<store>.tmp`` instead.
        config: dict[str, str | bool | int | float | list[str]] = {}
        if memory_limit is not None:
            config["memory_limit"] = memory_limit
        if threads is not None:
            config["threads"] = threads
        try:
            self._connection = duckdb.connect(str(path), config=config)
        except duckdb.IOException as err:
            raise FactStoreLockedError(
                f"cannot open the fact store {path}: {err}. Is a Fleetscope server running? "
                "Stop it, or send the data to POST /v2/Ingest/vda5050 instead."
            ) from err
        if str(path) != ":memory:":
            # DuckDB creates its files by the umask (the server's is owner-only).
            make_private_if_present(self.path, self.path.with_name(self.path.name + ".wal"))
        # For the whole database: every cursor has it without a statement of its own (each
        # costs about 0.4 ms, and an answer opens one or two).
        self._connection.execute("SET GLOBAL TimeZone = 'UTC'")
        # A migration may run for seconds: no progress bar drawn into the server's output.
        self._connection.execute("SET enable_progress_bar = false")
        schema.migrate(self._connection)
        self._create_staging()
        self._write_lock = threading.Lock()
        self._compressor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fleetscope-zlib")
        self._cursor_lock = threading.Lock()
        self._seq_base = seq_base
        self._low_cap_us = (
            battery_hours.DEFAULT_CAP_US
            if offline_after_s is None
            else battery_hours.cap_us(timedelta(seconds=offline_after_s))
        )
        self._zones: dict[int, ZoneInfo] = {}
        self._segment_cap = rawlog.segment_cap(self._connection)
        self._rollups = RollupWriter()
        self._load_counters()

    def _load_counters(self) -> None:
        self._rollups.load(self._connection)
        last_seq = self._scalar("SELECT coalesce(max(last_seq), 0) FROM raw_chunks")
        self._next_seq = max(last_seq, self._seq_base) + 1
        self._next_chunk = self._scalar("SELECT coalesce(max(chunk_id), 0) + 1 FROM raw_chunks")
        # New chunks go to the newest segment until it holds the cap (``_chunk_segment``).
        self._segment = rawlog.segments(self._connection)[-1]
        self._segment_bytes = rawlog.segment_bytes(self._connection, segment=self._segment)
        self._next_dead_letter = dead_letters.next_id(self._connection)
        self._zones = {
            vehicle: ZoneInfo(zone)
            for vehicle, zone in self._connection.execute(
                "SELECT vehicle_id, time_zone FROM vehicle_zones"
            ).fetchall()
        }

    @contextmanager
    def exclusive(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The write connection for a bulk operation (``facts.merge``); counters reload after."""
        with self._write_lock:
            try:
                yield self._connection
            finally:
                self._load_counters()

    @contextmanager
    def writer(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The write connection, between batches, for work no reader sees until a later
        ``exclusive`` commits it (a re-derivation's staging tables, ``facts.restage``)."""
        with self._write_lock:
            yield self._connection

    @property
    def low_cap_us(self) -> int:
        """The cap of a step under 20 % in the hourly battery rows (``battery_hours``)."""
        return self._low_cap_us

    def close(self) -> None:
        with self._write_lock:
            self._connection.close()
        self._compressor.shutdown()

    def __enter__(self) -> "FactStore":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A connection for one reader thread; close it when done."""
        with self._cursor_lock:
            return self._connection.cursor()

    # --- writing -------------------------------------------------------------------------

    def allocate_seq(self, count: int = 1) -> int:
        """Reserve ``count`` consecutive arrival sequence numbers; returns the first."""
        with self._write_lock:
            first = self._next_seq
            self._next_seq += count
            return first

    def known_zone(self, vehicle_id: int) -> bool:
        return vehicle_id in self._zones

    def find_stored(self, keys: list[DedupKey]) -> set[DedupKey]:
        """Which of these message keys the store already holds."""
        if not keys:
            return set()
        with self._write_lock:
            connection = self._connection
            connection.execute("DELETE FROM probe_keys")
            with connection.appender("probe_keys") as appender:
                appender.append_rows(keys)
            found = connection.execute(
                "SELECT p.vehicle_id, p.kind, p.header_id, p.sent_at FROM probe_keys p "
                "JOIN raw_keys k ON k.vehicle_id = p.vehicle_id AND k.kind = p.kind "
                "AND k.header_id = p.header_id AND k.sent_at = p.sent_at"
            ).fetchall()
            connection.execute("DELETE FROM probe_keys")
        return {(int(v), str(k), int(h), t) for v, k, h, t in found}

    def latest_sent(self) -> dict[tuple[int, str], datetime]:
        """The newest header timestamp stored per vehicle and message kind."""
        with self._write_lock:
            rows = self._connection.execute(
                "SELECT vehicle_id, kind, max(sent_at) FROM raw_keys GROUP BY ALL"
            ).fetchall()
        return {(int(vehicle), str(kind)): sent for vehicle, kind, sent in rows}

    def write_batch(self, batch: StoreBatch) -> None:
        """One transaction. A failure (an exception) leaves the store and its caches as they
        were, so the pipeline may write parts of the batch again (``ingest.isolation``)."""
        if batch.is_empty():
            return
        zones = self._zones
        new_zones = {vehicle: ZoneInfo(zone) for vehicle, (_, zone) in batch.zones.items()}
        # Compression runs on the other core while this thread folds rollups and appends.
        chunk = (
            self._compressor.submit(rawlog.compress_frames, rawlog.pack_frames(batch.frames))
            if batch.frames
            else None
        )
        rollups = RollupAccumulator(
            zone_of=lambda vehicle: new_zones.get(vehicle) or zones[vehicle]
        )
        rollups.add_all(batch.facts)
        with self._write_lock:
            connection = self._connection
            counters = (self._next_chunk, self._next_dead_letter)
            segment = (self._segment, self._segment_bytes)
            self._rollups.note_sites(batch.zones)
            connection.execute("BEGIN TRANSACTION")
            try:
                written = self._write_rows(batch, rollups, chunk)
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                self._next_chunk, self._next_dead_letter = counters
                self._segment, self._segment_bytes = segment
                self._rollups.load(connection)  # the batch's sites and members did not land
                raise
            zones.update(new_zones)
            self._rollups.commit(written)

    def _write_rows(
        self, batch: StoreBatch, rollups: RollupAccumulator, chunk: Future[bytes] | None
    ) -> WrittenRollups:
        """Appends everything; returns the rollup rows written (totals), for the caches."""
        connection = self._connection
        if batch.zones:
            zone_rows = [(v, site, zone) for v, (site, zone) in batch.zones.items()]
            self._append("vehicle_zones", zone_rows, action="upsert")
        keys = batch.keys
        if keys:
            dedup = [k.key for k in keys]
            self._insert_columns(
                "raw_keys",
                key_table(
                    [k.seq for k in keys],
                    [key[0] for key in dedup],
                    [key[1] for key in dedup],
                    [key[2] for key in dedup],
                    [key[3] for key in dedup],
                ),
            )
        by_type = facts_by_type(batch.facts)
        for fact_type, facts in by_type.items():
            self._insert_columns(FACT_TABLES[fact_type], fact_table(fact_type, facts))
        samples = [s for s in by_type.get(BatterySample, ()) if isinstance(s, BatterySample)]
        battery_hours.refresh(connection, battery_hours.hours_of(samples), cap_us=self._low_cap_us)
        written = self._rollups.write(connection, rollups)
        if batch.snapshots:
            snapshot_rows = [
                (vehicle, json.dumps(snapshot), last_seq)
                for vehicle, (snapshot, last_seq) in batch.snapshots.items()
            ]
            self._replace_by_vehicle("deriver_snapshots", snapshot_rows)
        if batch.live:
            self._replace_by_vehicle("live_status", [live_row(s) for s in batch.live.values()])
        if chunk is not None:
            frames = batch.frames
            received = [frame.received_at for frame in frames]
            data = chunk.result()
            row = (
                self._next_chunk,
                frames[0].seq,
                frames[-1].seq,
                len(frames),
                min(received),
                max(received),
                rawlog.CODEC,
                data,
            )
            self._append(self._chunk_segment(len(data)), [row])
            self._next_chunk += 1
        if letters := dead_letters.unseen(connection, batch.dead_letters):
            first = self._next_dead_letter
            self._next_dead_letter += len(letters)
            dead_letters.append(connection, first_id=first, letters=letters)
            dead_letters.keep_next_id(connection, self._next_dead_letter)
        if batch.dead_letter_drops:
            dead_letters.add_drops(connection, batch.dead_letter_drops)
        return written

    def _chunk_segment(self, size: int) -> str:
        """The segment table a chunk of ``size`` bytes goes to: a new one (created in the
        batch's transaction) once the current one would exceed the cap with it."""
        if self._segment_bytes and self._segment_bytes + size > self._segment_cap:
            self._segment += 1
            self._segment_bytes = 0
            rawlog.create_segment(self._connection, segment=self._segment)
        self._segment_bytes += size
        return rawlog.segment_table(self._segment)

    def _append(
        self, table: str, rows: list[Row], *, action: Literal["insert", "upsert"] = "insert"
    ) -> None:
        with self._connection.appender(table, action=action) as appender:
            appender.append_rows(rows)

    def _insert_columns(self, table: str, data: Any) -> None:
        """Insert an Arrow table whose columns are in ``table``'s order (actions are coded)."""
        if table == "actions":
            action_rows.insert_table(self._connection, data)
        else:
            self._connection.from_arrow(data).insert_into(table)

    def _replace_by_vehicle(self, table: str, rows: list[Row]) -> None:
        """Upsert rows keyed by their first column, the vehicle: a delete and an append cost
        a fraction of DuckDB's upsert appender."""
        self._connection.execute(
            f"DELETE FROM {table} WHERE vehicle_id IN (SELECT unnest(?::INTEGER[]))",  # noqa: S608
            [[row[0] for row in rows]],
        )
        self._append(table, rows)

    def reset_derived(self) -> None:
        """Drop facts, rollups, snapshots, live statuses and zones (raw log stays): rebuild."""
        with self._write_lock:
            connection = self._connection
            connection.execute("BEGIN TRANSACTION")
            try:
                # Zones too: a rebuild cuts days in the sites' current time zones.
                for table in (*DERIVED_TABLES, "live_status", "vehicle_zones"):
                    connection.execute(f"DELETE FROM {table}")  # noqa: S608 - constant name
                connection.execute("COMMIT")
                self._zones.clear()
                self._rollups.clear()
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("CHECKPOINT")

    # --- reading -------------------------------------------------------------------------

    def load_snapshot(self, vehicle_id: int) -> dict[str, Any] | None:
        with self._write_lock:
            row = self._connection.execute(
                "SELECT snapshot FROM deriver_snapshots WHERE vehicle_id = ?", [vehicle_id]
            ).fetchone()
        if row is None:
            return None
        loaded: dict[str, Any] = json.loads(row[0])
        return loaded

    def snapshot_vehicle_ids(self) -> list[int]:
        with self._write_lock:
            rows = self._connection.execute("SELECT vehicle_id FROM deriver_snapshots").fetchall()
        return [int(row[0]) for row in rows]

    def raw_frame_count(self) -> int:
        """How many raw frames the store holds (what ``iter_raw_frames`` yields)."""
        with self.cursor() as cursor:
            row = cursor.execute("SELECT coalesce(sum(frame_count), 0) FROM raw_chunks").fetchone()
        return int(row[0]) if row is not None else 0

    def iter_raw_frames(self) -> Iterator[rawlog.RawFrame]:
        """Every raw frame in arrival order (chunk by chunk, so memory stays bounded)."""
        with self.cursor() as cursor:
            for chunk in rawlog.read_chunks(cursor, after=0, through=None):
                yield from rawlog.decode_chunk(chunk.data, codec=chunk.codec)

    def dead_letter_page(
        self,
        *,
        limit: int,
        offset: int,
        filters: DeadLetterFilter | None = None,
        language: str = "en",
    ) -> tuple[int, list[dict[str, Any]]]:
        """Matching dead letters, newest first (``facts.dead_letters.page``), and their count."""
        with self.cursor() as cursor:
            return dead_letters.page(
                cursor,
                filters=filters or DeadLetterFilter(),
                limit=limit,
                offset=offset,
                language=language,
            )

    def dead_letter_counts(
        self, *, filters: DeadLetterFilter | None = None
    ) -> list[DeadLetterCount]:
        """Kept and dropped dead letters per source and category."""
        with self.cursor() as cursor:
            return dead_letters.counts(cursor, filters=filters or DeadLetterFilter())

    def dead_letter(self, letter_id: int) -> dead_letters.StoredDeadLetter | None:
        """One dead letter with its whole stored payload, or None."""
        with self.cursor() as cursor:
            return dead_letters.one(cursor, letter_id=letter_id)

    def delete_dead_letter(self, letter_id: int) -> bool:
        """Removes one dead letter (the Administration's delete and re-ingest)."""
        with self._write_lock:
            return dead_letters.delete(self._connection, letter_id=letter_id)

    def dead_letters_kept_since(self, *, since: datetime) -> dict[tuple[str, datetime], int]:
        with self._write_lock:
            return dead_letters.kept_since(self._connection, since=since)

    def purge_dead_letters(self, *, before: datetime, limit: int) -> int:
        """Retention: removes up to ``limit`` of the dead letters received before ``before``."""
        with self._write_lock:
            return dead_letters.purge(self._connection, before=before, limit=limit)

    def table_counts(self) -> dict[str, int]:
        counts = {}
        with self.cursor() as cursor:
            for table in (*DERIVED_TABLES, "live_status", "raw_keys", "dead_letters"):
                row = cursor.execute(f"SELECT count(*) FROM {table}").fetchone()  # noqa: S608
                counts[table] = int(row[0]) if row else 0
        return counts

    def _scalar(self, sql: str) -> int:
        row = self._connection.execute(sql).fetchone()
        return int(row[0]) if row else 0

    def _create_staging(self) -> None:
        self._connection.execute(
            "CREATE TEMP TABLE probe_keys (vehicle_id INTEGER, kind VARCHAR, "
            "header_id BIGINT, sent_at TIMESTAMPTZ)"
        )


__all__ = [
    "MEASURE_NAMES",
    "DeadLetter",
    "DedupKey",
    "FactStore",
    "FactStoreLockedError",
    "StoreBatch",
    "StoredKey",
]
