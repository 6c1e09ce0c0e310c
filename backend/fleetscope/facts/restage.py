"""A re-derivation's new facts, staged beside the stored ones and swapped in vehicle by
vehicle.

``Staging`` keeps what a re-derivation derives for some vehicles (facts, rollup rows, long
offline spans) in temporary tables of the store's write connection, written between the
ingest worker's batches (DuckDB spills them to disk beyond its memory limit).
``swap_vehicle`` replaces one vehicle's facts, rollups, spans, battery hours, zone,
snapshot and live status with its staged rows, and sums the site rollups of that vehicle's
days and hours again at the sites it belonged and belongs to, in one transaction: readers
see the vehicle's old rows until the commit (DuckDB's MVCC) and its new ones after it,
never a mix, and the site rollups agree with the vehicle rollups at every commit. Staged
rollup rows of one key (a batch each) are folded by each measure's kind when swapped in,
as the writer merges a batch's rows.
"""

import json
from collections.abc import Callable, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from fleetscope.facts import battery_hours, rollup_spans
from fleetscope.facts.columns import fact_table, facts_by_type
from fleetscope.facts.model import Fact, LiveStatus
from fleetscope.facts.rollup import MEASURES, RollupAccumulator
from fleetscope.facts.rows import FACT_TABLES, live_row
from fleetscope.facts.site_rollup import MEMBERS_TABLE, resum_site_rows, vehicle_moments
from fleetscope.facts.store import FactStore

STAGE_PREFIX = "restage_"
_ROLLUP_TABLES = (("rollup_daily", "day"), ("rollup_hourly", "hour_utc"))
_FOLD = {"sum": "sum({0})", "count": "sum({0})", "min": "min({0})", "max": "max({0})"}
_NAMES = ", ".join(name for name, _ in MEASURES)
_FOLDED = ", ".join(_FOLD[kind].format(name) for name, kind in MEASURES)
_OF_VEHICLE = "WHERE vehicle_id = ?"


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

    def swap_vehicle(
        self,
        *,
        vehicle_id: int,
        zone: tuple[int, str],
        snapshot: tuple[dict[str, Any], int] | None,
        live: LiveStatus | None,
    ) -> None:
        """Replace one vehicle's derived rows by its staged ones in one transaction.

        ``zone``: its site and time zone now; ``snapshot``: the deriver's state after its
        last frame (``(snapshot, last seq)``) and ``live`` its live status, None if it has
        no frame. Must run between the ingest worker's batches (in its thread), so that no
        batch of this vehicle is derived from the replaced machine state meanwhile.
        """
        vehicle = [vehicle_id]
        with self._store.exclusive() as connection:
            connection.execute("BEGIN TRANSACTION")
            try:
                # Where the vehicle's rows were added to site rollups, and when, before
                # they go: those site rows are summed again without them.
                sites = {
                    int(row[0])
                    for row in connection.execute(
                        f"SELECT site_id FROM {MEMBERS_TABLE} {_OF_VEHICLE} "  # noqa: S608
                        f"UNION SELECT site_id FROM vehicle_zones {_OF_VEHICLE}",
                        [vehicle_id, vehicle_id],
                    ).fetchall()
                }
                moments = vehicle_moments(connection, vehicle_id=vehicle_id)
                for table in (*FACT_TABLES.values(), rollup_spans.TABLE):
                    connection.execute(f"DELETE FROM {table} {_OF_VEHICLE}", vehicle)  # noqa: S608
                    connection.execute(
                        f"INSERT INTO {table} SELECT * FROM {STAGE_PREFIX}{table} {_OF_VEHICLE}",  # noqa: S608
                        vehicle,
                    )
                for table, key in _ROLLUP_TABLES:
                    connection.execute(f"DELETE FROM {table} {_OF_VEHICLE}", vehicle)  # noqa: S608
                    connection.execute(
                        f"INSERT INTO {table} (vehicle_id, {key}, {_NAMES}) "  # noqa: S608 - constants
                        f"SELECT vehicle_id, {key}, {_FOLDED} FROM {STAGE_PREFIX}{table} "
                        f"{_OF_VEHICLE} GROUP BY vehicle_id, {key}",
                        vehicle,
                    )
                connection.execute(f"DELETE FROM {battery_hours.TABLE} {_OF_VEHICLE}", vehicle)  # noqa: S608
                battery_hours.refill_vehicles(connection, vehicle, cap_us=self._store.low_cap_us)
                self._replace(connection, "vehicle_zones", vehicle_id, [(vehicle_id, *zone)])
                self._replace(
                    connection,
                    "deriver_snapshots",
                    vehicle_id,
                    []
                    if snapshot is None
                    else [(vehicle_id, json.dumps(snapshot[0]), snapshot[1])],
                )
                self._replace(
                    connection, "live_status", vehicle_id, [] if live is None else [live_row(live)]
                )
                for table, new in vehicle_moments(connection, vehicle_id=vehicle_id).items():
                    moments[table] = sorted({*moments[table], *new})
                resum_site_rows(
                    connection,
                    vehicle_id=vehicle_id,
                    sites=sorted({*sites, zone[0]}),
                    moments=moments,
                )
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise

    @staticmethod
    def _replace(connection: Any, table: str, vehicle_id: int, rows: list[Any]) -> None:
        connection.execute(f"DELETE FROM {table} {_OF_VEHICLE}", [vehicle_id])  # noqa: S608
        if rows:
            with connection.appender(table) as appender:
                appender.append_rows(rows)
