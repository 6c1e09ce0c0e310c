"""What one fact table holds, kept in memory as readers see it.

The store only appends facts between its rebuilds and merges, which change its
``generation``. So a structure built from a table's rows describes one snapshot, named by
the table's row count: a reader whose snapshot holds more rows brings it up to date from
the rows after the last ``rowid`` read; one whose snapshot holds fewer reads SQL; a new
generation starts over. ``Followed`` keeps that bookkeeping; its subclass says how newer
rows change the structure (``follow``): the rows themselves (``appended_rows``), a grid of
hourly rows they touched (``hour_grid``).
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

import duckdb

from fleetscope.analytics.snapshot import count_rows
from fleetscope.facts.store import FactStore

T = TypeVar("T")


class Followed(Generic[T]):
    """A structure of ``table``'s rows in the served fact store (module text)."""

    def __init__(self, store: FactStore, table: str) -> None:
        self._store = store
        self._table = table
        self._lock = threading.Lock()
        self._held: T | None = None
        self._rows = 0  # the table's rows in the snapshot held
        self._next_rowid = 0  # above the rowid of each of them
        self._generation = -1

    @contextmanager
    def current(self, cursor: duckdb.DuckDBPyConnection) -> Iterator[T | None]:
        """The structure of the cursor's snapshot (None: SQL), held for the ``with`` block
        (an update may change it in place)."""
        with self._lock:
            yield self._current(cursor)

    def _current(self, cursor: duckdb.DuckDBPyConnection) -> T | None:
        generation = self._store.generation
        rows = count_rows(cursor, self._table)  # from the metadata: max(rowid) would scan
        if generation % 2 or generation != self._store.generation:
            return None  # a rebuild or merge under way
        if generation != self._generation:
            self._held, self._rows, self._next_rowid = None, 0, 0
            self._generation = generation
        if self._held is not None and rows < self._rows:
            return None  # an older snapshot
        if self._held is None or rows > self._rows:
            self._held, self._next_rowid = self.follow(cursor, self._held, after=self._next_rowid)
            self._rows = rows
        return self._held

    def follow(
        self, cursor: duckdb.DuckDBPyConnection, held: T | None, *, after: int
    ) -> tuple[T, int]:
        """``held`` (None: nothing yet) with the table's rows from rowid ``after`` on, and
        the rowid above the last of them (``after`` if there are none)."""
        raise NotImplementedError
