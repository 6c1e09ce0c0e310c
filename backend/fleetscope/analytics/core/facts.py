"""The fact rows of the selected vehicles in T as a parameterised subquery (for percentiles
and lists): a ``UNION ALL`` of one part per site (its own zone and shift), each row tagged with
its window's bucket; bounds on the time column let DuckDB skip row groups by zone maps."""

from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import TimeCell, Window, period_windows, split_hour_ranges
from fleetscope.analytics.core.plan import period_spans
from fleetscope.analytics.core.rollups import range_parameters

CURRENT = 0
PREVIOUS = 1
# Up to this many windows per site the bucket is a CASE; beyond, a range join.
_CASE_WINDOWS = 4
# Integer arithmetic: ``epoch()`` is a DOUBLE, and its cast to BIGINT rounds to the nearest.
_MICROSECONDS_PER_HOUR = 3_600_000_000


@dataclass(frozen=True, slots=True)
class SiteSlice:
    vehicle_ids: list[int]
    windows: list[tuple[Window, int]]  # (window, bucket), disjoint


@dataclass(frozen=True, slots=True)
class Selection:
    """T of the scope per site, for one or more buckets."""

    slices: list[SiteSlice]

    @property
    def empty(self) -> bool:
        return not any(part.windows and part.vehicle_ids for part in self.slices)

    @property
    def bounds(self) -> Window | None:
        windows = [w for part in self.slices for w, _ in part.windows]
        if not windows:
            return None
        return Window(min(w.start for w in windows), max(w.end for w in windows))


def select_periods(
    scope: AnalyticsScope,
    *,
    now: datetime,
    previous: bool = True,
    vehicle_id: int | None = None,
    cell: TimeCell | None = None,
) -> Selection:
    """T of every site for the period (``CURRENT``) and the previous period (``PREVIOUS``,
    like for like); ``vehicle_id``: only that one of the scope's vehicles; ``cell``: only
    T's instants in that heatmap cell."""
    spans = period_spans(scope, current=CURRENT, previous=PREVIOUS)[: 2 if previous else 1]
    slices = []
    for group in scope.sites:
        if group.excluded:
            continue
        windows = []
        for item in spans:
            until = item.until(group, now=now)
            own = period_windows(span=item.span, zone=group.zone, shift=group.shift, now=until)
            if cell is not None:
                own = cell.narrow(own, zone=group.zone, shift=group.shift)
            windows += [(window, item.bucket) for window in own]
        vehicle_ids = [v for v in group.vehicle_ids if vehicle_id in (None, v)]
        slices.append(SiteSlice(vehicle_ids, sorted(windows, key=lambda w: w[0])))
    return Selection(slices)


def _case(at: str, windows: list[tuple[Window, int]], parameters: list[Any]) -> str:
    """The bucket of the window holding ``f.{at}`` (NULL outside)."""
    parameters += [moment for window, _ in windows for moment in (window.start, window.end)]
    cases = " ".join(f"WHEN f.{at} >= ? AND f.{at} < ? THEN {bucket}" for _, bucket in windows)
    return f"CASE {cases} END" if windows else "NULL::INTEGER"


def _site_rows(part: SiteSlice, *, table: str, at: str, columns: str, parameters: list[Any]) -> str:
    windows = part.windows  # disjoint
    join, outside = "", True  # outside: whether rows outside every window get a NULL bucket
    if all(earlier.end == later.start for (earlier, _), (later, _) in pairwise(windows)):
        # One stretch of time (T without a shift, or one window): the WHERE bounds are T,
        # and the bucket is told apart at the inner boundaries only, without a NULL test.
        inner = " ".join(f"WHEN f.{at} < ? THEN {bucket}" for _, bucket in windows[:-1])
        parameters += [window.end for window, _ in windows[:-1]]
        bucket_of = f"CASE {inner} ELSE {windows[-1][1]} END" if inner else str(windows[-1][1])
        outside = False
    elif len(windows) <= _CASE_WINDOWS:
        bucket_of = _case(at, windows, parameters)
    else:
        hours = [(split_hour_ranges([window]), bucket) for window, bucket in windows]
        pieces = [(piece, bucket) for split, bucket in hours for piece in split.pieces]
        if len(pieces) > _CASE_WINDOWS:
            # Windows off the full hour (a shift starting 05:30): a range join, slower but exact.
            parameters += range_parameters(windows)
            join = (
                "JOIN (SELECT unnest(?::TIMESTAMPTZ[]) AS lo, unnest(?::TIMESTAMPTZ[]) AS hi, "
                f"unnest(?::INTEGER[]) AS bucket) w ON f.{at} >= w.lo AND f.{at} < w.hi "
            )
            bucket_of, outside = "w.bucket", False
        else:
            # Whole UTC hours by a hash join on the hour, the partial pieces (now) by a CASE,
            # whose parameters come first, as in the SQL text.
            bucket_of = f"coalesce(h.bucket, {_case(at, pieces, parameters)})"
            keys = [
                (int(whole.start.timestamp()) // 3600 + n, bucket)
                for split, bucket in hours
                for whole in split.ranges
                for n in range(int(whole.seconds) // 3600)
            ]
            parameters += [[key for key, _ in keys], [bucket for _, bucket in keys]]
            join = (
                "LEFT JOIN (SELECT unnest(?::BIGINT[]) AS hour_key, "
                "unnest(?::INTEGER[]) AS bucket) h "
                f"ON h.hour_key = epoch_us(f.{at}) // {_MICROSECONDS_PER_HOUR} "
            )
    first, last = min(w.start for w, _ in windows), max(w.end for w, _ in windows)
    parameters += [part.vehicle_ids, first, last]
    sql = (
        f"SELECT {columns}, {bucket_of} AS bucket FROM {table} f {join}"  # noqa: S608 - constants only
        f"WHERE list_contains(?::INTEGER[], f.vehicle_id) AND f.{at} >= ? AND f.{at} < ?"
    )
    return f"SELECT * FROM ({sql}) WHERE bucket IS NOT NULL" if outside else sql  # noqa: S608


def rows_in_periods(
    selection: Selection, *, table: str, at: str, columns: str
) -> tuple[str, list[Any]]:
    """``(sql, parameters)``: ``columns`` of ``table`` (alias ``f``) and ``bucket`` of the rows
    whose ``at`` lies in T (``table``, ``at``, ``columns``: constants of the caller)."""
    parts: list[str] = []
    parameters: list[Any] = []
    for part in selection.slices:
        if part.windows and part.vehicle_ids:
            parts.append(
                _site_rows(part, table=table, at=at, columns=columns, parameters=parameters)
            )
    if not parts:
        return f"SELECT {columns}, 0 AS bucket FROM {table} f WHERE false", []  # noqa: S608 - constants only
    return " UNION ALL ".join(f"({sql})" for sql in parts), parameters
