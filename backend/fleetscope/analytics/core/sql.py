"""SQL on the fact store that every area uses: one read snapshot per answer, durations and
instants as integer microseconds, and the existence check a drill-down makes first."""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Literal

import duckdb

from fleetscope.appstore.errors import InvalidInputError, NotFoundError
from fleetscope.facts.rawlog import from_micros
from fleetscope.i18n.messages import NAMED_NOT_FOUND, TOO_LONG

# (table, column) pairs a drill-down may name; only these constants reach the SQL text.
Named = Literal["workflow", "actionType"]
_LOOKUP: dict[Named, tuple[str, str]] = {
    "workflow": ("orders", "workflow"),
    "actionType": ("actions", "action_type"),
}


@contextmanager
def read_snapshot(
    cursor: duckdb.DuckDBPyConnection, *, closing: bool = False
) -> Iterator[duckdb.DuckDBPyConnection]:
    """Statements inside see one snapshot, so that an answer's separate statements agree while
    ingestion commits (docs/analytics.md, "Speed"). Not nested: a second ``BEGIN`` fails and
    aborts the open transaction, so the API opens it once per answer
    (``api.analytics_deps``). ``closing``: the cursor is closed at the end, which ends its
    transaction too, without a ``ROLLBACK`` statement."""
    cursor.execute("BEGIN TRANSACTION")
    try:
        yield cursor
    finally:
        if closing:
            cursor.close()
        else:
            cursor.execute("ROLLBACK")


def seconds_between(later: str, earlier: str) -> str:
    """Seconds from ``earlier`` to ``later`` (TIMESTAMPTZ column expressions, constants of
    the caller) as a DOUBLE expression."""
    # ``epoch()`` costs DuckDB 2.0 several times what ``epoch_us()`` does (a year of actions
    # ran twice as fast), and integer microseconds subtract exactly before the one division.
    return f"((epoch_us({later}) - epoch_us({earlier})) / 1000000.0)"


def summed_seconds(total: float) -> float:
    """A sum of durations to the microsecond, the facts' resolution: DuckDB (and a dict filled
    from its rows) adds them in no fixed order, so the float sum varies in its last bits from
    call to call; rounded, it is one number every time."""
    return round(total, 6)


def utc_from_us(micros: int | None) -> datetime | None:
    """The UTC instant of an ``epoch_us(...)`` value fetched from DuckDB (``None`` stays):
    a tenth of what fetching the TIMESTAMPTZ costs (a time zone lookup per value, 10 µs)."""
    return None if micros is None else from_micros(micros)


def require_named(
    cursor: duckdb.DuckDBPyConnection,
    *,
    field: Named,
    value: str,
    max_length: int,
    vehicle_ids: list[int],
) -> None:
    """422 for an over-long name, 404 unless one of ``vehicle_ids`` ever had ``value``."""
    if len(value) > max_length:
        raise InvalidInputError(TOO_LONG(field=field, max_length=max_length))
    table, column = _LOOKUP[field]
    row = cursor.execute(
        f"SELECT 1 FROM {table} WHERE {column} = ? AND vehicle_id IN "  # noqa: S608
        "(SELECT unnest(?::INTEGER[])) LIMIT 1",
        [value, vehicle_ids],
    ).fetchone()
    if row is None:
        raise NotFoundError(NAMED_NOT_FOUND[field](value=value[:80]))
