"""Every fact, rollup and snapshot of a store as sorted rows, to compare two stores."""

from typing import Any

from fleetscope.facts.store import DERIVED_TABLES, FactStore


def dump(store: FactStore) -> dict[str, list[tuple[Any, ...]]]:
    cursor = store.cursor()
    try:
        return {
            table: sorted(
                cursor.execute(f"SELECT * FROM {table}").fetchall(),  # noqa: S608 - constants
                key=repr,
            )
            for table in (*DERIVED_TABLES, "live_status")
        }
    finally:
        cursor.close()
