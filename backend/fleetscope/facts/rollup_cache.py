"""Rollup rows merged in Python: the fact store's single writer knows what it stored.

Adding a batch's rollup rows in SQL (stage, UPDATE ... FROM, INSERT ... WHERE NOT EXISTS,
for daily and hourly rows) cost about 60 ms per batch whatever its size, most of the time
of a small batch such as a live MQTT stream's. The writer instead keeps the recently
written rows (facts arrive nearly in time order, so a batch touches the last day and hours
of each vehicle), loads the few it does not hold with one query, adds the batch's rows to
them by each measure's kind and upserts the totals. The cache holds only committed totals:
the store calls ``forget`` when a write fails or another path changes the tables.
"""

from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

import duckdb

from fleetscope.facts.rollup import MEASURES

RollupKey = tuple[int, Any]  # owner (vehicle or site id), day (date) or hour (datetime, UTC)

# Rows kept per table: a day and a few hours per vehicle of a large fleet.
_KEPT_ROWS = 8_192
# Keys further apart than this are loaded by separate range queries: one range from a
# vehicle's row of years ago to today's rows of the whole batch would read every row stored
# in between.
_NEAR = timedelta(days=2)


def _combiner(kind: str) -> Callable[[Any, Any], Any]:
    if kind == "min":
        return lambda old, new: new if old is None else old if new is None else min(old, new)
    if kind == "max":
        return lambda old, new: new if old is None else old if new is None else max(old, new)
    return lambda old, new: old + new  # sum and count


_ADDITIVE = tuple(i for i, (_, kind) in enumerate(MEASURES) if kind in ("sum", "count"))
_EXTREMES = tuple(
    (i, _combiner(kind)) for i, (_, kind) in enumerate(MEASURES) if kind in ("min", "max")
)
_COLUMNS = ", ".join(name for name, _ in MEASURES)


def add_measures(total: list[Any], values: list[Any]) -> None:
    """Add one row's measures to ``total`` in place, by each measure's kind."""
    for index in _ADDITIVE:
        total[index] += values[index]
    for index, combine in _EXTREMES:
        total[index] = combine(total[index], values[index])


class RollupCache:
    """Committed rows of one rollup table (``table``, keyed by ``owner_column, key_column``:
    a vehicle's or a site's day or hour). The measures are a column each, or with
    ``packed`` one array column ``measures`` (the site rollups)."""

    def __init__(
        self,
        *,
        table: str,
        key_column: str,
        key_type: str,
        owner_column: str = "vehicle_id",
        packed: bool = False,
    ) -> None:
        self.table = table
        self.key_column = key_column
        self.owner_column = owner_column
        self._packed = packed
        self._key_type = key_type
        self._rows: OrderedDict[RollupKey, tuple[Any, ...]] = OrderedDict()

    def forget(self) -> None:
        self._rows.clear()

    def merged_rows(
        self, connection: duckdb.DuckDBPyConnection, batch: dict[RollupKey, list[Any]]
    ) -> list[tuple[Any, ...]]:
        """Stored totals plus the batch's rows, as full table rows to upsert.

        Call ``commit_rows`` with the result once the transaction committed.
        """
        rows = self._rows
        missing = [key for key in batch if key not in rows]
        stored = self._load(connection, missing) if missing else {}
        merged: list[tuple[Any, ...]] = []
        for key, values in batch.items():
            old = rows.get(key)
            if old is None:
                old = stored.get(key)
            if old is None:
                total = values
            else:
                total = list(old)
                add_measures(total, values)
            merged.append((*key, *total))
        return merged

    def replace(self, connection: duckdb.DuckDBPyConnection, merged: list[tuple[Any, ...]]) -> None:
        """Write ``merged`` over the stored rows of their keys (in the caller's transaction).

        A delete and a plain append: DuckDB's upsert appender took about 30 ms for a few
        dozen of these 75-column rows, this a few.
        """
        connection.execute(
            f"DELETE FROM {self.table} WHERE ({self.owner_column}, {self.key_column}) IN "  # noqa: S608
            f"(SELECT unnest(?::INTEGER[]), unnest(?::{self._key_type}[]))",
            [[row[0] for row in merged], [row[1] for row in merged]],
        )
        rows = [(*row[:2], list(row[2:])) for row in merged] if self._packed else merged
        with connection.appender(self.table) as appender:
            appender.append_rows(rows)

    def commit_rows(self, merged: Iterable[tuple[Any, ...]]) -> None:
        rows = self._rows
        for row in merged:
            key = (row[0], row[1])
            rows[key] = row[2:]
            rows.move_to_end(key)
        while len(rows) > _KEPT_ROWS:
            rows.popitem(last=False)

    def _load(
        self, connection: duckdb.DuckDBPyConnection, keys: list[RollupKey]
    ) -> dict[RollupKey, tuple[Any, ...]]:
        """The stored rows of ``keys`` (absent keys have none): one range query per group
        of keys near in time (usually one)."""
        stored: dict[RollupKey, tuple[Any, ...]] = {}
        for group in _near_groups(keys):
            stored.update(self._load_range(connection, group))
        return stored

    def _load_range(
        self, connection: duckdb.DuckDBPyConnection, keys: list[RollupKey]
    ) -> dict[RollupKey, tuple[Any, ...]]:
        owners = sorted({owner for owner, _ in keys})
        moments = [moment for _, moment in keys]
        wanted = set(keys)
        owner = self.owner_column
        columns = "measures" if self._packed else _COLUMNS
        found = connection.execute(
            f"SELECT {owner}, {self.key_column}, {columns} FROM {self.table} "  # noqa: S608 - constant names
            f"WHERE {owner} IN (SELECT unnest(?::INTEGER[])) "
            f"AND {self.key_column} BETWEEN ? AND ?",
            [owners, min(moments), max(moments)],
        ).fetchall()
        stored: dict[RollupKey, tuple[Any, ...]] = {}
        for row in found:
            key = (int(row[0]), row[1])
            if key in wanted:
                stored[key] = tuple(row[2]) if self._packed else row[2:]
        return stored


def _near_groups(keys: list[RollupKey]) -> list[list[RollupKey]]:
    """``keys`` in groups whose consecutive moments (days or hours) are at most ``_NEAR``
    apart."""
    ordered = sorted(keys, key=lambda key: key[1])
    groups = [[ordered[0]]]
    for key in ordered[1:]:
        if key[1] - groups[-1][-1][1] > _NEAR:
            groups.append([key])
        else:
            groups[-1].append(key)
    return groups
