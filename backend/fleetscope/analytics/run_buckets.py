"""The bucket of each row of ``SortedRuns`` in T: the window of its vehicle's site holding
its end.

One pass over the rows: each row's end hour looked up in a table of T's hours (the bucket of
a window covering the hour whole), and for the few rows in hours a window covers in part,
their end compared with the windows exactly. Runs by vehicle are marked over the ranges of
the site's vehicles; runs by name test each row's vehicle against the sites (skipped when
one site holds every vehicle of the rows).
"""

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fleetscope.analytics.fact_rows import Selection, SiteSlice
from fleetscope.analytics.sorted_runs import Ints, SortedRuns
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros

OUTSIDE = -1  # a row of no bucket
_PARTIAL = -2  # an hour T covers in part: the row's end is compared with the windows


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

    def mark(self, marked: npt.NDArray[np.int8], end_us: Ints) -> Ints:
        """Replace ``_PARTIAL`` in ``marked`` by the bucket of the window holding the row's
        end, or ``OUTSIDE``; the rows it replaced."""
        partial = np.flatnonzero(marked == _PARTIAL)
        if len(partial):
            at = end_us[partial]
            window = np.searchsorted(self.starts, at, side="right") - 1
            inside = (window >= 0) & (at < self.ends[np.maximum(window, 0)])
            marked[partial] = np.where(inside, self.buckets[window], OUTSIDE)
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


@dataclass(frozen=True, slots=True)
class RowBuckets:
    """The bucket of each row, and what sums a run's rows by hour."""

    buckets: npt.NDArray[np.int8]  # per row, ``OUTSIDE`` for none
    partial: Ints  # the rows of hours a window covers in part
    # Per site: its hour table and its runs, whose rows are all the site's; None when runs
    # hold rows of several sites or of vehicles outside them (runs by name, some vehicles).
    by_hour: list[tuple[npt.NDArray[np.int8], Ints]] | None


def buckets_of(runs: SortedRuns, selection: Selection) -> RowBuckets:
    """The bucket of every row: its vehicle's site's window holding its end."""
    found = np.full(len(runs.keys), OUTSIDE, dtype=np.int8)
    hours = len(runs.hour_prefix) - 1
    slices = [part for part in selection.slices if part.windows and part.vehicle_ids]
    if not len(runs.keys) or not slices:
        return RowBuckets(found, np.zeros(0, np.int64), [])
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
                return RowBuckets(marked, partial[0], [(table, every_run)])
            np.copyto(found, marked, where=sites == number)
    # Runs by name over several sites, or over vehicles outside them, hold other rows too.
    rows = np.concatenate([np.zeros(0, np.int64), *partial])
    return RowBuckets(found, rows, None if runs.vehicles is not None else by_hour)
