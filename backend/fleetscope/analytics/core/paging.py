"""Paging and sorting of the analytics lists: a unique key behind the sort column keeps pages
from overlapping; a page in the second half is read from the end (as cheap as the first)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import duckdb
from pydantic import Field

from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import Window
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.appstore.schemas import CamelModel
from fleetscope.i18n.messages import SORT_COLUMN_UNKNOWN

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
# A page of a list sorted by time is first read from this many times the share of the span
# its rows would take if spread evenly; each retry widens the read this much, and from this
# share on the whole list is read.
_SPAN_MARGIN = 1.5
_SPAN_WIDEN = 4.0
_SPAN_FULL_READ = 0.5

ItemT = TypeVar("ItemT")
RowT = TypeVar("RowT", bound=CamelModel)
# About where the values of a list's sort column (a time, never NULL) lie.
TimeSpan = Window


@dataclass(frozen=True, slots=True)
class PageRequest:
    page: int = 1
    page_size: int = DEFAULT_PAGE_SIZE
    sort: str | None = None


class Page(CamelModel, Generic[ItemT]):
    items: list[ItemT]
    total: int = Field(description="rows matching the filters (all pages)")
    page: int
    page_size: int
    pages: int = Field(description="number of pages; a page beyond it has no items")
    sort: str = Field(description="the sort in effect, '-' prefix for descending")


def named_rows(model: type[RowT], rows: list[Any], *, scope: AnalyticsScope) -> list[RowT]:
    """A list's items: each row holds ``model``'s fields in order but ``vehicle_name``, which
    is looked up by the first (the vehicle id)."""
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    fields = [name for name in model.model_fields if name != "vehicle_name"]
    return [
        model(vehicle_name=names.get(row[0], ""), **dict(zip(fields, row, strict=True)))
        for row in rows
    ]


def page_count(total: int, page_size: int) -> int:
    return (total + page_size - 1) // page_size


def page_fields(
    request: PageRequest, *, total: int, column: str, descending: bool
) -> dict[str, Any]:
    """Everything of a ``Page`` but its items."""
    return {
        "total": total,
        "page": request.page,
        "page_size": request.page_size,
        "pages": page_count(total, request.page_size),
        "sort": f"{'-' if descending else ''}{column}",
    }


def parse_sort(sort: str | None, *, columns: Mapping[str, str], default: str) -> tuple[str, bool]:
    """``"-start"`` -> ``("start", True)``; unknown columns are a 422 listing the allowed."""
    text = (sort or default).strip() or default
    descending = text.startswith("-")
    name = text.removeprefix("-")
    if name not in columns:
        allowed = ", ".join(sorted(columns))
        raise InvalidInputError(SORT_COLUMN_UNKNOWN(column=name[:40], allowed=allowed))
    return name, descending


@dataclass(frozen=True, slots=True)
class Ordering:
    sql: str  # the ``ORDER BY`` terms (constants of the caller)
    offset: int
    limit: int
    reversed_read: bool  # the rows come in reverse: the caller turns them round
    first_descending: bool  # the sort column's direction as read


def page_ordering(
    request: PageRequest,
    *,
    total: int,
    column_sql: str,
    descending: bool,
    tie_breakers: Sequence[str],
) -> Ordering:
    """Terms, offset and limit of ``request.page``; ``tie_breakers`` (ascending) make the
    order total."""
    start = (request.page - 1) * request.page_size
    limit = max(0, min(request.page_size, total - start))
    from_end = total - start - limit
    reversed_read = from_end < start
    first_desc = descending != reversed_read
    nulls = "NULLS FIRST" if reversed_read else "NULLS LAST"
    terms = [f"{column_sql} {'DESC' if first_desc else 'ASC'} {nulls}"]
    terms += [f"{term} {'DESC' if reversed_read else 'ASC'}" for term in tie_breakers]
    return Ordering(
        sql=", ".join(terms),
        offset=from_end if reversed_read else start,
        limit=limit,
        reversed_read=reversed_read,
        first_descending=first_desc,
    )


def read_page(
    cursor: duckdb.DuckDBPyConnection,
    request: PageRequest,
    *,
    select: str,
    source: str,
    parameters: list[Any],
    column_sql: str,
    descending: bool,
    tie_breakers: Sequence[str],
    span: TimeSpan | None = None,
) -> tuple[int, list[Any]]:
    """The row count of ``source`` (``FROM ... WHERE ...``) and the page's rows (``select``).
    ``span``: the sort column is a time within about that span; only rows past a cutoff
    guessed from the page's position are read (row groups skipped by their ranges), and a
    read with fewer rows than the page is repeated wider."""
    counted = cursor.execute(f"SELECT count(*) {source}", parameters).fetchone()
    total = int(counted[0]) if counted else 0
    order = page_ordering(
        request,
        total=total,
        column_sql=column_sql,
        descending=descending,
        tie_breakers=tie_breakers,
    )
    if order.limit == 0:
        return total, []
    share = _SPAN_MARGIN * (order.offset + order.limit) / total
    while True:
        whole = span is None or share >= _SPAN_FULL_READ
        within, cutoff = source, []
        if span is not None and not whole:
            width = (span.end - span.start) * share
            if order.first_descending:
                bound, cutoff = ">=", [span.end - width]
            else:
                bound, cutoff = "<=", [span.start + width]
            # The source as a relation of its own: its condition stays as written.
            within = f"FROM (SELECT * {source}) WHERE {column_sql} {bound} ?"
        rows = cursor.execute(
            f"SELECT {select} {within} ORDER BY {order.sql} LIMIT ? OFFSET ?",
            [*parameters, *cutoff, order.limit, order.offset],
        ).fetchall()
        # Every row beyond the cutoff sorts after all rows within it: as many as the page
        # holds within it make the page whole.
        if whole or len(rows) == order.limit:
            break
        share *= _SPAN_WIDEN
    if order.reversed_read:
        rows.reverse()
    return total, rows
