"""Pages of a list sorted by a time, read from the end of its span: the same rows as the
whole list gives, whatever the guess of the span and however the rows crowd in it."""

from datetime import UTC, datetime, timedelta

import duckdb
import pytest

from fleetscope.analytics.core.paging import PageRequest, TimeSpan, read_page

START = datetime(2026, 3, 10, tzinfo=UTC)
ROWS = 400


def _events(cursor: duckdb.DuckDBPyConnection, *, crowded: bool) -> None:
    """``ROWS`` events over ten days, three at each instant (ties broken by id); crowded:
    nine in ten within the first hour, the rest spread over the days."""
    cursor.execute(
        "CREATE TABLE events AS SELECT range AS id, CASE WHEN ? AND range % 10 <> 0 "
        "THEN ?::TIMESTAMPTZ + to_seconds(range // 3) "
        "ELSE ?::TIMESTAMPTZ + to_minutes((range // 3) * 107 % 14400) END AS happened, "
        "range % 2 = 0 AS even FROM range(?)",
        [crowded, START, START, ROWS],
    )


def _page(
    cursor: duckdb.DuckDBPyConnection,
    page: int,
    *,
    descending: bool,
    span: TimeSpan | None,
    statements: list[str] | None = None,
) -> tuple[int, list[object]]:
    class Counting:
        """The cursor, counting its statements."""

        def execute(self, sql: str, parameters: list[object]) -> duckdb.DuckDBPyConnection:
            if statements is not None:
                statements.append(sql)
            return cursor.execute(sql, parameters)

    total, rows = read_page(
        Counting(),  # type: ignore[arg-type]
        PageRequest(page=page, page_size=15),
        select="id",
        source="FROM events WHERE even OR id % 3 = 0",
        parameters=[],
        column_sql="happened",
        descending=descending,
        tie_breakers=["id"],
        span=span,
    )
    return total, [row[0] for row in rows]


@pytest.mark.parametrize("crowded", [False, True])
@pytest.mark.parametrize("descending", [True, False])
@pytest.mark.parametrize(
    "span",
    [
        TimeSpan(START, START + timedelta(days=10)),  # about right
        TimeSpan(START - timedelta(days=30), START + timedelta(days=40)),  # far too wide
        TimeSpan(START + timedelta(days=4), START + timedelta(days=5)),  # inside the rows
    ],
)
def test_pages_read_within_a_span_are_the_pages_of_the_whole_list(
    cursor: duckdb.DuckDBPyConnection, crowded: bool, descending: bool, span: TimeSpan
) -> None:
    _events(cursor, crowded=crowded)
    total, _ = _page(cursor, 1, descending=descending, span=None)
    pages = (total + 14) // 15
    assert pages > 10
    for page in [1, 2, 3, pages // 2, pages - 2, pages - 1, pages, pages + 1]:
        whole = _page(cursor, page, descending=descending, span=None)
        assert _page(cursor, page, descending=descending, span=span) == whole


def test_the_first_page_reads_the_end_of_the_span_once_when_rows_spread_evenly(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    _events(cursor, crowded=False)
    statements: list[str] = []
    span = TimeSpan(START, START + timedelta(days=10))
    _page(cursor, 1, descending=True, span=span, statements=statements)
    # The count, then one read at or after the cutoff.
    assert len(statements) == 2
    assert "happened >= ?" in statements[1]
