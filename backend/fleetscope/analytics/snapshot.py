"""One read snapshot for several statements on a cursor.

An answer reads the live statuses, the rollups and the raw facts in separate statements.
Without a transaction, a batch the ingestion commits between them (the clock's offline
tick, a vehicle's next message) is seen by some of them only: the open state from
``live_status`` and the interval that closed it would then both count. DuckDB's MVCC gives
every statement of a transaction the same snapshot.
"""

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import TypeVar

import duckdb

from fleetscope.facts.store import reader_beside

T = TypeVar("T")

# The tables' row counts per open snapshot (by the cursor's id, while its transaction is
# open): one reader asks for the same count more than once (``read_beside``'s check and
# the battery grid's), and each is a statement (0.4 ms, more beside another reader).
_counted: dict[int, dict[str, int]] = {}


def _begin(cursor: duckdb.DuckDBPyConnection) -> None:
    cursor.execute("BEGIN TRANSACTION")
    _counted[id(cursor)] = {}


@contextmanager
def read_snapshot(
    cursor: duckdb.DuckDBPyConnection, *, closing: bool = False
) -> Iterator[duckdb.DuckDBPyConnection]:
    """Statements inside see one snapshot. Not nested: a second ``BEGIN`` fails and aborts
    the open transaction, so the API opens it once per answer (``api.analytics_deps``).
    ``closing``: the cursor is closed at the end, which ends its transaction too (a
    ``ROLLBACK`` first would be one statement more, 0.3-0.5 ms)."""
    _begin(cursor)
    try:
        yield cursor
    finally:
        _counted.pop(id(cursor), None)
        if closing:
            cursor.close()
        else:
            cursor.execute("ROLLBACK")


def count_rows(
    cursor: duckdb.DuckDBPyConnection, table: str, where: str = "TRUE", *at: object
) -> int:
    """The rows of ``table`` (a constant) in the cursor's snapshot; without ``where``, from
    the table's metadata (0.4 ms), once per snapshot."""
    counted = _counted.get(id(cursor)) if where == "TRUE" else None
    if counted is not None and table in counted:
        return counted[table]
    sql = f"SELECT count(*) FROM {table} WHERE {where}"  # noqa: S608 - constants only
    rows = int(cursor.execute(sql, list(at)).fetchall()[0][0])
    if counted is not None:
        counted[table] = rows
    return rows


@contextmanager
def read_beside(
    cursor: duckdb.DuckDBPyConnection,
    read: Callable[[duckdb.DuckDBPyConnection], T],
    *,
    appended: str,
) -> Iterator[Callable[[], T]]:
    """``read`` on a second reader of the store, in a thread, while the caller goes on
    with ``cursor`` (DuckDB releases the interpreter while a query runs, so the two
    overlap); the function yielded gives its result.

    The second reader has a snapshot of its own. ``read`` reads only ``appended``, a table
    whose rows are only appended between the store's rebuilds: when both snapshots hold
    as many of its rows, they hold the same, and so does the result; otherwise (a commit
    in between) ``read`` runs again on ``cursor``."""
    side = reader_beside(cursor)
    done: Future[tuple[int, T]] = Future()

    def in_its_snapshot() -> None:
        # The side reader is closed here, after its result is handed over: closing it ends
        # its transaction too, and the answer need not wait for either (1-1.5 ms).
        try:
            _begin(side)
            done.set_result((count_rows(side, appended), read(side)))
        except BaseException as error:
            # Whatever it is, ``result`` raises it in the answer's thread (else it would wait).
            done.set_exception(error)
        finally:
            _counted.pop(id(side), None)
            side.close()

    worker = threading.Thread(target=in_its_snapshot, name="fleetscope-beside")
    worker.start()

    def result() -> T:
        # Counted before the wait: the answer's snapshot does not change meanwhile.
        expected = count_rows(cursor, appended)
        rows, value = done.result()
        return value if rows == expected else read(cursor)

    try:
        yield result
    finally:
        if not done.done():
            worker.join()  # an answer that failed early leaves no read running behind it
