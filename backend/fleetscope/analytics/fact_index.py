"""The ``SortedRuns`` of the served fact store, one per ``RunSource``, kept as readers see
them; and its hourly battery rows (``battery_grid``), measures of its hourly rollups
(``rollup_grid``), charge sessions and positioned error episodes (``appended_rows``) in
memory, built in the same warm-up.

Each is built at start-up by ``start_warm_up`` (9-14 s and about 930 MB for the four
sources of a year of 100 vehicles), or by the first answer over a long period, then brought
up to date by each such reader whose snapshot holds more rows: it reads only the newer rows
and merges them in (a copy of the arrays: 85-110 ms per source for that year), and later
readers share the result. Answers over a short period use the runs only while they are
current, as SQL costs them less than a build or merge.
A reader whose snapshot holds fewer rows than the index, or a store rebuilt or merged
meanwhile, reads its rows with SQL; so does one arriving while the first build runs.
"""

import logging
import threading
from collections.abc import Callable, Iterable
from functools import partial

import duckdb

from fleetscope.analytics.appended_rows import AppendedRows
from fleetscope.analytics.battery_grid import HourMeasures
from fleetscope.analytics.battery_sessions import CHARGE_SESSIONS
from fleetscope.analytics.fact_rows import Selection
from fleetscope.analytics.failure_points import ERROR_POSITIONS
from fleetscope.analytics.rollup_grid import RollupHours
from fleetscope.analytics.snapshot import count_rows, read_snapshot
from fleetscope.analytics.sorted_runs import RunSource, SortedRuns
from fleetscope.facts.store import FactStore

# Runs current for the reader's snapshot answer any T. Runs behind it first need the newer
# rows merged in (85-110 ms per source for a year of 100 vehicles): below this share of the
# rows in T's bounds (both periods), reading T's rows with SQL costs less than that merge
# (30 days of a year, 16 %: Processes 55 ms by SQL).
MIN_SHARE = 0.25
# Counts and percentiles alone (the Workflows table, a workflow's order count) cost less
# from the index down to about a week of a year (4 %: 16 against 20 ms).
MIN_SHARE_COUNTS = 0.04
_log = logging.getLogger(__name__)


class _Runs:
    """One source's runs, for one generation of the store."""

    def __init__(self, source: RunSource) -> None:
        self.source = source
        self.lock = threading.Lock()
        self.runs: SortedRuns | None = None
        self.generation = -1
        self.unfit = False  # a row the packing cannot hold: SQL for this generation
        # (generation, runs) as last stored, read without the lock (one assignment)
        self.ready: tuple[int, SortedRuns] | None = None

    def ready_for(self, *, generation: int, count: int) -> SortedRuns | None:
        """The runs when they are those of a snapshot whose table holds ``count`` rows,
        without waiting for a build or merge under way."""
        ready = self.ready
        if ready is None or ready[0] != generation or ready[1].table_rows != count:
            return None
        return ready[1]

    def current(
        self, cursor: duckdb.DuckDBPyConnection, *, generation: int, count: int
    ) -> SortedRuns | None:
        """The runs of the cursor's snapshot, whose table holds ``count`` rows."""
        if self.runs is None and self.lock.locked():
            return None  # the first build is under way: SQL rather than seconds of waiting
        with self.lock:
            if self.generation != generation:
                self.runs, self.generation, self.unfit = None, generation, False
            if self.unfit:
                return None
            runs = self.runs
            if runs is not None and count <= runs.table_rows:
                return runs if count == runs.table_rows else None  # older snapshot: SQL
            if runs is None:
                found = SortedRuns.read(cursor, self.source)
            else:
                newer = SortedRuns.read(cursor, self.source, after=runs)
                found = None if newer is None else runs.merged(newer)
            if found is None:
                self.unfit = True
                return None
            if found.table_rows != count:
                return None  # not only appended: this index does not apply
            self.runs = found
            self.ready = (generation, found)
            return found


class FactIndex:
    def __init__(self, store: FactStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._by_source: dict[RunSource, _Runs] = {}
        self._stopping = threading.Event()
        self._warm_up: threading.Thread | None = None
        self.battery_hours = HourMeasures(store)
        self.charge_sessions = AppendedRows(store, CHARGE_SESSIONS)
        self.error_positions = AppendedRows(store, ERROR_POSITIONS)
        self.rollup_hours = RollupHours(store)

    def _of(self, source: RunSource) -> _Runs:
        with self._lock:
            return self._by_source.setdefault(source, _Runs(source))

    def runs(
        self,
        cursor: duckdb.DuckDBPyConnection,
        source: RunSource,
        selection: Selection,
        *,
        min_share: float = MIN_SHARE,
    ) -> SortedRuns | None:
        """The runs of ``source`` in the cursor's snapshot, or None (then SQL answers).

        When T's bounds hold less than ``min_share`` of its rows, only runs already current
        serve (SQL reading T's rows costs less than building or merging them)."""
        bounds = selection.bounds
        generation = self._store.generation
        count = count_rows(cursor, source.table)
        if bounds is None or count == 0 or generation % 2 or generation != self._store.generation:
            return None  # no rows, or a rebuild or merge under way
        held = self._of(source)
        runs = held.runs
        if runs is not None and len(runs.keys) and held.generation == generation:
            share = runs.share_between(bounds.start, bounds.end)
        else:
            at = f"{source.end} >= ? AND {source.end} < ?"
            share = count_rows(cursor, source.table, at, bounds.start, bounds.end) / count
        if share < min_share:
            return held.ready_for(generation=generation, count=count)
        return held.current(cursor, generation=generation, count=count)

    def start_warm_up(self, sources: Iterable[RunSource]) -> None:
        """Build the runs of ``sources`` in a thread of its own (at start-up): the first
        answers over a long T read SQL meanwhile instead of waiting seconds for a build."""
        self._warm_up = threading.Thread(
            target=self._build, args=(tuple(sources),), name="fact-index-warm-up", daemon=True
        )
        self._warm_up.start()

    def wait_until_warm(self, timeout: float | None = None) -> bool:
        """True once the warm-up has ended (or none was started)."""
        if self._warm_up is not None:
            self._warm_up.join(timeout)
        return self._warm_up is None or not self._warm_up.is_alive()

    def stop(self) -> None:
        """End the warm-up after the source it is building (before the store closes)."""
        self._stopping.set()
        self.wait_until_warm()

    def _build(self, sources: tuple[RunSource, ...]) -> None:
        steps: list[Callable[[duckdb.DuckDBPyConnection, int], None]] = [
            *(partial(self._warm_runs, source) for source in sources),
            self._warm_battery_hours,
            partial(self._warm_rows, self.charge_sessions),
            partial(self._warm_rows, self.error_positions),
            self._warm_rollup_hours,
        ]
        for step in steps:
            generation = self._store.generation
            if self._stopping.is_set() or generation % 2:
                return
            cursor = self._store.cursor()
            try:
                with read_snapshot(cursor):
                    step(cursor, generation)
            except duckdb.Error:
                # A store closing or rebuilt meanwhile: answers build what they need.
                _log.warning("the fact index stopped warming up", exc_info=True)
                return
            finally:
                cursor.close()

    def _warm_runs(
        self, source: RunSource, cursor: duckdb.DuckDBPyConnection, generation: int
    ) -> None:
        count = count_rows(cursor, source.table)
        if count and generation == self._store.generation:
            self._of(source).current(cursor, generation=generation, count=count)

    def _warm_battery_hours(self, cursor: duckdb.DuckDBPyConnection, _generation: int) -> None:
        """The grid checks the store's generation itself (the argument is the steps' form)."""
        with self.battery_hours.current(cursor):
            pass

    @staticmethod
    def _warm_rows(rows: AppendedRows, cursor: duckdb.DuckDBPyConnection, _generation: int) -> None:
        with rows.current(cursor):
            pass

    def _warm_rollup_hours(self, cursor: duckdb.DuckDBPyConnection, _generation: int) -> None:
        self.rollup_hours.warm(cursor)
