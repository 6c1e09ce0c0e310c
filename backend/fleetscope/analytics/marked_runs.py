"""The rows of one bucket of T among ``SortedRuns``: counts, sums and exact figures per run
and over unions of runs.

The marks are either prefix counts over every row (a long T) or the marked rows themselves,
ascending (a short T, gathered by hour): both answer "marked rows before an index" and "the
row of a rank", on which the rest is built:
- counts per run: the marked rows before its end less those before its start;
- a rank within a run: the row of that rank after the marked rows before the run, so the
  exact ``quantile_cont`` of a run is two lookups per quantile;
- the ranks of a union of runs (the fleet): by the value, bisected and interpolated as in
  ``sorted_durations``, counting the marks at or below it per run; over gathered rows, their
  values partitioned at the ranks;
- the weights summed per run: over stretches of whole hours from the runs' accumulated
  hour sums, plus the rows of hours T covers in part; where those do not apply, over the
  marked rows picked out (or, when more are marked than not, the totals less the others).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fleetscope.analytics.run_buckets import RowBuckets
from fleetscope.analytics.sorted_durations import (
    VALUE_BITS,
    VALUE_MASK,
    Figures,
    edge_positions,
    search_values,
    seconds_of,
    union_figures,
)
from fleetscope.analytics.sorted_runs import Floats, Ints, SortedRuns, sums_of_runs


@dataclass(frozen=True, slots=True)
class MarkedRuns:
    runs: SortedRuns
    # Which rows are marked, one of two ways:
    # - ``prefix[i]`` = marked rows before index i, when every row was marked; 32-bit while
    #   the rows allow (summing into them costs half of summing into 64 bits), so every
    #   value searched in it is cast to its type;
    # - ``rows``, the marked rows ascending, when they were gathered (a short T).
    prefix: npt.NDArray[Any] | None
    rows: Ints | None
    counts: Ints  # per run
    sums: Floats  # per run (columns): each weight summed

    @classmethod
    def of(
        cls, runs: SortedRuns, placed: RowBuckets, bucket: int, *, sums: bool = True
    ) -> "MarkedRuns":
        """The rows ``placed`` in ``bucket``; without ``sums`` the weights' sums stay 0."""
        no_sums = np.zeros((runs.weights.shape[1], len(runs.run_starts)))
        if placed.buckets is None:
            rows = placed.gathered_in(bucket)
            before = np.searchsorted(rows, np.append(runs.run_starts, len(runs.keys)))
            return cls(
                runs=runs,
                prefix=None,
                rows=rows,
                counts=np.diff(before).astype(np.int64),
                sums=_sums(runs, placed, bucket, rows=rows) if sums else no_sums,
            )
        marks = placed.buckets == bucket
        prefix: npt.NDArray[Any] = np.empty(
            len(marks) + 1, dtype=np.int32 if len(marks) < 1 << 31 else np.int64
        )
        prefix[0] = 0
        np.cumsum(marks, out=prefix[1:], dtype=prefix.dtype)
        return cls(
            runs=runs,
            prefix=prefix,
            rows=None,
            counts=(prefix[runs.run_ends] - prefix[runs.run_starts]).astype(np.int64),
            sums=(
                _sums(runs, placed, bucket, marks=marks, marked=int(prefix[-1]))
                if sums
                else no_sums
            ),
        )

    def _before(self, positions: Ints) -> Ints:
        """The marked rows before each index of ``positions`` (any shape)."""
        if self.rows is not None:
            found: Ints = np.searchsorted(self.rows, positions, side="left")
            return found
        assert self.prefix is not None
        counted: Ints = self.prefix[positions].astype(np.int64)
        return counted

    def _row_of(self, ranks: Ints) -> Ints:
        """The index of the marked row of each 0-based rank among all marked rows."""
        if self.rows is not None:
            return self.rows[ranks]
        assert self.prefix is not None
        wanted = (ranks + 1).astype(self.prefix.dtype)
        found: Ints = np.searchsorted(self.prefix, wanted, side="left")
        return found - 1

    def present(self) -> Ints:
        """The runs with marked rows."""
        found: Ints = np.flatnonzero(self.counts > 0)
        return found

    def _index_of_rank(self, runs_at: Ints, ranks: Ints) -> Ints:
        """The index of the marked row of 0-based ``rank`` within each run."""
        return self._row_of(self._before(self.runs.run_starts[runs_at]) + ranks)

    def _histograms(self, runs_at: Ints) -> Ints:
        """Marked rows per cycle-time bucket, one row per run."""
        runs = self.runs
        positions = edge_positions(
            runs.keys,
            runs.run_codes[runs_at] << VALUE_BITS,
            runs.run_starts[runs_at],
            runs.run_ends[runs_at],
        )
        counted: Ints = np.diff(self._before(positions), axis=1)
        return counted

    def figures(
        self, runs_at: Ints, quantiles: Sequence[float], *, histogram: bool = True
    ) -> list[Figures]:
        """The figures of each run (each with marked rows); without ``histogram`` the
        histograms stay empty."""
        counts = self.counts[runs_at]
        last = counts - 1
        values = []
        for quantile in quantiles:
            position = quantile * last
            below = np.floor(position).astype(np.int64)
            low = seconds_of(self.runs.keys[self._index_of_rank(runs_at, below)])
            above = np.minimum(below + 1, last)
            high = seconds_of(self.runs.keys[self._index_of_rank(runs_at, above)])
            values.append((low + (high - low) * (position - below)).tolist())
        maxima = seconds_of(self.runs.keys[self._index_of_rank(runs_at, last)]).tolist()
        histograms = self._histograms(runs_at).tolist() if histogram else [[]] * len(runs_at)
        return [
            Figures([column[i] for column in values], maxima[i], histograms[i])
            for i in range(len(runs_at))
        ]

    def _count_at_or_below(self, runs_at: Ints, values: Ints) -> Ints:
        """Per value (rows): the marked rows of all ``runs_at`` with a packed value at or
        below it."""
        runs = self.runs
        starts, ends = runs.run_starts[runs_at], runs.run_ends[runs_at]
        bases = runs.run_codes[runs_at] << VALUE_BITS
        at = np.searchsorted(runs.keys, bases[None, :] + values[:, None], side="right")
        at = np.clip(at, starts, ends)
        counted: Ints = (self._before(at) - self._before(starts)).sum(axis=1, dtype=np.int64)
        return counted

    def _select(self, runs_at: Ints, ranks: list[int]) -> list[float]:
        """The value of each 0-based rank in the union of the runs' marked rows."""
        keys = self.runs.keys
        if self.rows is not None:  # a short T: its rows' values, partly sorted, are cheaper
            return [float(v) for v in seconds_of(self._union_keys(runs_at, ranks))]
        filled = runs_at[self.counts[runs_at] > 0]
        firsts = self._index_of_rank(filled, np.zeros(len(filled), np.int64))
        lasts = self._index_of_rank(filled, self.counts[filled] - 1)
        found = search_values(
            ranks,
            low=int((keys[firsts] & VALUE_MASK).min()),
            high=int((keys[lasts] & VALUE_MASK).max()),
            total=int(self.counts[filled].sum()),
            count_at_or_below=lambda values: self._count_at_or_below(filled, values),
        )
        return [float(v) for v in seconds_of(found)]

    def _union_keys(self, runs_at: Ints, ranks: list[int]) -> Ints:
        """The keys of the given ``ranks`` among the gathered rows of the runs, by value."""
        assert self.rows is not None
        firsts = self._before(self.runs.run_starts[runs_at]).tolist()
        lasts = self._before(self.runs.run_ends[runs_at]).tolist()
        picked = np.concatenate(
            [np.zeros(0, np.int64)]
            + [self.rows[a:b] for a, b in zip(firsts, lasts, strict=True) if a < b]
        )
        values = self.runs.keys[picked] & VALUE_MASK
        values.partition(ranks)
        found: Ints = values[ranks]
        return found

    def union(
        self, runs_at: Ints, quantiles: Sequence[float], *, histogram: bool = True
    ) -> Figures | None:
        """The figures of the runs' marked rows together."""
        total = int(self.counts[runs_at].sum())
        if total == 0:
            return None
        return union_figures(
            total,
            quantiles,
            seconds_at=lambda ranks: self._select(runs_at, ranks),
            histogram=(
                [int(n) for n in self._histograms(runs_at).sum(axis=0).tolist()]
                if histogram
                else []
            ),
        )


def marked_counts(runs: SortedRuns, placed: RowBuckets, bucket: int) -> Ints:
    """Per run: its rows ``placed`` in ``bucket``, for a bucket that needs no ranks (a
    count per run slice costs a fraction of the prefix counts)."""
    if placed.buckets is None:
        before = np.searchsorted(
            placed.gathered_in(bucket), np.append(runs.run_starts, len(runs.keys))
        )
        counted: Ints = np.diff(before).astype(np.int64)
        return counted
    marks = placed.buckets == bucket
    return np.array(
        [
            np.count_nonzero(marks[start:end])
            for start, end in zip(runs.run_starts.tolist(), runs.run_ends.tolist(), strict=True)
        ],
        dtype=np.int64,
    )


def _sums(
    runs: SortedRuns,
    placed: RowBuckets,
    bucket: int,
    *,
    rows: Ints | None = None,
    marks: npt.NDArray[np.bool_] | None = None,
    marked: int = 0,
) -> Floats:
    """Per run (columns): each weight summed over the rows in ``bucket``. From the runs' hour
    sums where they apply; else over the gathered ``rows``, or the fewer of the ``marks``'
    marked and unmarked rows picked out and summed run by run (when more are marked than
    not, the totals less the sums over the others)."""
    width = runs.weights.shape[1]
    if width == 0 or len(runs.run_starts) == 0:
        return np.zeros((width, len(runs.run_starts)))
    if runs.hour_sums is not None and placed.by_hour is not None:
        return _sums_by_hour(runs, runs.hour_sums, placed, bucket).T
    if rows is not None:
        return _picked_sums(runs, rows).T
    assert marks is not None
    fewer = marked <= len(marks) - marked
    chosen = np.flatnonzero(marks if fewer else ~marks)
    sums = _picked_sums(runs, chosen)
    found: Floats = (sums if fewer else runs.totals - sums).T
    return found


def _picked_sums(runs: SortedRuns, rows: Ints) -> Floats:
    """Per run (rows): the weights of ``rows`` (ascending) summed."""
    return sums_of_runs(np.take(runs.weights, rows, axis=0), np.searchsorted(rows, runs.run_starts))


def _sums_by_hour(runs: SortedRuns, hour_sums: Floats, placed: RowBuckets, bucket: int) -> Floats:
    """Per run (rows): the weights of the rows in ``bucket``: for each site, over the
    stretches of its whole hours in the bucket (the difference of the accumulated sums at
    their ends), plus the rows of hours a window covers in part, picked out."""
    assert placed.by_hour is not None
    sums = np.zeros((len(runs.run_starts), runs.weights.shape[1]))
    for table, site_runs in placed.by_hour:
        inside = np.concatenate([[False], table == bucket, [False]])
        edges = np.flatnonzero(np.diff(inside.view(np.int8)))
        starts, ends = edges[0::2], edges[1::2]
        if len(starts):
            stretches = hour_sums[ends][:, site_runs] - hour_sums[starts][:, site_runs]
            sums[site_runs] += stretches.sum(axis=0)
    partial = placed.partial[placed.partial_buckets == bucket]
    if len(partial):
        sums += _picked_sums(runs, np.sort(partial))
    return sums
