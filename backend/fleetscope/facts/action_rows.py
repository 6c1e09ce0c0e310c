"""Actions as stored: their type as a small code, and the buckets of their run and wait.

The Actions page groups a year of actions by type and, beyond 31 days, counts them per
bucket of their durations (``facts.buckets``). Grouping by a VARCHAR type decodes a string
per fact, a status compared as VARCHAR another, and a bucket costs a logarithm per fact:
together two thirds of that scan's time. So actions keep a code of their type (its name in
``action_types``), their status as an ENUM, and the buckets of their run (end - first
RUNNING, finished actions only) and of their wait (first RUNNING - first seen).

Every writer inserts actions through ``insert_actions``, which names new types first.
Codes are local to a store file: a partition's actions are inserted by name when it is
merged, and so get the main store's codes.
"""

import duckdb
import pyarrow as pa

from fleetscope.facts.buckets import bucket_sql

TYPES_TABLE = "action_types"
TYPES_DDL = (
    f"CREATE TABLE {TYPES_TABLE} (code INTEGER PRIMARY KEY, action_type VARCHAR NOT NULL UNIQUE)"
)
STATUS_TYPE = "ENUM ('FINISHED', 'FAILED')"
# The columns a writer provides (facts/columns.py's order); the others are computed here.
NAMED_COLUMNS = (
    "vehicle_id, action_id, action_type, order_id, first_seen_at, started_at, end_at, status, "
    "load_handling"
)
_CODED = (
    f"t.code, CASE WHEN s.status = 'FINISHED' THEN "
    f"{bucket_sql('epoch_us(s.end_at) - epoch_us(s.started_at)')} END, "
    f"{bucket_sql('epoch_us(s.started_at) - epoch_us(s.first_seen_at)')}"
)
_INCOMING = "incoming_actions"  # an Arrow table's name while it is inserted
_NAMES = [column.strip() for column in NAMED_COLUMNS.split(",")]
_SELECTED = ", ".join(f"s.{column}" for column in _NAMES)


def name_types(connection: duckdb.DuckDBPyConnection, *, source: str) -> None:
    """Give the action types of ``source`` (a table or subquery) not yet named a code."""
    connection.execute(
        f"INSERT INTO {TYPES_TABLE} SELECT (SELECT coalesce(max(code), 0) FROM {TYPES_TABLE}) "  # noqa: S608 - constants
        f"+ row_number() OVER (ORDER BY action_type), action_type FROM (SELECT DISTINCT "
        f"action_type FROM {source}) WHERE action_type NOT IN (SELECT action_type FROM "
        f"{TYPES_TABLE})"
    )


def insert_actions(
    connection: duckdb.DuckDBPyConnection, *, source: str, target: str = "actions"
) -> None:
    """Insert the actions of ``source`` (a table or subquery with ``NAMED_COLUMNS``) into
    ``target`` with their code and buckets, in order of their end (zone maps then skip
    other periods). ``source`` and ``target`` are constants."""
    name_types(connection, source=source)
    connection.execute(
        f"INSERT INTO {target} SELECT {_SELECTED}, {_CODED} FROM {source} s "  # noqa: S608 - constants
        f"JOIN {TYPES_TABLE} t ON t.action_type = s.action_type ORDER BY s.end_at"
    )


def insert_table(
    connection: duckdb.DuckDBPyConnection, actions: pa.Table, *, target: str = "actions"
) -> None:
    """Insert an Arrow table of actions (``facts.columns.fact_table``) into ``target``, in
    the caller's transaction (whose rollback also drops the registered table on an error)."""
    connection.register(_INCOMING, actions.rename_columns(_NAMES))
    insert_actions(connection, source=_INCOMING, target=target)
    connection.unregister(_INCOMING)
