"""The fact rows of the selected vehicles that lie in T, as arrays, each with its bucket.

The companion of ``fact_rows.rows_in_periods`` for answers that add the rows up in NumPy:
each site's rows between its first and last instant come back in one plain read, and each
row is put in its window by binary search here. For the thousands of rows of 30 night
shifts (61 windows), DuckDB's join on the hour cost more than the read itself (charge
sessions: 6.5-9 ms against 2.5-3.5, measured).
"""

from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.fact_rows import Selection
from fleetscope.analytics.periods import Window
from fleetscope.facts.rawlog import to_micros

Ints = npt.NDArray[np.int64]
Arrays = dict[str, npt.NDArray[Any]]


def in_windows(positions: Ints, *, starts: Ints, ends: Ints) -> tuple[npt.NDArray[np.bool_], Ints]:
    """Which positions lie in one of the disjoint windows ``[starts, ends)`` (sorted by
    start), and the index of that window (meaningless where outside)."""
    window = np.searchsorted(starts, positions, side="right") - 1
    inside = window >= 0
    inside[inside] = positions[inside] < ends[window[inside]]
    return inside, window


def window_buckets(
    at_us: Ints, windows: list[tuple[Window, int]]
) -> tuple[npt.NDArray[np.bool_], Ints]:
    """Which instants ``at_us`` lie in one of the disjoint ``windows`` (sorted by start),
    and the bucket of each of those."""
    inside, window = in_windows(
        at_us,
        starts=np.array([to_micros(w.start) for w, _ in windows], np.int64),
        ends=np.array([to_micros(w.end) for w, _ in windows], np.int64),
    )
    return inside, np.array([bucket for _, bucket in windows], np.int64)[window[inside]]


def tagged(at_us: Ints, columns: Arrays, windows: list[tuple[Window, int]]) -> Arrays:
    """``columns`` of the rows whose instant (``at_us``, alike) lies in one of the disjoint
    ``windows`` (sorted by start), with ``bucket``: that window's."""
    inside, buckets = window_buckets(at_us, windows)
    kept: Arrays = {name: np.asarray(values)[inside] for name, values in columns.items()}
    kept["bucket"] = buckets
    return kept


def joined(parts: list[Arrays], empty: Arrays) -> Arrays:
    """The sites' arrays one after the other; ``empty`` (the columns without rows) and an
    empty ``bucket`` for no site."""
    if not parts:
        return {**empty, "bucket": np.empty(0, np.int64)}
    if len(parts) == 1:
        return parts[0]
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def arrays_in_periods(
    cursor: duckdb.DuckDBPyConnection, selection: Selection, *, table: str, at: str, columns: str
) -> Arrays:
    """``columns`` (SQL of ``table``, alias ``f``, each named) and ``bucket`` of the rows
    whose column ``at`` lies in T, site after site. ``table``, ``at`` and ``columns`` are
    constants of the caller, never user input; the columns must not be NULL."""
    parts: list[Arrays] = []
    for part in selection.slices:
        if not part.windows or not part.vehicle_ids:
            continue
        windows = sorted(part.windows, key=lambda item: item[0].start)
        fetched = cursor.execute(
            f"SELECT epoch_us(f.{at}) AS at_us, {columns} FROM {table} f "  # noqa: S608 - constants only
            f"WHERE list_contains(?::INTEGER[], f.vehicle_id) AND f.{at} >= ? AND f.{at} < ?",
            [part.vehicle_ids, windows[0][0].start, windows[-1][0].end],
        ).fetchnumpy()
        parts.append(tagged(np.asarray(fetched.pop("at_us"), np.int64), fetched, windows))
    if parts:
        return joined(parts, {})
    # The columns' names and types, without rows.
    empty = cursor.execute(f"SELECT {columns} FROM {table} f WHERE false").fetchnumpy()  # noqa: S608 - constants only
    return joined([], {name: np.asarray(values) for name, values in empty.items()})
