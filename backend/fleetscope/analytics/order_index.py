"""The ``OrderRuns`` of the served fact store, kept as readers see it.

Built on the first answer that needs the orders of a long period (about 2.5 s and 130 MB
for a year of 100 vehicles), then brought up to date by each reader whose snapshot holds
more orders: it reads only the newer rows and merges them in (a copy of the arrays, tens
of milliseconds), and later readers share the result. A reader whose snapshot holds fewer
orders than the index, or a store rebuilt or merged meanwhile, reads the orders with SQL.
"""

import threading

import duckdb

from fleetscope.analytics.fact_rows import Selection
from fleetscope.analytics.order_runs import OrderRuns, summarize_runs
from fleetscope.analytics.order_summary import Key, OrderSummary
from fleetscope.facts.store import FactStore

# Marking every order costs the same for any T; below this share of the orders in T's
# bounds (both periods), reading T's orders with SQL costs less (30 days of a year: 16 %).
MIN_SHARE = 0.25


def _count(cursor: duckdb.DuckDBPyConnection, where: str = "TRUE", *parameters: object) -> int:
    row = cursor.execute(f"SELECT count(*) FROM orders WHERE {where}", list(parameters)).fetchone()  # noqa: S608 - constants only
    return int(row[0]) if row else 0


class OrderIndex:
    def __init__(self, store: FactStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._runs: OrderRuns | None = None
        self._generation = -1
        self._unfit = False  # an order the packing cannot hold: SQL for this generation

    def summaries(
        self, cursor: duckdb.DuckDBPyConnection, selection: Selection, *, by_vehicle: bool
    ) -> dict[Key, OrderSummary] | None:
        """``summarize_runs`` in the cursor's snapshot, or None: read them with SQL."""
        bounds = selection.bounds
        generation = self._store.generation
        count = _count(cursor)
        if bounds is None or count == 0 or generation % 2 or generation != self._store.generation:
            return None  # no orders, or a rebuild or merge under way
        runs = self._runs
        if runs is not None and len(runs.keys) and self._generation == generation:
            share = runs.share_between(bounds.start, bounds.end)
        else:
            inside = _count(cursor, "end_at >= ? AND end_at < ?", bounds.start, bounds.end)
            share = inside / count
        if share < MIN_SHARE:
            return None
        runs = self._runs_for(cursor, generation=generation, count=count)
        if runs is None:
            return None
        return summarize_runs(runs, selection, by_vehicle=by_vehicle)

    def _runs_for(
        self, cursor: duckdb.DuckDBPyConnection, *, generation: int, count: int
    ) -> OrderRuns | None:
        """The runs of the cursor's snapshot, which holds ``count`` orders."""
        with self._lock:
            if self._generation != generation:
                self._runs, self._generation, self._unfit = None, generation, False
            if self._unfit:
                return None
            runs = self._runs
            if runs is None:
                found = OrderRuns.read(cursor)
            elif count > len(runs.keys):
                newer = OrderRuns.read(cursor, since_row=runs.next_rowid)
                found = None if newer is None else runs.merged(newer)
            else:
                return runs if count == len(runs.keys) else None  # an older snapshot: SQL
            if found is None:
                self._unfit = True
                return None
            if len(found.keys) != count:
                return None  # not only appended: this index does not apply
            self._runs = found
            return found
