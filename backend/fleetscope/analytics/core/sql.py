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
    """One snapshot for an answer's statements while ingestion commits; opened once per answer
    (``api.analytics_deps``): a nested ``BEGIN`` would abort it. ``closing``: close the
    cursor at the end, which ends the transaction without a ``ROLLBACK``."""
    cursor.execute("BEGIN TRANSACTION")
    try:
        yield cursor
    finally:
        if closing:
            cursor.close()
        else:
            cursor.execute("ROLLBACK")


def seconds_between(later: str, earlier: str) -> str:
    """Seconds from ``earlier`` to ``later`` (constant TIMESTAMPTZ expressions) as a DOUBLE."""
    # ``epoch()`` costs DuckDB 2.0 several times what ``epoch_us()`` does (a year of actions
    # ran twice as fast), and integer microseconds subtract exactly before the one division.
    return f"((epoch_us({later}) - epoch_us({earlier})) / 1000000.0)"


def summed_seconds(total: float) -> float:
    """A sum of durations to the microsecond: DuckDB adds in no fixed order, so the float's
    last bits vary from call to call; rounded, it is one number every time."""
    return round(total, 6)


def utc_from_us(micros: int | None) -> datetime | None:
    """The UTC instant of an ``epoch_us(...)`` value: a tenth of a TIMESTAMPTZ's fetch cost."""
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
