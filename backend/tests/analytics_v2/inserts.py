"""Fact rows written for a test in one statement."""

from collections.abc import Sequence
from typing import Any

from fleetscope.facts.store import FactStore


def insert_rows(
    store: FactStore, table: str, types: Sequence[str], rows: list[tuple[Any, ...]]
) -> None:
    """``rows`` (one value per column of ``table``, of the SQL ``types``) in one statement:
    ``executemany`` manages a few thousand rows per second."""
    columns = ", ".join(f"unnest(?::{sql_type}[])" for sql_type in types)
    cursor = store.cursor()
    try:
        cursor.execute(
            f"INSERT INTO {table} SELECT {columns}",
            [list(column) for column in zip(*rows, strict=True)],
        )
    finally:
        cursor.close()
