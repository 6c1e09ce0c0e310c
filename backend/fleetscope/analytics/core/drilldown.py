"""The check every drill-down makes first: is the named thing there for these vehicles?"""

from typing import Literal

import duckdb

from fleetscope.appstore.errors import InvalidInputError, NotFoundError
from fleetscope.i18n.messages import NAMED_NOT_FOUND, TOO_LONG

# (table, column) pairs a drill-down may name; only these constants reach the SQL text.
Named = Literal["workflow", "actionType"]
_LOOKUP: dict[Named, tuple[str, str]] = {
    "workflow": ("orders", "workflow"),
    "actionType": ("actions", "action_type"),
}


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
