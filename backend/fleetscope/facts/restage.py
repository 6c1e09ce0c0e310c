"""A re-derivation's new facts, staged beside the stored ones and swapped in at once.

``Staging`` keeps what a re-derivation derives for some vehicles (facts, rollup rows, long
offline spans) in temporary tables of the store's write connection, written between the
ingest worker's batches (DuckDB spills them to disk beyond its memory limit). ``swap``
replaces those vehicles' facts, rollups, spans, battery hours, zones, snapshots and live
status with them, and recomputes the rollups of the sites they belong to and belonged to,
in one transaction: readers see the old rows until the commit (DuckDB's MVCC) and the new
ones after it, never a mix. Staged rollup rows of one key (a batch each) are folded by
each measure's kind when swapped in, as the writer merges a batch's rows.
"""

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from fleetscope.facts import battery_hours, rollup_spans
from fleetscope.facts.columns import fact_table, facts_by_type
from fleetscope.facts.model import Fact, LiveStatus
from fleetscope.facts.rollup import MEASURES, RollupAccumulator
from fleetscope.facts.rows import FACT_TABLES, live_row
from fleetscope.facts.site_rollup import rebuild_site_rollups
from fleetscope.facts.store import FactStore

STAGE_PREFIX = "restage_"
_ROLLUP_TABLES = (("rollup_daily", "day"), ("rollup_hourly", "hour_utc"))
_FOLD = {"sum": "sum({0})", "count": "sum({0})", "min": "min({0})", "max": "max({0})"}
_NAMES = ", ".join(name for name, _ in MEASURES)
_FOLDED = ", ".join(_FOLD[kind].format(name) for name, kind in MEASURES)
_OF_VEHICLES = "WHERE list_contains(?::INTEGER[], vehicle_id)"


class Staging:
    """The staging tables of one re-derivation at a time (one runner per store)."""

    def __init__(self, store: FactStore) -> None:
        self._store = store
        self._tables = (
            *FACT_TABLES.values(),
            *(table for table, _ in _ROLLUP_TABLES),
            rollup_spans.TABLE,
        )

    def open(self) -> None:
        """Empty staging tables (anything a previous, interrupted job left is dropped)."""
        with self._store.writer() as connection:
            for table in self._tables:
                connection.execute(
                    f"CREATE OR REPLACE TEMP TABLE {STAGE_PREFIX}{table} AS "  # noqa: S608 - constants
                    f"SELECT * FROM {table} LIMIT 0"
                )

    def close(self) -> None:
        with self._store.writer() as connection:
            for table in self._tables:
                connection.execute(f"DROP TABLE IF EXISTS temp.{STAGE_PREFIX}{table}")

    def add(self, facts: Sequence[Fact], *, zone_of: Callable[[int], ZoneInfo]) -> None:
        """Stage facts and their rollup rows (days cut in ``zone_of``'s zone)."""
        if not facts:
            return
        rollups = RollupAccumulator(zone_of=zone_of)
        rollups.add_all(facts)
        with self._store.writer() as connection:
            for fact_type, typed in facts_by_type(facts).items():
                connection.from_arrow(fact_table(fact_type, typed)).insert_into(
                    STAGE_PREFIX + FACT_TABLES[fact_type]
                )
            for table, rows in (
                ("rollup_daily", rollups.daily_rows()),
                ("rollup_hourly", rollups.hourly_rows()),
                (rollup_spans.TABLE, rollups.spans),
            ):
                if rows:
                    with connection.appender(STAGE_PREFIX + table) as appender:
                        appender.append_rows(rows)

    def swap(
        self,
        *,
        vehicle_ids: Sequence[int],
        zones: Mapping[int, tuple[int, str]],
        snapshots: Mapping[int, tuple[dict[str, Any], int]],
        live: Mapping[int, LiveStatus],
    ) -> None:
        """Replace the vehicles' derived rows by the staged ones in one transaction.

        ``zones``: each vehicle's site and time zone now; ``snapshots``: the derivers'
        state after each vehicle's last frame (``(snapshot, last seq)``); ``live``: their
        live status. Must run between the ingest worker's batches (in its thread), so that
        no batch of these vehicles is derived from the replaced machine state meanwhile.
        """
        vehicles = sorted(vehicle_ids)
        with self._store.exclusive() as connection:
            old_sites = connection.execute(
                f"SELECT DISTINCT site_id FROM vehicle_zones {_OF_VEHICLES}",  # noqa: S608
                [vehicles],
            ).fetchall()
            sites = sorted({int(row[0]) for row in old_sites} | {s for s, _ in zones.values()})
            connection.execute("BEGIN TRANSACTION")
            try:
                for table in (*FACT_TABLES.values(), rollup_spans.TABLE):
                    connection.execute(f"DELETE FROM {table} {_OF_VEHICLES}", [vehicles])  # noqa: S608
                    connection.execute(f"INSERT INTO {table} SELECT * FROM {STAGE_PREFIX}{table}")  # noqa: S608
                for table, key in _ROLLUP_TABLES:
                    connection.execute(f"DELETE FROM {table} {_OF_VEHICLES}", [vehicles])  # noqa: S608
                    connection.execute(
                        f"INSERT INTO {table} (vehicle_id, {key}, {_NAMES}) "  # noqa: S608 - constants
                        f"SELECT vehicle_id, {key}, {_FOLDED} FROM {STAGE_PREFIX}{table} "
                        f"GROUP BY vehicle_id, {key}"
                    )
                connection.execute(f"DELETE FROM {battery_hours.TABLE} {_OF_VEHICLES}", [vehicles])  # noqa: S608
                battery_hours.refill_vehicles(connection, vehicles, cap_us=self._store.low_cap_us)
                self._replace(
                    connection,
                    "vehicle_zones",
                    vehicles,
                    [(vehicle, site, zone) for vehicle, (site, zone) in zones.items()],
                )
                self._replace(
                    connection,
                    "deriver_snapshots",
                    vehicles,
                    [
                        (vehicle, json.dumps(snapshot), last_seq)
                        for vehicle, (snapshot, last_seq) in snapshots.items()
                    ],
                )
                self._replace(
                    connection, "live_status", vehicles, [live_row(s) for s in live.values()]
                )
                rebuild_site_rollups(connection, sites=sites)
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise

    @staticmethod
    def _replace(connection: Any, table: str, vehicles: list[int], rows: list[Any]) -> None:
        connection.execute(f"DELETE FROM {table} {_OF_VEHICLES}", [vehicles])  # noqa: S608
        if rows:
            with connection.appender(table) as appender:
                appender.append_rows(rows)
