"""One read snapshot for several statements on a cursor.

An answer reads the live statuses, the rollups and the raw facts in separate statements.
Without a transaction, a batch the ingestion commits between them (the clock's offline
tick, a vehicle's next message) is seen by some of them only: the open state from
``live_status`` and the interval that closed it would then both count. DuckDB's MVCC gives
every statement of a transaction the same snapshot.
"""

from collections.abc import Iterator
from contextlib import contextmanager

import duckdb


@contextmanager
def read_snapshot(
    cursor: duckdb.DuckDBPyConnection, *, closing: bool = False
) -> Iterator[duckdb.DuckDBPyConnection]:
    """Statements inside see one snapshot. Not nested: a second ``BEGIN`` fails and aborts
    the open transaction, so the API opens it once per answer (``api.analytics_deps``).
    ``closing``: the cursor is closed at the end, which ends its transaction too (a
    ``ROLLBACK`` first would be one statement more, 0.3-0.5 ms)."""
    cursor.execute("BEGIN TRANSACTION")
    try:
        yield cursor
    finally:
        if closing:
            cursor.close()
        else:
            cursor.execute("ROLLBACK")
