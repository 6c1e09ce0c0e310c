"""The fact store's writing of rollups: a batch's vehicle rows, and the same rows summed per
site (``site_rollup``), merged with the stored totals in the batch's transaction.

A batch's long offline intervals go to ``rollup_offline_spans`` whole (``rollup_spans``).
``write`` runs inside the transaction and returns what it wrote; ``commit`` takes that into
the caches once the transaction committed, ``forget`` drops them when it did not.
"""

from dataclasses import dataclass, field
from typing import Any

import duckdb

from fleetscope.facts import rollup_spans
from fleetscope.facts.rollup import RollupAccumulator
from fleetscope.facts.rollup_cache import RollupCache
from fleetscope.facts.site_rollup import MEMBERS_TABLE, fold_by_site, members_of

Row = tuple[Any, ...]


@dataclass(slots=True)
class WrittenRollups:
    """Full rows written per cache, and the site members added."""

    rows: list[tuple[RollupCache, list[Row]]] = field(default_factory=list)
    members: set[tuple[int, int]] = field(default_factory=set)


def _site_cache(*, table: str, key: str, key_type: str) -> RollupCache:
    return RollupCache(
        table=table, key_column=key, key_type=key_type, owner_column="site_id", packed=True
    )


class RollupWriter:
    def __init__(self) -> None:
        self._daily = RollupCache(table="rollup_daily", key_column="day", key_type="DATE")
        self._hourly = RollupCache(
            table="rollup_hourly", key_column="hour_utc", key_type="TIMESTAMPTZ"
        )
        self._site_daily = _site_cache(table="rollup_site_daily", key="day", key_type="DATE")
        self._site_hourly = _site_cache(
            table="rollup_site_hourly", key="hour_utc", key_type="TIMESTAMPTZ"
        )
        self._sites: dict[int, int] = {}  # vehicle -> site, as in vehicle_zones
        self._members: set[tuple[int, int]] = set()  # (site, vehicle) of site_rollup_members

    def load(self, connection: duckdb.DuckDBPyConnection) -> None:
        """Start from the stored state (opening, or after another path changed the tables)."""
        self.forget()
        self._sites = {
            int(vehicle): int(site)
            for vehicle, site in connection.execute(
                "SELECT vehicle_id, site_id FROM vehicle_zones"
            ).fetchall()
        }
        self._members = {
            (int(site), int(vehicle))
            for site, vehicle in connection.execute(
                f"SELECT site_id, vehicle_id FROM {MEMBERS_TABLE}"  # noqa: S608 - constant
            ).fetchall()
        }

    def forget(self) -> None:
        for cache in (self._daily, self._hourly, self._site_daily, self._site_hourly):
            cache.forget()

    def note_sites(self, zones: dict[int, tuple[int, str]]) -> None:
        """The sites of a batch's vehicles (``StoreBatch.zones``), before its rows are folded."""
        for vehicle, (site, _) in zones.items():
            self._sites[vehicle] = site

    def clear(self) -> None:
        """The derived tables were emptied."""
        self.forget()
        self._sites.clear()
        self._members.clear()

    def write(
        self, connection: duckdb.DuckDBPyConnection, rollups: RollupAccumulator
    ) -> WrittenRollups:
        """Merge the batch's rows with the stored totals and write them (in the caller's
        transaction)."""
        written = WrittenRollups()
        sites = self._sites
        for cache, batch in (
            (self._daily, rollups.daily),
            (self._hourly, rollups.hourly),
            (self._site_daily, fold_by_site(rollups.daily, site_of=sites)),
            (self._site_hourly, fold_by_site(rollups.hourly, site_of=sites)),
        ):
            if batch:
                merged = cache.merged_rows(connection, batch)
                cache.replace(connection, merged)
                written.rows.append((cache, merged))
        if rollups.spans:
            rollup_spans.append(connection, rollups.spans)
        added = members_of([*rollups.daily, *rollups.hourly], site_of=sites) - self._members
        if added:
            with connection.appender(MEMBERS_TABLE) as appender:
                appender.append_rows(sorted(added))
            written.members = added
        return written

    def commit(self, written: WrittenRollups) -> None:
        for cache, rows in written.rows:
            cache.commit_rows(rows)
        self._members |= written.members
