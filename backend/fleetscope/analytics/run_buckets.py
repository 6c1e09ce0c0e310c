"""The rows of ``SortedRuns`` in each bucket of T: those whose end lies in a window of their
vehicle's site.

Two ways, by the share of the rows in T's bounds:
- a short T gathers its rows from the runs' ``hour_order``: the slices of its whole hours,
  plus the rows of hours a window covers in part, their end compared with the windows
  exactly; sorted, they are the marked rows of each bucket (30 days of a year: 3 ms);
- a long T marks every row with its bucket in one pass: each row's end hour looked up in a
  table of T's hours, the rows of partly covered hours compared exactly.
Runs by vehicle take only the rows of the site's vehicles; runs by name test each row's
vehicle against the sites (skipped when one site holds every vehicle of the rows).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fleetscope.analytics.fact_rows import Selection, SiteSlice
from fleetscope.analytics.sorted_durations import VALUE_BITS
from fleetscope.analytics.sorted_runs import Ints, SortedRuns
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros

OUTSIDE = -1  # a row of no bucket
# Gathering and sorting T's rows costs about what marking all rows does at a fifth of them.
GATHER_BELOW_SHARE = 0.2
GROUP_SHIFT = VALUE_BITS + 2  # a key's vehicle or name, above its class
_PARTIAL = -2  # an hour T covers in part: the row's end is compared with the windows
RowIndex = npt.NDArray[np.signedinteger[Any]]


def _hour_table(part: SiteSlice, *, first_hour: int, hours: int) -> npt.NDArray[np.int8]:
    """Per hour from ``first_hour`` (``hours`` of them: up to the last row's end): the
    bucket of a window covering it whole, ``_PARTIAL`` for an hour a window covers in part
    (windows are disjoint), else ``OUTSIDE``."""
    table = np.full(hours, OUTSIDE, dtype=np.int8)
    for window, bucket in part.windows:
        start, end = to_micros(window.start), to_micros(window.end)
        whole_from = -(-start // MICROS_PER_HOUR) - first_hour
        whole_to = end // MICROS_PER_HOUR - first_hour
        if whole_from < whole_to:
            table[max(whole_from, 0) : max(min(whole_to, hours), 0)] = bucket
        for hour in {start // MICROS_PER_HOUR, (end - 1) // MICROS_PER_HOUR}:
            if 0 <= hour - first_hour < hours and not (whole_from <= hour - first_hour < whole_to):
                table[hour - first_hour] = _PARTIAL
    return table


def _ranges(runs: SortedRuns, chosen: Ints) -> list[tuple[int, int]]:
    """The index ranges of the ``chosen`` runs, adjacent runs joined."""
    ranges: list[tuple[int, int]] = []
    for start, end in zip(
        runs.run_starts[chosen].tolist(), runs.run_ends[chosen].tolist(), strict=True
    ):
        if ranges and ranges[-1][1] == start:
            ranges[-1] = (ranges[-1][0], end)
        else:
            ranges.append((start, end))
    return ranges


class _Windows:
    """One site's windows, sorted, to place the rows of hours they cover in part."""

    def __init__(self, part: SiteSlice) -> None:
        windows = sorted(part.windows, key=lambda tagged: tagged[0].start)
        self.starts = np.array([to_micros(w.start) for w, _ in windows], dtype=np.int64)
        self.ends = np.array([to_micros(w.end) for w, _ in windows], dtype=np.int64)
        self.buckets = np.array([bucket for _, bucket in windows], dtype=np.int8)

    def bucket_of(self, end_us: Ints) -> npt.NDArray[np.int8]:
        """The bucket of the window holding each end, or ``OUTSIDE``."""
        window = np.searchsorted(self.starts, end_us, side="right") - 1
        inside = (window >= 0) & (end_us < self.ends[np.maximum(window, 0)])
        found: npt.NDArray[np.int8] = np.where(inside, self.buckets[window], OUTSIDE).astype(
            np.int8
        )
        return found

    def mark(self, marked: npt.NDArray[np.int8], end_us: Ints) -> Ints:
        """Replace ``_PARTIAL`` in ``marked`` by the bucket of the window holding the row's
        end, or ``OUTSIDE``; the rows it replaced."""
        partial = np.flatnonzero(marked == _PARTIAL)
        if len(partial):
            marked[partial] = self.bucket_of(end_us[partial])
        return partial


def _site_of_rows(
    vehicles: npt.NDArray[np.int32], seen: Ints, slices: list[SiteSlice]
) -> npt.NDArray[np.int8] | None:
    """The slice of each row's vehicle (-1: none), or None when one slice holds every
    vehicle ``seen`` in the rows (then no row needs the test)."""
    ids = np.array([v for part in slices for v in part.vehicle_ids], dtype=np.int64)
    numbers = np.array(
        [n for n, part in enumerate(slices) for _ in part.vehicle_ids], dtype=np.int8
    )
    if len(slices) == 1 and bool(np.isin(seen, ids).all()):
        return None
    order = np.argsort(ids)
    ids, numbers = ids[order], numbers[order]
    # Ids are small in practice: a table by id reads faster than a search per row.
    if len(seen) and int(seen.max()) < 1 << 20:
        table = np.full(int(seen.max()) + 1, -1, dtype=np.int8)
        known = ids[ids < len(table)]
        table[known] = numbers[: len(known)]
        return np.take(table, vehicles)
    at = np.minimum(np.searchsorted(ids, vehicles), len(ids) - 1)
    return np.where(ids[at] == vehicles, numbers[at], -1).astype(np.int8)


def _of_vehicles(values: Ints | npt.NDArray[np.int32], ids: list[int]) -> npt.NDArray[np.bool_]:
    """Whether each of ``values`` is one of ``ids``."""
    if len(values) and ids and max(ids) < 1 << 20 and int(values.max()) < 1 << 20:
        table = np.zeros(max(max(ids), int(values.max())) + 1, dtype=np.bool_)
        table[ids] = True
        return np.take(table, values)
    return np.isin(values, ids)


def _site_rows(runs: SortedRuns, part: SiteSlice) -> Callable[[RowIndex], RowIndex] | None:
    """What keeps, of some rows, those of the site's vehicles; None when all rows are."""
    if runs.vehicles is None:
        groups = runs.run_groups
        if _of_vehicles(groups, part.vehicle_ids).all():
            return None
        return lambda rows: rows[_of_vehicles(runs.keys[rows] >> GROUP_SHIFT, part.vehicle_ids)]
    if _of_vehicles(runs.vehicles_seen, part.vehicle_ids).all():
        return None
    vehicles = runs.vehicles
    return lambda rows: rows[_of_vehicles(vehicles[rows], part.vehicle_ids)]


def _rows_of_hours(runs: SortedRuns, order: RowIndex, chosen: npt.NDArray[np.bool_]) -> RowIndex:
    """The rows ending in the ``chosen`` hours (from ``first_hour``), unsorted."""
    edges = np.flatnonzero(np.diff(np.concatenate([[False], chosen, [False]]).view(np.int8)))
    starts = runs.hour_prefix[edges[0::2]].tolist()
    ends = runs.hour_prefix[edges[1::2]].tolist()
    return np.concatenate(
        [np.zeros(0, order.dtype)] + [order[a:b] for a, b in zip(starts, ends, strict=True)]
    )


@dataclass(frozen=True, slots=True)
class RowBuckets:
    """The rows in each bucket, and what sums a run's rows by hour."""

    # Per row its bucket (``OUTSIDE`` for none) when every row was marked; None when the
    # rows of each bucket were gathered instead
    buckets: npt.NDArray[np.int8] | None
    gathered: dict[int, Ints]  # per bucket its rows, ascending (when gathered)
    partial: Ints  # the rows of hours a window covers in part
    partial_buckets: npt.NDArray[np.int8]  # theirs
    # Per site: its hour table and its runs, whose rows are all the site's; None when runs
    # hold rows of several sites or of vehicles outside them (runs by name, some vehicles).
    by_hour: list[tuple[npt.NDArray[np.int8], Ints]] | None

    def gathered_in(self, bucket: int) -> Ints:
        """The gathered rows in ``bucket``, ascending."""
        return self.gathered.get(bucket, np.zeros(0, np.int64))


def buckets_of(runs: SortedRuns, selection: Selection) -> RowBuckets:
    """The rows in each bucket: those whose end lies in a window of their vehicle's site."""
    slices = [part for part in selection.slices if part.windows and part.vehicle_ids]
    bounds = selection.bounds
    if not len(runs.keys) or not slices or bounds is None:
        none = np.zeros(0, np.int64)
        return RowBuckets(None, {}, none, none.astype(np.int8), [])
    if runs.share_between(bounds.start, bounds.end) < GATHER_BELOW_SHARE:
        return _gathered(runs, slices)
    return _marked(runs, slices)


def _gathered(runs: SortedRuns, slices: list[SiteSlice]) -> RowBuckets:
    """The rows of each bucket gathered from the runs' ``hour_order`` and sorted."""
    order = runs.hour_order.rows()
    hours = len(runs.hour_prefix) - 1
    found: dict[int, list[Ints]] = {}
    partial: list[Ints] = []
    partial_buckets: list[npt.NDArray[np.int8]] = []
    by_hour: list[tuple[npt.NDArray[np.int8], Ints]] = []
    every_site_by_hour = True
    for part in slices:
        table = _hour_table(part, first_hour=runs.first_hour, hours=hours)
        keep = _site_rows(runs, part)
        for bucket in sorted({bucket for _, bucket in part.windows}):
            rows = _rows_of_hours(runs, order, table == bucket)
            found.setdefault(bucket, []).append(keep(rows) if keep else rows)
        rows = _rows_of_hours(runs, order, table == _PARTIAL)
        rows = keep(rows) if keep else rows
        buckets = _Windows(part).bucket_of(runs.end_us[rows])
        for bucket in np.unique(buckets[buckets != OUTSIDE]).tolist():
            found.setdefault(bucket, []).append(rows[buckets == bucket])
        partial.append(rows)
        partial_buckets.append(buckets)
        if runs.vehicles is None:
            by_hour.append((table, np.flatnonzero(np.isin(runs.run_groups, part.vehicle_ids))))
        elif len(slices) == 1 and keep is None:
            by_hour.append((table, np.arange(len(runs.run_codes))))
        else:  # runs by name holding rows of other sites or vehicles
            every_site_by_hour = False
    return RowBuckets(
        buckets=None,
        gathered={
            bucket: np.sort(np.concatenate(parts)).astype(np.int64)
            for bucket, parts in found.items()
        },
        partial=np.concatenate(partial).astype(np.int64),
        partial_buckets=np.concatenate(partial_buckets),
        by_hour=by_hour if every_site_by_hour else None,
    )


def _marked(runs: SortedRuns, slices: list[SiteSlice]) -> RowBuckets:
    """The bucket of every row, in one pass over them."""
    found = np.full(len(runs.keys), OUTSIDE, dtype=np.int8)
    hours = len(runs.hour_prefix) - 1
    sites = (
        None if runs.vehicles is None else _site_of_rows(runs.vehicles, runs.vehicles_seen, slices)
    )
    partial: list[Ints] = []
    by_hour: list[tuple[npt.NDArray[np.int8], Ints]] = []
    for number, part in enumerate(slices):
        table = _hour_table(part, first_hour=runs.first_hour, hours=hours)
        windows = _Windows(part)
        if runs.vehicles is None:  # runs by vehicle: the ranges of the site's vehicles
            site_runs = np.flatnonzero(np.isin(runs.run_groups, part.vehicle_ids))
            for start, end in _ranges(runs, site_runs):
                marked = np.take(table, runs.end_hour[start:end])
                partial.append(start + windows.mark(marked, runs.end_us[start:end]))
                found[start:end] = marked
            by_hour.append((table, site_runs))
        else:
            marked = np.take(table, runs.end_hour)
            partial.append(windows.mark(marked, runs.end_us))
            if sites is None:
                every_run = np.arange(len(runs.run_codes))
                return RowBuckets(marked, {}, partial[0], marked[partial[0]], [(table, every_run)])
            np.copyto(found, marked, where=sites == number)
    # Runs by name over several sites, or over vehicles outside them, hold other rows too.
    rows = np.concatenate([np.zeros(0, np.int64), *partial])
    return RowBuckets(found, {}, rows, found[rows], None if runs.vehicles is not None else by_hour)
