"""The orders of the store in memory, sorted by (vehicle, outcome, cycle time): the order
figures of long periods without reading and sorting the orders of T on every request.

Over a year, ``order_summary`` reads three million orders from DuckDB and sorts them for
every answer (about 125 ms before the route). Here they are read and sorted once; each
answer then only marks the orders of T (their end hour looked up in a table of T's hours,
the few in hours T covers in part compared with its windows exactly) and counts along the
sorted runs, one run per vehicle and outcome:
- counts and sums per run: prefix counts of the marks and sums of the marked values;
- a rank within a run: the position where the prefix count reaches it, so the exact
  ``quantile_cont`` of each vehicle is two lookups per quantile;
- the fleet's ranks (the union of runs): by the value, bisected and interpolated as in
  ``sorted_durations``, counting the marks at or below it per run.
Every figure equals ``summarize_orders``'s (sums of paused and waiting time up to the order
of floating-point additions).

The store only appends orders while it serves (rebuilds and merges run offline, and change
its ``generation``), so the orders of a later snapshot are those held here plus the rows
with a higher ``rowid``: a reader holding more reads only those and merges them in.
"""

from dataclasses import dataclass
from datetime import datetime

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.fact_rows import Selection, SiteSlice
from fleetscope.analytics.order_summary import (
    CYCLE_QUANTILES,
    OUTCOME_CODE,
    OUTCOMES,
    Key,
    OrderSummary,
)
from fleetscope.analytics.sorted_durations import (
    VALUE_BITS,
    VALUE_MASK,
    VALUE_OFFSET,
    Figures,
    edge_positions,
    search_values,
    seconds_of,
    union_figures,
)
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

_MAX_VEHICLE = 1 << (63 - VALUE_BITS - 2)
_OUTSIDE = -1  # an order of no bucket
_PARTIAL = -2  # an hour T covers in part: the order's end is compared with the windows
_COLUMNS = (
    f"vehicle_id, {OUTCOME_CODE} AS outcome, "
    "epoch_us(end_at) - epoch_us(start_at) AS cycle_us, epoch_us(end_at) AS end_us, "
    "paused_s, waiting_s"
)


@dataclass(frozen=True, slots=True)
class OrderRuns:
    """Orders with ``rowid`` below ``next_rowid``, sorted by key ``(vehicle * 4 + outcome) << 40
    | cycle + 2**39`` (``sorted_durations``'s packing), with their end and times alongside.
    """

    next_rowid: int  # above every order's rowid: where newer orders begin
    keys: Ints
    end_us: Ints
    end_hour: npt.NDArray[np.int32]  # hours after ``first_hour``
    first_hour: int  # since the epoch: the earliest order's end
    paused: Floats
    waiting: Floats
    run_codes: Ints  # vehicle * 4 + outcome of each run, ascending
    run_starts: Ints  # the runs cover the arrays one after the other
    run_ends: Ints
    run_of: npt.NDArray[np.int32]  # each order's run
    totals: Floats  # per run: paused, waiting and cycle time (µs) summed, as rows
    hour_prefix: Ints  # orders ending before each hour from ``first_hour``

    @classmethod
    def read(cls, cursor: duckdb.DuckDBPyConnection, *, since_row: int = 0) -> "OrderRuns | None":
        """The orders of the cursor's snapshot with ``rowid >= since_row``; None when one
        does not fit the packing (a vehicle id from 2**21, a cycle of 6.4 days or more)."""
        columns = cursor.execute(
            f"SELECT {_COLUMNS}, rowid FROM orders WHERE rowid >= ?",  # noqa: S608 - constants only
            [since_row],
        ).fetchnumpy()
        vehicles = np.asarray(columns["vehicle_id"], dtype=np.int64)
        cycles = np.asarray(columns["cycle_us"], dtype=np.int64)
        if len(vehicles) and (
            int(vehicles.min()) < 0
            or int(vehicles.max()) >= _MAX_VEHICLE
            or max(-int(cycles.min()), int(cycles.max())) >= VALUE_OFFSET
        ):
            return None
        codes = vehicles * 4 + np.asarray(columns["outcome"], dtype=np.int64)
        keys = (codes << VALUE_BITS) | (cycles + VALUE_OFFSET)
        order = np.argsort(keys, kind="stable")
        rowids = np.asarray(columns["rowid"], dtype=np.int64)
        return cls._of_sorted(
            next_rowid=int(rowids.max()) + 1 if len(rowids) else since_row,
            keys=keys[order],
            end_us=np.asarray(columns["end_us"], dtype=np.int64)[order],
            paused=np.asarray(columns["paused_s"], dtype=np.float64)[order],
            waiting=np.asarray(columns["waiting_s"], dtype=np.float64)[order],
        )

    @classmethod
    def _of_sorted(
        cls, *, next_rowid: int, keys: Ints, end_us: Ints, paused: Floats, waiting: Floats
    ) -> "OrderRuns":
        codes = keys >> VALUE_BITS
        starts = np.flatnonzero(np.diff(codes, prepend=-1)).astype(np.int64)
        hours = end_us // MICROS_PER_HOUR
        first_hour = int(hours.min()) if len(hours) else 0
        end_hour = (hours - first_hour).astype(np.int32)
        run_of = (np.cumsum(np.diff(codes, prepend=codes[:1]) != 0)).astype(np.int32)
        cycles = ((keys & VALUE_MASK) - VALUE_OFFSET).astype(np.float64)
        return cls(
            next_rowid=next_rowid,
            keys=keys,
            end_us=end_us,
            end_hour=end_hour,
            first_hour=first_hour,
            paused=paused,
            waiting=waiting,
            run_codes=codes[starts],
            run_starts=starts,
            run_ends=np.append(starts[1:], len(keys))[: len(starts)].astype(np.int64),
            run_of=run_of,
            totals=np.stack(
                [
                    np.bincount(run_of, weights=column, minlength=len(starts))
                    for column in (paused, waiting, cycles)
                ]
            ),
            hour_prefix=np.concatenate([[0], np.cumsum(np.bincount(end_hour))]).astype(np.int64),
        )

    def merged(self, newer: "OrderRuns") -> "OrderRuns":
        """These orders and ``newer`` (read ``since_row=self.next_rowid``) as one."""
        at = np.searchsorted(self.keys, newer.keys, side="right")
        return OrderRuns._of_sorted(
            next_rowid=newer.next_rowid,
            keys=np.insert(self.keys, at, newer.keys),
            end_us=np.insert(self.end_us, at, newer.end_us),
            paused=np.insert(self.paused, at, newer.paused),
            waiting=np.insert(self.waiting, at, newer.waiting),
        )

    def share_between(self, start: datetime, end: datetime) -> float:
        """About the share of the orders ending in [start, end), to the hour (a cost
        estimate)."""
        if not len(self.keys):
            return 0.0
        last = len(self.hour_prefix) - 1
        first, after = (
            min(max(hour - self.first_hour, 0), last)
            for hour in (to_micros(start) // MICROS_PER_HOUR, -(-to_micros(end) // MICROS_PER_HOUR))
        )
        return int(self.hour_prefix[after] - self.hour_prefix[first]) / len(self.keys)


def _hour_table(part: SiteSlice, *, first_hour: int, hours: int) -> npt.NDArray[np.int8]:
    """Per hour from ``first_hour`` (``hours`` of them: up to the last order's end): the
    bucket of a window covering it whole, ``_PARTIAL`` for an hour a window covers in part
    (windows are disjoint), else ``_OUTSIDE``."""
    table = np.full(hours, _OUTSIDE, dtype=np.int8)
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


def _ranges(runs: OrderRuns, vehicle_ids: list[int]) -> list[tuple[int, int]]:
    """The index ranges of the vehicles' runs, adjacent runs joined."""
    chosen = np.flatnonzero(np.isin(runs.run_codes >> 2, np.asarray(vehicle_ids, np.int64)))
    ranges: list[tuple[int, int]] = []
    for start, end in zip(
        runs.run_starts[chosen].tolist(), runs.run_ends[chosen].tolist(), strict=True
    ):
        if ranges and ranges[-1][1] == start:
            ranges[-1] = (ranges[-1][0], end)
        else:
            ranges.append((start, end))
    return ranges


def buckets_of(runs: OrderRuns, selection: Selection) -> npt.NDArray[np.int8]:
    """The bucket of every order (``_OUTSIDE`` for none): its vehicle's site's window
    holding its end."""
    found = np.full(len(runs.keys), _OUTSIDE, dtype=np.int8)
    hours = len(runs.hour_prefix) - 1
    for part in selection.slices:
        if not (part.windows and part.vehicle_ids):
            continue
        table = _hour_table(part, first_hour=runs.first_hour, hours=hours)
        windows = sorted(part.windows, key=lambda tagged: tagged[0].start)
        starts = np.array([to_micros(w.start) for w, _ in windows], dtype=np.int64)
        ends = np.array([to_micros(w.end) for w, _ in windows], dtype=np.int64)
        window_buckets = np.array([bucket for _, bucket in windows], dtype=np.int8)
        for start, end in _ranges(runs, part.vehicle_ids):
            marked = np.take(table, runs.end_hour[start:end])
            partial = np.flatnonzero(marked == _PARTIAL)
            if len(partial):
                at = runs.end_us[start:end][partial]
                window = np.searchsorted(starts, at, side="right") - 1
                inside = (window >= 0) & (at < ends[np.maximum(window, 0)])
                marked[partial] = np.where(inside, window_buckets[window], _OUTSIDE)
            found[start:end] = marked
    return found


@dataclass(frozen=True, slots=True)
class _Marked:
    """The orders of one bucket: prefix counts of the marks and sums per run."""

    runs: OrderRuns
    prefix: Ints  # prefix[i] = marked orders before index i
    counts: Ints  # per run
    sums: Floats  # per run (columns): paused, waiting, cycle time in µs (whole numbers)

    @classmethod
    def of(cls, runs: OrderRuns, marks: npt.NDArray[np.bool_]) -> "_Marked":
        prefix = np.zeros(len(marks) + 1, dtype=np.int64)
        np.cumsum(marks, out=prefix[1:])
        marked = int(prefix[-1])
        return cls(
            runs=runs,
            prefix=prefix,
            counts=prefix[runs.run_ends] - prefix[runs.run_starts],
            sums=_sums(runs, marks, marked=marked),
        )

    def _index_of_rank(self, runs_at: Ints, ranks: Ints) -> Ints:
        """The index of the marked order of 0-based ``rank`` within each run."""
        wanted = self.prefix[self.runs.run_starts[runs_at]] + ranks + 1
        return np.searchsorted(self.prefix, wanted, side="left") - 1

    def _histograms(self, runs_at: Ints) -> Ints:
        """Marked orders per cycle-time bucket, one row per run."""
        runs = self.runs
        positions = edge_positions(
            runs.keys,
            runs.run_codes[runs_at] << VALUE_BITS,
            runs.run_starts[runs_at],
            runs.run_ends[runs_at],
        )
        counted: Ints = np.diff(self.prefix[positions], axis=1)
        return counted

    def figures(self, runs_at: Ints) -> list[Figures]:
        """The cycle figures of each run (each with marked orders)."""
        counts = self.counts[runs_at]
        last = counts - 1
        values = []
        for quantile in CYCLE_QUANTILES:
            position = quantile * last
            below = np.floor(position).astype(np.int64)
            low = seconds_of(self.runs.keys[self._index_of_rank(runs_at, below)])
            above = np.minimum(below + 1, last)
            high = seconds_of(self.runs.keys[self._index_of_rank(runs_at, above)])
            values.append((low + (high - low) * (position - below)).tolist())
        maxima = seconds_of(self.runs.keys[self._index_of_rank(runs_at, last)]).tolist()
        histograms = self._histograms(runs_at).tolist()
        return [
            Figures([column[i] for column in values], maxima[i], histograms[i])
            for i in range(len(runs_at))
        ]

    def _count_at_or_below(self, runs_at: Ints, values: Ints) -> Ints:
        """Per value (rows): the marked orders of all ``runs_at`` with a packed value at or
        below it."""
        runs = self.runs
        starts, ends = runs.run_starts[runs_at], runs.run_ends[runs_at]
        bases = runs.run_codes[runs_at] << VALUE_BITS
        at = np.searchsorted(runs.keys, bases[None, :] + values[:, None], side="right")
        at = np.clip(at, starts, ends)
        counted: Ints = (self.prefix[at] - self.prefix[starts]).sum(axis=1)
        return counted

    def _select(self, runs_at: Ints, ranks: list[int]) -> list[float]:
        """The value of each 0-based rank in the union of the runs' marked orders."""
        keys = self.runs.keys
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

    def union(self, runs_at: Ints) -> Figures | None:
        """The cycle figures of the runs' marked orders together (the fleet)."""
        total = int(self.counts[runs_at].sum())
        if total == 0:
            return None
        return union_figures(
            total,
            CYCLE_QUANTILES,
            seconds_at=lambda ranks: self._select(runs_at, ranks),
            histogram=[int(n) for n in self._histograms(runs_at).sum(axis=0).tolist()],
        )


def _sums(runs: OrderRuns, marks: npt.NDArray[np.bool_], *, marked: int) -> Floats:
    """Per run (columns): paused, waiting and cycle time (µs) summed over the marked
    orders, or when more are marked than not (a year of all shifts marks nearly every
    order), the totals less the sums over the others. Picking the fewer out and counting
    them per run (``bincount``) costs less than a pass over every order per column."""
    if len(runs.run_starts) == 0:
        return np.zeros((3, 0))
    others = len(marks) - marked
    fewer = marked <= others
    chosen = np.flatnonzero(marks if fewer else ~marks)
    of_run = runs.run_of[chosen]
    cycles = ((runs.keys[chosen] & VALUE_MASK) - VALUE_OFFSET).astype(np.float64)
    sums: Floats = np.stack(
        [
            np.bincount(of_run, weights=column, minlength=len(runs.run_starts))
            for column in (runs.paused[chosen], runs.waiting[chosen], cycles)
        ]
    )
    return sums if fewer else runs.totals - sums


def _summaries(marked: _Marked, bucket: int, *, by_vehicle: bool) -> dict[Key, OrderSummary]:
    """Per (vehicle, bucket) with ``by_vehicle`` and per (None, bucket): as
    ``summarize_orders(key="vehicle_id", fleet=True)``, or ``key=None``."""
    runs = marked.runs
    present = np.flatnonzero(marked.counts > 0)
    outcomes = runs.run_codes & 3
    vehicles = (runs.run_codes >> 2).tolist()
    fleet = OrderSummary()
    per_vehicle: dict[Key, OrderSummary] = {}
    finished_runs = present[outcomes[present] == 0]
    cycle_sum_of = dict(
        zip(finished_runs.tolist(), marked.sums[2][finished_runs].tolist(), strict=True)
    )
    for run in present.tolist():
        outcome = int(outcomes[run])
        if outcome >= len(OUTCOMES):
            continue
        summary = per_vehicle.setdefault((vehicles[run], bucket), OrderSummary())
        summary.outcomes[OUTCOMES[outcome]] = int(marked.counts[run])
        summary.paused_s += float(marked.sums[0][run])
        summary.waiting_s += float(marked.sums[1][run])
        if outcome == 0:
            summary.cycle_sum_us = float(cycle_sum_of[run])
    if by_vehicle:
        for run, figures in zip(finished_runs.tolist(), marked.figures(finished_runs), strict=True):
            per_vehicle[(vehicles[run], bucket)].cycle = figures
    for summary in per_vehicle.values():
        fleet.add(summary)
    result = per_vehicle if by_vehicle else {}
    if per_vehicle:
        fleet.cycle = marked.union(finished_runs)
        result[(None, bucket)] = fleet
    return result


def summarize_runs(
    runs: OrderRuns, selection: Selection, *, by_vehicle: bool
) -> dict[Key, OrderSummary]:
    """``summarize_orders`` of the orders ending in T (``key="vehicle_id", fleet=True``
    with ``by_vehicle``, else ``key=None``) from the runs."""
    buckets = buckets_of(runs, selection)
    result: dict[Key, OrderSummary] = {}
    for bucket in sorted({b for part in selection.slices for _, b in part.windows}):
        result.update(
            _summaries(_Marked.of(runs, buckets == bucket), bucket, by_vehicle=by_vehicle)
        )
    return result
