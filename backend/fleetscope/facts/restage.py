"""A re-derivation's new facts, staged beside the stored ones and swapped in a few vehicles
at a time.

``Staging`` keeps what a re-derivation derives for some vehicles (facts, rollup rows, long
offline spans) in temporary tables of the store's write connection, written between the
ingest worker's batches (DuckDB spills them to disk beyond its memory limit).
``swap_vehicles`` replaces some vehicles' facts, rollups, spans, battery hours, zones,
snapshots and live statuses with their staged rows, and sums the site rollups of those
vehicles' days and hours again at the sites they belonged and belong to, in one
transaction: readers see a vehicle's old rows until the commit (DuckDB's MVCC) and its new
ones after it, never a mix, and the site rollups agree with the vehicle rollups at every
commit. Staged rollup rows of one key (a batch each) are folded by each measure's kind
when swapped in, as the writer merges a batch's rows.
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from fleetscope.facts import action_rows, battery_hours, rollup_spans
from fleetscope.facts.columns import fact_table, facts_by_type
from fleetscope.facts.model import ActionRecord, Fact, LiveStatus
from fleetscope.facts.rollup import MEASURES, RollupAccumulator
from fleetscope.facts.rows import FACT_TABLES, live_row
from fleetscope.facts.site_rollup import MEMBERS_TABLE, resum_site_rows, vehicle_moments
from fleetscope.facts.store import FactStore

STAGE_PREFIX = "restage_"
_ROLLUP_TABLES = (("rollup_daily", "day"), ("rollup_hourly", "hour_utc"))
_FOLD = {"sum": "sum({0})", "count": "sum({0})", "min": "min({0})", "max": "max({0})"}
_NAMES = ", ".join(name for name, _ in MEASURES)
_FOLDED = ", ".join(_FOLD[kind].format(name) for name, kind in MEASURES)
_OF_VEHICLES = "WHERE list_contains(?::INTEGER[], vehicle_id)"


@dataclass(frozen=True, slots=True)
class SwappedVehicle:
    """One vehicle of a swap: its site and time zone now (``zone``), its deriver's state
    after its last frame with that frame's seq (``snapshot``) and its live status, both
    None if it has no frame."""

    vehicle_id: int
    zone: tuple[int, str]
    snapshot: tuple[dict[str, Any], int] | None
    live: LiveStatus | None


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
                table, staged = fact_table(fact_type, typed), STAGE_PREFIX + FACT_TABLES[fact_type]
                if fact_type is ActionRecord:
                    action_rows.insert_table(connection, table, target=staged)
                else:
                    connection.from_arrow(table).insert_into(staged)
            for table, rows in (
                ("rollup_daily", rollups.daily_rows()),
                ("rollup_hourly", rollups.hourly_rows()),
                (rollup_spans.TABLE, rollups.spans),
            ):
                if rows:
                    with connection.appender(STAGE_PREFIX + table) as appender:
                        appender.append_rows(rows)

    def swap_vehicles(self, vehicles: Sequence[SwappedVehicle]) -> None:
        """Replace these vehicles' derived rows by their staged ones in one transaction.

        Must run between the ingest worker's batches (in its thread), so that no batch of
        these vehicles is derived from the replaced machine state meanwhile.
        """
        ids = sorted(vehicle.vehicle_id for vehicle in vehicles)
        of = [ids]
        with self._store.exclusive() as connection:
            connection.execute("BEGIN TRANSACTION")
            try:
                # Where the vehicles' rows were added to site rollups, and when, before
                # they go: those site rows are summed again without them.
                sites = {
                    int(row[0])
                    for row in connection.execute(
                        f"SELECT site_id FROM {MEMBERS_TABLE} {_OF_VEHICLES} "  # noqa: S608
                        f"UNION SELECT site_id FROM vehicle_zones {_OF_VEHICLES}",
                        [ids, ids],
                    ).fetchall()
                }
                moments = vehicle_moments(connection, vehicle_ids=ids)
                for table in (*FACT_TABLES.values(), rollup_spans.TABLE):
                    connection.execute(f"DELETE FROM {table} {_OF_VEHICLES}", of)  # noqa: S608
                    connection.execute(
                        f"INSERT INTO {table} SELECT * FROM {STAGE_PREFIX}{table} {_OF_VEHICLES}",  # noqa: S608
                        of,
                    )
                for table, key in _ROLLUP_TABLES:
                    connection.execute(f"DELETE FROM {table} {_OF_VEHICLES}", of)  # noqa: S608
                    connection.execute(
                        f"INSERT INTO {table} (vehicle_id, {key}, {_NAMES}) "  # noqa: S608 - constants
                        f"SELECT vehicle_id, {key}, {_FOLDED} FROM {STAGE_PREFIX}{table} "
                        f"{_OF_VEHICLES} GROUP BY vehicle_id, {key}",
                        of,
                    )
                connection.execute(f"DELETE FROM {battery_hours.TABLE} {_OF_VEHICLES}", of)  # noqa: S608
                battery_hours.refill_vehicles(connection, ids, cap_us=self._store.low_cap_us)
                self._replace(
                    connection, "vehicle_zones", ids, [(v.vehicle_id, *v.zone) for v in vehicles]
                )
                self._replace(
                    connection,
                    "deriver_snapshots",
                    ids,
                    [
                        (v.vehicle_id, json.dumps(v.snapshot[0]), v.snapshot[1])
                        for v in vehicles
                        if v.snapshot is not None
                    ],
                )
                self._replace(
                    connection,
                    "live_status",
                    ids,
                    [live_row(v.live) for v in vehicles if v.live is not None],
                )
                for table, new in vehicle_moments(connection, vehicle_ids=ids).items():
                    moments[table] = sorted({*moments[table], *new})
                zones = {v.zone[0] for v in vehicles}
                resum_site_rows(
                    connection, vehicle_ids=ids, sites=sorted(sites | zones), moments=moments
                )
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise

    @staticmethod
    def _replace(connection: Any, table: str, vehicle_ids: list[int], rows: list[Any]) -> None:
        connection.execute(f"DELETE FROM {table} {_OF_VEHICLES}", [vehicle_ids])  # noqa: S608
        if rows:
            with connection.appender(table) as appender:
                appender.append_rows(rows)
