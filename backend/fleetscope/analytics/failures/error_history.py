"""``GET /v2/Analytics/ErrorHistory`` (paged; a unique tie-break keeps pages from overlapping) and
``ErrorHistory.csv`` (the same rows in the same order, streamed in chunks); docs/analytics-v2.md."""

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
from pydantic import Field

from fleetscope.analytics.core import paging
from fleetscope.analytics.core.facts import select_periods
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.failures.failures import SEVERITY, ErrorFilter, episodes
from fleetscope.appstore.schemas import CamelModel
from fleetscope.i18n.csv_columns import (
    ERROR_HISTORY_COLUMNS,
    LEVEL_NAMES,
    LOCAL_TIME,
    ZONE_COLUMN,
)

HISTORY_SORTS = {
    "start": "start_at", "end": "end_at", "duration": "duration_s", "vehicle": "vehicle_id",
    "errorType": "error_type", "level": SEVERITY,
}  # fmt: skip
_TIE_BREAKERS = ["vehicle_id", "start_at", "error_type", "level", "references_json"]
# The fields of ``ErrorEpisodeRow`` but the name, in the order of the CSV, and their columns.
_FIELDS = (
    "vehicle_id", "error_type", "level", "description", "start", "end", "duration_seconds",
    "order_id", "x", "y", "map_id",
)  # fmt: skip
_RENAMED = {"start": "start_at", "end": "end_at", "duration_seconds": "duration_s"}
_SELECT = ", ".join(_RENAMED.get(field, field) for field in _FIELDS)
CSV_CHUNK_ROWS = 5000


class ErrorEpisodeRow(CamelModel):
    vehicle_id: int
    vehicle_name: str
    error_type: str
    level: str
    description: str
    start: datetime
    end: datetime
    duration_seconds: float
    order_id: str = Field(description="the order at the start; empty when none")
    x: float | None
    y: float | None
    map_id: str


@dataclass(frozen=True, slots=True)
class HistoryQuery:
    sql: str  # FROM ... of the filtered episodes
    parameters: list[Any]
    column: str
    descending: bool


def history_query(
    scope: AnalyticsScope,
    *,
    now: datetime,
    errors: ErrorFilter,
    vehicle_id: int | None,
    sort: str | None,
) -> HistoryQuery:
    column, descending = paging.parse_sort(sort, columns=HISTORY_SORTS, default="-start")
    selection = select_periods(scope, now=now, previous=False, vehicle_id=vehicle_id)
    sql, parameters = episodes(selection, errors)
    return HistoryQuery(f"FROM ({sql})", parameters, column, descending)


def error_history(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    page: paging.PageRequest,
    errors: ErrorFilter,
    vehicle_id: int | None = None,
) -> paging.Page[ErrorEpisodeRow]:
    query = history_query(scope, now=now, errors=errors, vehicle_id=vehicle_id, sort=page.sort)
    total, rows = paging.read_page(
        cursor, page, select=_SELECT, source=query.sql, parameters=query.parameters,
        column_sql=HISTORY_SORTS[query.column], descending=query.descending,
        tie_breakers=_TIE_BREAKERS,
    )  # fmt: skip
    return paging.Page[ErrorEpisodeRow](
        items=paging.named_rows(ErrorEpisodeRow, rows, scope=scope),
        **paging.page_fields(page, total=total, column=query.column, descending=query.descending),
    )


# As the frontend's chart CSVs (``components/charts/csv.ts``; docs/analytics-v2.md).
@dataclass(frozen=True, slots=True)
class CsvConvention:
    separator: str
    decimal: str

    @classmethod
    def of(cls, language: str) -> "CsvConvention":
        return cls(";", ",") if language == "de" else cls(",", ".")

    def number(self, value: float) -> str:
        text = f"{value:.3f}".rstrip("0").rstrip(".")
        return ("0" if text in ("", "-0") else text).replace(".", self.decimal)

    def cell(self, value: Any) -> Any:
        """Text cells starting like a formula are quoted (CSV injection in spreadsheets)."""
        if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
            return "'" + value
        if isinstance(value, float):
            return self.number(value)
        return "" if value is None else value


def csv_header(language: str, zones: set[str]) -> list[str]:
    texts = ERROR_HISTORY_COLUMNS.get(language, ERROR_HISTORY_COLUMNS["en"])
    zone = next(iter(zones)) if len(zones) == 1 else LOCAL_TIME.get(language, LOCAL_TIME["en"])
    header = [text.format(zone=zone) for text in texts]
    if len(zones) > 1:
        header.append(ZONE_COLUMN.get(language, ZONE_COLUMN["en"]))
    return header


def error_history_csv(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, query: HistoryQuery, language: str
) -> Iterator[str]:
    """The filtered list as CSV text chunks, in the list's order; closes ``cursor`` at the end."""
    ordering = paging.page_ordering(
        paging.PageRequest(page=1, page_size=1), total=1, column_sql=HISTORY_SORTS[query.column],
        descending=query.descending, tie_breakers=_TIE_BREAKERS,
    )  # fmt: skip
    names = {vehicle.id: vehicle.name for vehicle in scope.vehicles}
    zone_of = {vid: group.zone for group in scope.sites for vid in group.vehicle_ids}
    zones = {zone.key for zone in zone_of.values()}
    convention = CsvConvention.of(language)
    level_names = LEVEL_NAMES.get(language, {})
    buffer = io.StringIO()
    buffer.write("\ufeff")  # the byte order mark: Excel reads UTF-8 (umlauts) right, as in charts
    writer = csv.writer(buffer, delimiter=convention.separator, lineterminator="\r\n")
    with cursor:
        writer.writerow(csv_header(language, zones))
        sql = f"SELECT {_SELECT} {query.sql} ORDER BY {ordering.sql}"
        result = cursor.execute(sql, query.parameters)
        for rows in iter(lambda: result.fetchmany(CSV_CHUNK_ROWS), []):
            for row in rows:
                zone = zone_of.get(row[0], ZoneInfo("UTC"))
                start, end = (t.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S") for t in row[4:6])
                level = level_names.get(row[2], row[2])
                values = (
                    row[0],
                    names.get(row[0], ""),
                    row[1],
                    level,
                    row[3],
                    start,
                    end,
                    *row[6:],
                )
                cells = [convention.cell(value) for value in values]
                writer.writerow([*cells, zone.key] if len(zones) > 1 else cells)
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
        yield buffer.getvalue()  # the header, when no row follows
