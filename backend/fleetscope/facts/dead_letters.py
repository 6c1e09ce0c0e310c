"""The fact store's dead letters: written with their batch, read as pages and counts, purged.

``dead_letters`` holds one row per kept dead letter (the payload up to the configured size,
its full size and SHA-256); ``dead_letter_drops`` counts what a source sent beyond its cap
per minute, per category (ingest/dead_letters.py decides what is kept). Both are bounded in
time by ``purge``, which removes a bounded number of rows per call so that the ingest thread
calling it never stalls for long.

A message sent again (an MQTT redelivery after a restart, an HTTP batch retried, a file
imported twice) is refused again but not kept twice: a dead letter with the source, topic
and payload of one kept in the ``REDELIVERY_WINDOW`` before it is left out (``unseen``).
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import duckdb

from fleetscope.facts.store_batch import DeadLetter, DeadLetterDrops

# The payload shown in a page: enough to recognise a message, small enough for a list.
PAYLOAD_PREVIEW_BYTES = 4096
# How far back a dead letter is looked for among the kept ones: a broker redelivers what it
# kept while the server was down, a sender retries within its timeouts. A bound, so that the
# lookup reads the recent rows only (``received_at`` order; the table holds the retention).
REDELIVERY_WINDOW = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class DeadLetterFilter:
    """Conditions of a page and of the counts; None means any. ``reason`` matches a part
    of the reason in any language, ignoring case (dropped dead letters have no reason and
    no topic)."""

    source: str | None = None
    category: str | None = None
    reason: str | None = None
    received_from: datetime | None = None
    received_to: datetime | None = None

    def where(self, *, time_column: str, with_reason: bool) -> tuple[str, list[Any]]:
        """A WHERE clause over constant column names and its parameters."""
        conditions: list[str] = []
        parameters: list[Any] = []
        if self.source is not None:
            conditions.append("source = ?")
            parameters.append(self.source)
        if self.category is not None:
            conditions.append("category = ?")
            parameters.append(self.category)
        if self.reason is not None and with_reason:
            conditions.append(
                "contains(lower(coalesce(array_to_string(map_values(reasons), chr(10)), reason))"
                ", lower(?))"
            )
            parameters.append(self.reason)
        if self.received_from is not None:
            conditions.append(f"{time_column} >= ?")
            parameters.append(self.received_from)
        if self.received_to is not None:
            conditions.append(f"{time_column} < ?")
            parameters.append(self.received_to)
        return (" WHERE " + " AND ".join(conditions) if conditions else ""), parameters


@dataclass(frozen=True, slots=True)
class DeadLetterCount:
    source: str
    category: str
    stored: int
    dropped: int


def unseen(connection: duckdb.DuckDBPyConnection, letters: list[DeadLetter]) -> list[DeadLetter]:
    """``letters`` without those sent again: kept already (within ``REDELIVERY_WINDOW``
    before the first of them) or earlier in ``letters``."""
    if not letters:
        return []
    since = min(letter.received_at for letter in letters) - REDELIVERY_WINDOW
    kept = connection.execute(
        "SELECT DISTINCT source, topic, payload_sha256 FROM dead_letters "
        "WHERE received_at >= ? AND list_contains(?::VARCHAR[], payload_sha256)",
        [since, sorted({letter.payload_sha256 for letter in letters})],
    ).fetchall()
    seen = {tuple(row) for row in kept}
    result: list[DeadLetter] = []
    for letter in letters:
        key = (letter.source, letter.topic, letter.payload_sha256)
        if key not in seen:
            seen.add(key)
            result.append(letter)
    return result


def next_id(connection: duckdb.DuckDBPyConnection) -> int:
    """The id the next dead letter gets: never one a deleted letter had."""
    row = connection.execute(
        "SELECT greatest((SELECT coalesce(max(id), 0) + 1 FROM dead_letters), "
        "(SELECT coalesce(max(next_id), 1) FROM dead_letter_ids))"
    ).fetchone()
    return int(row[0]) if row else 1


def keep_next_id(connection: duckdb.DuckDBPyConnection, value: int) -> None:
    """Inside the transaction that used the ids below ``value``."""
    connection.execute("UPDATE dead_letter_ids SET next_id = greatest(next_id, ?)", [value])


def merge_from(connection: duckdb.DuckDBPyConnection, *, table: str) -> None:
    """Adds the dead letters of ``table`` (another store's, a constant of the caller, ids
    from 1) that ``unseen`` keeps, numbered from ``next_id`` on."""
    first = next_id(connection)
    connection.execute(
        "INSERT INTO dead_letters SELECT n.id + ? - 1, "  # noqa: S608 - constants only
        f"n.* EXCLUDE (id) FROM {table} n WHERE NOT EXISTS (SELECT 1 FROM dead_letters d "
        "WHERE d.source = n.source AND d.topic = n.topic AND d.payload_sha256 = n.payload_sha256 "
        "AND d.received_at >= n.received_at - ?)",
        [first, REDELIVERY_WINDOW],
    )
    keep_next_id(connection, next_id(connection))


def append(
    connection: duckdb.DuckDBPyConnection, *, first_id: int, letters: list[DeadLetter]
) -> None:
    """Inside the batch's transaction; columns in ``dead_letters`` order (facts/schema.py)."""
    with connection.appender("dead_letters") as appender:
        appender.append_rows(
            [
                (
                    first_id + offset,
                    letter.received_at,
                    letter.topic,
                    letter.payload,
                    letter.reason,
                    letter.source,
                    letter.category.value,
                    letter.payload_size,
                    letter.payload_sha256,
                    letter.reasons,
                )
                for offset, letter in enumerate(letters)
            ]
        )


def add_drops(connection: duckdb.DuckDBPyConnection, drops: DeadLetterDrops) -> None:
    """Adds the batch's dropped counts to the stored ones (inside its transaction)."""
    connection.executemany(
        "INSERT INTO dead_letter_drops VALUES (?, ?, ?, ?) "
        "ON CONFLICT DO UPDATE SET dropped = dropped + excluded.dropped",
        [
            [source, minute, category.value, dropped]
            for (source, minute, category), dropped in drops.items()
        ],
    )


def kept_since(
    connection: duckdb.DuckDBPyConnection, *, since: datetime
) -> dict[tuple[str, datetime], int]:
    """Dead letters kept per source and minute from ``since`` on (a cap's count on start)."""
    rows = connection.execute(
        "SELECT source, date_trunc('minute', received_at) AS minute, count(*) "
        "FROM dead_letters WHERE received_at >= ? GROUP BY ALL",
        [since],
    ).fetchall()
    return {(str(source), minute): int(count) for source, minute, count in rows}


def purge(connection: duckdb.DuckDBPyConnection, *, before: datetime, limit: int) -> int:
    """Removes up to ``limit`` dead letters received before ``before`` (oldest first) and
    every dropped count of a minute before it; returns the dead letters removed."""
    row = connection.execute(
        "DELETE FROM dead_letters WHERE id IN (SELECT id FROM dead_letters "
        "WHERE received_at < ? ORDER BY id LIMIT ?)",
        [before, limit],
    ).fetchone()
    connection.execute("DELETE FROM dead_letter_drops WHERE minute < ?", [before])
    return int(row[0]) if row else 0


def page(
    cursor: duckdb.DuckDBPyConnection,
    *,
    filters: DeadLetterFilter,
    limit: int,
    offset: int,
    language: str,
) -> tuple[int, list[dict[str, Any]]]:
    """The matching dead letters, newest first, and how many match; the reason in
    ``language`` (in English if stored before reasons were kept in every language)."""
    where, parameters = filters.where(time_column="received_at", with_reason=True)
    total = cursor.execute(
        f"SELECT count(*) FROM dead_letters{where}",  # noqa: S608 - constant conditions
        parameters,
    ).fetchone()
    rows = cursor.execute(
        "SELECT id, received_at, source, category, topic, payload[1:?], payload_size, "  # noqa: S608
        "payload_sha256, octet_length(payload), coalesce(reasons[?], reason) "
        f"FROM dead_letters{where} ORDER BY id DESC LIMIT ? OFFSET ?",
        [PAYLOAD_PREVIEW_BYTES, language, *parameters, limit, offset],
    ).fetchall()
    items = [
        {
            "id": int(row[0]),
            "received_at": row[1],
            "source": row[2],
            "category": row[3],
            "topic": row[4],
            "payload": bytes(row[5]).decode("utf-8", errors="replace"),
            "payload_size": int(row[6]),
            "payload_sha256": row[7],
            "payload_truncated": int(row[8]) < int(row[6]),
            "reason": row[9],
        }
        for row in rows
    ]
    return (int(total[0]) if total else 0), items


def counts(
    cursor: duckdb.DuckDBPyConnection, *, filters: DeadLetterFilter
) -> list[DeadLetterCount]:
    """Kept and dropped dead letters per source and category, most first."""
    kept_where, kept_parameters = filters.where(time_column="received_at", with_reason=True)
    drop_where, drop_parameters = filters.where(time_column="minute", with_reason=False)
    if filters.reason is not None:  # dropped ones have no reason to match
        drop_where = " WHERE false"
        drop_parameters = []
    rows = cursor.execute(
        "SELECT source, category, sum(kept)::BIGINT, sum(over_cap)::BIGINT FROM ("  # noqa: S608
        "SELECT source, category, count(*) AS kept, 0 AS over_cap "
        f"FROM dead_letters{kept_where} GROUP BY source, category UNION ALL "
        "SELECT source, category, 0 AS kept, sum(dropped) AS over_cap "
        f"FROM dead_letter_drops{drop_where} GROUP BY source, category) "
        "GROUP BY source, category "
        "ORDER BY sum(kept) + sum(over_cap) DESC, source, category",
        [*kept_parameters, *drop_parameters],
    ).fetchall()
    return [
        DeadLetterCount(str(source), str(category), int(stored), int(dropped))
        for source, category, stored, dropped in rows
    ]


@dataclass(frozen=True, slots=True)
class StoredDeadLetter:
    """One dead letter as kept, with the whole stored payload (for download and re-ingest)."""

    id: int
    received_at: datetime
    source: str
    category: str
    topic: str
    payload: bytes  # what is kept: the whole payload unless ``truncated``
    payload_size: int
    payload_sha256: str
    reason: str

    @property
    def truncated(self) -> bool:
        return len(self.payload) < self.payload_size


def one(cursor: duckdb.DuckDBPyConnection, *, letter_id: int) -> StoredDeadLetter | None:
    row = cursor.execute(
        "SELECT id, received_at, source, category, topic, payload, payload_size, "
        "payload_sha256, reason FROM dead_letters WHERE id = ?",
        [letter_id],
    ).fetchone()
    if row is None:
        return None
    return StoredDeadLetter(
        id=int(row[0]),
        received_at=row[1],
        source=str(row[2]),
        category=str(row[3]),
        topic=str(row[4]),
        payload=bytes(row[5]),
        payload_size=int(row[6]),
        payload_sha256=str(row[7]),
        reason=str(row[8]),
    )


def delete(connection: duckdb.DuckDBPyConnection, *, letter_id: int) -> bool:
    """Removes one dead letter; whether it existed."""
    row = connection.execute("DELETE FROM dead_letters WHERE id = ?", [letter_id]).fetchone()
    return bool(row and int(row[0]))
