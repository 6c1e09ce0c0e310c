"""Every fact, rollup and snapshot of a store as sorted rows, to compare two stores."""

from typing import Any

from fleetscope.facts.store import DERIVED_TABLES, FactStore


def _comparable(value: Any) -> Any:
    # Site rollups add the vehicles' rows in the order batches arrive: the same sums, with
    # float rounding that may differ in the last bits between two ways of ingesting.
    if isinstance(value, (list, tuple)):
        return [_comparable(item) for item in value]
    return round(value, 6) if isinstance(value, float) else value


def dump(store: FactStore) -> dict[str, list[tuple[Any, ...]]]:
    cursor = store.cursor()
    try:
        return {
            table: sorted(
                (
                    tuple(_comparable(value) for value in row)
                    for row in cursor.execute(f"SELECT * FROM {table}").fetchall()  # noqa: S608 - constants
                ),
                key=repr,
            )
            for table in (*DERIVED_TABLES, "live_status")
        }
    finally:
        cursor.close()
