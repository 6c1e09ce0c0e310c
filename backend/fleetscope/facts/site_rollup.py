"""Site rollups: the per-vehicle rollups summed over each site's vehicles, per day and hour.

A fleet's KPIs (the dashboard, a combined productivity or history) over all of a site's
vehicles then read one row per site and hour instead of one per vehicle and hour: a
hundredth of the rows for a fleet of a hundred. A row's measures are one DOUBLE array in
``rollup.MEASURES`` order (``measures``; NULL for a minimum or maximum of nothing).

They are written with the vehicle rollups (``rollup_writer``): each vehicle's rows are
added to the site the vehicle belongs to when they are written, and
``site_rollup_members`` records which vehicles a site's rows hold. A re-derivation swaps
in a few vehicles at a time and sums again only the site rows of their days and hours
(``resum_site_rows``). A reader may use them
only when its vehicles are exactly those members and none of them was ever counted at
another site (``analytics.site_rollup_read``): a vehicle that moved between sites has rows
at both, and a selection of some of a site's vehicles is not a site's total.
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import duckdb

from fleetscope.facts.rollup import MEASURES
from fleetscope.facts.rollup_cache import RollupKey, add_measures

MEMBERS_TABLE = "site_rollup_members"
# (site table, the vehicle table it sums, key column): days cut at the site's midnights,
# hours in UTC, as the vehicle rollups they come from.
SITE_TABLES = (
    ("rollup_site_daily", "rollup_daily", "day"),
    ("rollup_site_hourly", "rollup_hourly", "hour_utc"),
)
_KEY_TYPES = {"day": "DATE", "hour_utc": "TIMESTAMPTZ"}
_FOLD = {"sum": "sum({})", "count": "sum({})", "min": "min({})", "max": "max({})"}


def fold_by_site(
    rows: Mapping[RollupKey, list[Any]], *, site_of: Mapping[int, int]
) -> dict[RollupKey, list[Any]]:
    """A batch's vehicle rows (``(vehicle, moment) -> measures``) summed per site."""
    sites: dict[RollupKey, list[Any]] = {}
    for (vehicle, moment), values in rows.items():
        key = (site_of[vehicle], moment)
        total = sites.get(key)
        if total is None:
            sites[key] = list(values)
        else:
            add_measures(total, values)
    return sites


def members_of(rows: Iterable[RollupKey], *, site_of: Mapping[int, int]) -> set[tuple[int, int]]:
    """The (site, vehicle) pairs that rows of these vehicles add to."""
    return {(site_of[vehicle], vehicle) for vehicle, _ in rows}


def rebuild_site_rollups(
    connection: duckdb.DuckDBPyConnection,
    *,
    measures: Sequence[tuple[str, str]] = MEASURES,
    sites: Sequence[int] | None = None,
) -> None:
    """Recompute every site rollup and the members from the vehicle rollups and the sites
    in ``vehicle_zones`` (in the caller's transaction): for a store whose vehicle rollups
    were written without them (a migration, the benchmark's bulk generator, partitions
    merged). ``sites``: only these sites' rows (a re-derivation of some vehicles)."""
    packed = ", ".join(_FOLD[kind].format(name) for name, kind in measures)
    only, parameters = "", []
    if sites is not None:
        only, parameters = " WHERE list_contains(?::INTEGER[], site_id)", [list(sites)]
    connection.execute(f"DELETE FROM {MEMBERS_TABLE}{only}", parameters)  # noqa: S608 - constants
    for site_table, vehicle_table, key in SITE_TABLES:
        connection.execute(f"DELETE FROM {site_table}{only}", parameters)  # noqa: S608 - constants
        connection.execute(
            f"INSERT INTO {site_table} SELECT z.site_id, r.{key}, "  # noqa: S608 - constants
            f"[{packed}]::DOUBLE[{len(measures)}] FROM {vehicle_table} r "
            f"JOIN vehicle_zones z USING (vehicle_id){only.replace('site_id', 'z.site_id')} "
            "GROUP BY ALL",
            parameters,
        )
        connection.execute(
            f"INSERT OR IGNORE INTO {MEMBERS_TABLE} "  # noqa: S608 - constants
            f"SELECT DISTINCT z.site_id, r.vehicle_id FROM {vehicle_table} r "
            f"JOIN vehicle_zones z USING (vehicle_id){only.replace('site_id', 'z.site_id')}",
            parameters,
        )


def vehicle_moments(
    connection: duckdb.DuckDBPyConnection, *, vehicle_ids: Sequence[int]
) -> dict[str, list[Any]]:
    """The days and hours these vehicles' rollup rows hold, per site table."""
    return {
        site_table: [
            row[0]
            for row in connection.execute(
                f"SELECT DISTINCT {key} FROM {vehicle_table} "  # noqa: S608 - constants
                "WHERE list_contains(?::INTEGER[], vehicle_id)",
                [list(vehicle_ids)],
            ).fetchall()
        ]
        for site_table, vehicle_table, key in SITE_TABLES
    }


def resum_site_rows(
    connection: duckdb.DuckDBPyConnection,
    *,
    vehicle_ids: Sequence[int],
    sites: Sequence[int],
    moments: Mapping[str, Sequence[Any]],
    measures: Sequence[tuple[str, str]] = MEASURES,
) -> None:
    """After some vehicles' rollup rows and zones were replaced (in the caller's
    transaction): the rows of ``sites`` at ``moments`` (per site table: the days and hours
    the vehicles held before and hold now) summed again from the vehicle rollups of each
    site's vehicles, as ``rebuild_site_rollups`` sums them, and each vehicle a member of its
    site only. A minimum or maximum cannot be taken back, so the rows are summed again
    rather than adjusted by the difference; every other site row stays."""
    packed = ", ".join(_FOLD[kind].format(name) for name, kind in measures)
    for site_table, vehicle_table, key in SITE_TABLES:
        wanted = sorted(set(moments.get(site_table, ())))
        if not wanted or not sites:
            continue
        cast = _KEY_TYPES[key]
        connection.execute(
            f"DELETE FROM {site_table} WHERE list_contains(?::INTEGER[], site_id) "  # noqa: S608 - constants
            f"AND {key} IN (SELECT unnest(?::{cast}[]))",
            [list(sites), wanted],
        )
        # The range lets DuckDB skip the row groups of other times (rows arrive in time order).
        connection.execute(
            f"INSERT INTO {site_table} SELECT z.site_id, r.{key}, "  # noqa: S608 - constants
            f"[{packed}]::DOUBLE[{len(measures)}] FROM {vehicle_table} r "
            "JOIN vehicle_zones z USING (vehicle_id) "
            f"WHERE list_contains(?::INTEGER[], z.site_id) AND r.{key} BETWEEN ? AND ? "
            f"AND r.{key} IN (SELECT unnest(?::{cast}[])) GROUP BY ALL",
            [list(sites), wanted[0], wanted[-1], wanted],
        )
    vehicles = list(vehicle_ids)
    connection.execute(
        f"DELETE FROM {MEMBERS_TABLE} WHERE list_contains(?::INTEGER[], vehicle_id)",  # noqa: S608
        [vehicles],
    )
    connection.execute(
        f"INSERT INTO {MEMBERS_TABLE} SELECT z.site_id, z.vehicle_id FROM vehicle_zones z "  # noqa: S608 - constants
        "WHERE list_contains($1::INTEGER[], z.vehicle_id) AND ("
        "z.vehicle_id IN (SELECT vehicle_id FROM rollup_daily "
        "WHERE list_contains($1::INTEGER[], vehicle_id)) "
        "OR z.vehicle_id IN (SELECT vehicle_id FROM rollup_hourly "
        "WHERE list_contains($1::INTEGER[], vehicle_id)))",
        [vehicles],
    )
