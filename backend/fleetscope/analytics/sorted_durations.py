"""Exact percentiles and histograms of durations, sorted in NumPy instead of in DuckDB.

DuckDB's ``quantile_cont`` keeps and sorts every value of each group on its own: over a
year of orders (three million) it cost more than all other figures together, and more
again with the fleet as a second grouping set. Here each duration (integer microseconds)
comes with a small group code as one 64-bit key ``code << 40 | duration`` (packed by
DuckDB, ``packed_key_sql``, or here); NumPy sorts them all at once (a vectorised sort
several times faster than DuckDB's), so each group is a sorted run: its ranks are plain
indexes, its count and exact sum one pass over the runs. The fleet's ranks (the union of
runs) are found by bisecting the value with one ``searchsorted`` over all its runs per
step, the cycle-time histogram by the buckets' edges. Every figure is exact.

Durations outside +-2**39 µs (6.4 days) switch the run to milliseconds, rounded down,
so that they still fit the 40 bits. Codes are dense indexes (renumbered when too large)."""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fleetscope.facts.rollup import CYCLE_BUCKET_BASE_S, CYCLE_BUCKET_COUNT

Ints = npt.NDArray[np.int64]
VALUE_BITS = 40
VALUE_OFFSET = 1 << (VALUE_BITS - 1)  # added to a duration in its key: keys sort by it
VALUE_MASK = (1 << VALUE_BITS) - 1
_MAX_CODE = 1 << (63 - VALUE_BITS)


def packed_key_sql(code: str, micros: str) -> str:
    """SQL of the packed key of a duration (BIGINT ``micros``) in group ``code`` (an integer
    expression), NULL where either does not fit: durations beyond +-2**39 µs, codes outside
    0 .. 2**23 - 1. DuckDB packs in parallel what would cost NumPy four passes."""
    fits = (
        f"{micros} >= {-VALUE_OFFSET} AND {micros} < {VALUE_OFFSET} "
        f"AND {code} >= 0 AND {code} < {_MAX_CODE}"
    )
    key = f"({code}::BIGINT << {VALUE_BITS}) | ({micros} + {VALUE_OFFSET})"
    return f"CASE WHEN {fits} THEN {key} END"


def key_codes(keys: Ints) -> Ints:
    """The group code of each packed key."""
    return keys >> VALUE_BITS


def _cycle_bucket_of(micros: int) -> int:
    """The cycle-time bucket as the rollups' SQL has it (seconds / 5, then log2)."""
    seconds = micros / 1000000.0
    if seconds < CYCLE_BUCKET_BASE_S:
        return 0
    return min(CYCLE_BUCKET_COUNT - 1, 1 + math.floor(4 * math.log2(seconds / 5.0)))


def _first_micros(bucket: int) -> int:
    """The smallest whole microsecond in ``bucket`` (found with the same float steps)."""
    micros = math.ceil(CYCLE_BUCKET_BASE_S * 2 ** ((bucket - 1) / 4) * 1_000_000)
    while _cycle_bucket_of(micros - 1) >= bucket:
        micros -= 1
    while _cycle_bucket_of(micros) < bucket:
        micros += 1
    return micros


# Lower edge of buckets 1..47 in microseconds; bucket 0 holds everything below 5 s.
CYCLE_EDGES_US = np.array([_first_micros(b) for b in range(1, CYCLE_BUCKET_COUNT)], np.int64)


def seconds_of(keys: Ints, unit: int = 1) -> npt.NDArray[np.float64]:
    """The durations of packed keys in seconds (``unit``: µs per stored step)."""
    return ((keys & VALUE_MASK) - VALUE_OFFSET).astype(np.float64) / (1_000_000 / unit)


def edge_positions(keys: Ints, bases: Ints, starts: Ints, ends: Ints, unit: int = 1) -> Ints:
    """Per run (rows): its start, the index of each cycle-time bucket edge in it, its end.
    Differences of consecutive columns count the durations per bucket."""
    edges = (CYCLE_EDGES_US // unit) + VALUE_OFFSET
    cut = np.searchsorted(keys, bases[:, None] + edges[None, :], side="left")
    cut = np.clip(cut, starts[:, None], ends[:, None])
    return np.concatenate([starts[:, None], cut, ends[:, None]], axis=1)


def search_values(
    ranks: Sequence[int],
    *,
    low: int,
    high: int,
    total: int,
    count_at_or_below: Callable[[Ints], Ints],
) -> Ints:
    """The value (packed: duration + offset) of each 0-based rank among ``total`` durations
    between ``low`` and ``high``: the smallest value with more than ``rank`` at or below it,
    for all ranks at once. By turns interpolated from the counts at the bounds (a few steps
    on any smooth distribution) and bisected (at most twice 40 steps on any other)."""
    wanted = np.array(ranks, dtype=np.int64)
    # The answer lies in [lows, highs]; below_low durations are < lows, up_to_high <= highs.
    lows = np.full(len(ranks), low)
    highs = np.full(len(ranks), high)
    below_low = np.zeros(len(ranks), dtype=np.int64)
    up_to_high = np.full(len(ranks), total)
    interpolate = True
    while bool((open_ := lows < highs).any()):
        if interpolate:
            share = (wanted - below_low + 0.5) / np.maximum(up_to_high - below_low, 1)
            middle = lows + (share * (highs - lows)).astype(np.int64)
        else:
            middle = (lows + highs) // 2
        middle = np.minimum(np.maximum(middle, lows), np.maximum(highs - 1, lows))
        count = count_at_or_below(middle)
        more = open_ & (count > wanted)
        fewer = open_ & ~more
        highs, up_to_high = np.where(more, middle, highs), np.where(more, count, up_to_high)
        lows, below_low = np.where(fewer, middle + 1, lows), np.where(fewer, count, below_low)
        interpolate = not interpolate
    return lows


def union_figures(
    total: int,
    quantiles: Sequence[float],
    *,
    seconds_at: Callable[[list[int]], list[float]],
    histogram: list[int],
) -> "Figures":
    """The figures of ``total`` durations (> 0) whose values at given ranks ``seconds_at``
    finds: ``quantile_cont`` from the two ranks around each quantile, and the maximum."""
    positions = [quantile * (total - 1) for quantile in quantiles]
    belows = [math.floor(position) for position in positions]
    ranks = sorted({*belows, *(min(b + 1, total - 1) for b in belows), total - 1})
    value = dict(zip(ranks, seconds_at(ranks), strict=True))
    result = []
    for position, below in zip(positions, belows, strict=True):
        low = value[below]
        result.append(low + (value[min(below + 1, total - 1)] - low) * (position - below))
    return Figures(result, value[total - 1], histogram)


@dataclass(frozen=True, slots=True)
class Figures:
    """Of one group's durations: ``quantile_cont`` of each asked quantile and the maximum
    in seconds, and the counts per cycle-time bucket."""

    quantiles: list[float]
    maximum: float
    histogram: list[int]


class SortedDurations:
    """Durations by group code, sorted within each code."""

    def __init__(self, codes: npt.NDArray[Any], micros: npt.NDArray[Any]) -> None:
        codes = np.asarray(codes, dtype=np.int64)
        values = np.asarray(micros, dtype=np.int64)
        self._unit = 1
        if len(values) and max(-int(values.min()), int(values.max())) >= VALUE_OFFSET:
            self._unit = 1000
            values = np.clip(values // 1000, 1 - VALUE_OFFSET, VALUE_OFFSET - 1)
        self._dense: dict[int, int] | None = None
        if len(codes) and (int(codes.min()) < 0 or int(codes.max()) >= _MAX_CODE):
            found, codes = np.unique(codes, return_inverse=True)
            self._dense = {int(code): index for index, code in enumerate(found.tolist())}
        keys = codes << VALUE_BITS
        keys |= values + VALUE_OFFSET
        keys.sort()
        self._keys: Ints = keys

    @classmethod
    def of_keys(cls, keys: Ints) -> "SortedDurations":
        """From keys as ``packed_key_sql`` makes them (none NULL), sorted here in place."""
        durations = cls.__new__(cls)
        durations._unit = 1
        durations._dense = None
        keys.sort()
        durations._keys = keys
        return durations

    def _runs(self, codes: Sequence[int]) -> tuple[Ints, Ints, Ints]:
        """Key base, start and end index of each code's run (unknown codes: empty runs)."""
        if self._dense is None:
            known = np.asarray(codes, dtype=np.int64)
            known = np.where((known >= 0) & (known < _MAX_CODE), known, -1)
        else:
            known = np.array([self._dense.get(code, -1) for code in codes], dtype=np.int64)
        bases = known << VALUE_BITS
        starts = np.searchsorted(self._keys, bases, side="left").astype(np.int64)
        ends = np.searchsorted(self._keys, bases + (1 << VALUE_BITS), side="left").astype(np.int64)
        ends[known < 0] = starts[known < 0]
        return bases, starts, ends

    def _seconds(self, keys: Ints) -> npt.NDArray[np.float64]:
        return seconds_of(keys, self._unit)

    def _histograms(self, bases: Ints, starts: Ints, ends: Ints) -> Ints:
        """Durations per cycle-time bucket of ``facts.rollup``, one row per run."""
        return np.diff(edge_positions(self._keys, bases, starts, ends, self._unit), axis=1)

    def groups(self, codes: Sequence[int], quantiles: Sequence[float]) -> list[Figures | None]:
        """The figures of each code's durations (``None`` without any), all at once."""
        if len(self._keys) == 0:
            return [None] * len(codes)
        bases, starts, ends = self._runs(codes)
        counts = ends - starts
        last = np.maximum(counts - 1, 0)
        values = []
        for quantile in quantiles:
            position = quantile * last
            below = np.floor(position).astype(np.int64)
            low = self._seconds(self._keys[np.minimum(starts + below, len(self._keys) - 1)])
            above = np.minimum(starts + np.minimum(below + 1, last), len(self._keys) - 1)
            high = self._seconds(self._keys[above])
            values.append((low + (high - low) * (position - below)).tolist())
        maxima = self._seconds(self._keys[np.maximum(ends - 1, 0)]).tolist()
        histograms = self._histograms(bases, starts, ends).tolist()
        return [
            Figures([column[i] for column in values], maxima[i], histograms[i]) if count else None
            for i, count in enumerate(counts.tolist())
        ]

    def counts(self, codes: Sequence[int]) -> Ints:
        """The number of durations of each code."""
        _, starts, ends = self._runs(codes)
        return ends - starts

    def totals(self, codes: Sequence[int]) -> list[int]:
        """The sum of each code's durations in microseconds: exact for keys from
        ``of_keys``; of the durations rounded down to milliseconds after a switch."""
        bases, starts, ends = self._runs(codes)
        filled = np.flatnonzero(ends > starts)
        result = [0] * len(codes)
        if len(filled) == 0:
            return result
        order = filled[np.argsort(starts[filled])]
        # One pass: the sums over [start, end) of each run and over the gaps between them
        # (uint64 wraps modulo 2**64); the last end may be the array's end, which reduceat
        # reaches by itself.
        bounds = np.stack([starts[order], ends[order]], axis=1).ravel()
        if bounds[-1] == len(self._keys):
            bounds = bounds[:-1]
        sums = np.add.reduceat(self._keys.view(np.uint64), bounds)[::2].tolist()
        for index, total in zip(order.tolist(), sums, strict=True):
            # Minus count x (base + offset) leaves the sum of the durations; it fits in 63
            # bits (292,000 years).
            total = (
                total - int(ends[index] - starts[index]) * (int(bases[index]) + VALUE_OFFSET)
            ) % (1 << 64)
            total -= (1 << 64) if total >= 1 << 63 else 0
            result[index] = total * self._unit
        return result

    def _select(self, bases: Ints, starts: Ints, ends: Ints, ranks: list[int]) -> list[float]:
        """The value of each 0-based rank in the union of the (not all empty) runs."""
        filled = ends > starts

        def count_at_or_below(values: Ints) -> Ints:
            at_or_below = np.searchsorted(self._keys, bases[None, :] + values[:, None], "right")
            counted: Ints = (np.clip(at_or_below, starts, ends) - starts).sum(axis=1)
            return counted

        found = search_values(
            ranks,
            low=int((self._keys[starts[filled]] & VALUE_MASK).min()),
            high=int((self._keys[ends[filled] - 1] & VALUE_MASK).max()),
            total=int((ends - starts).sum()),
            count_at_or_below=count_at_or_below,
        )
        return [float(v) for v in self._seconds(found)]

    def union(self, codes: Sequence[int], quantiles: Sequence[float]) -> Figures | None:
        """The figures of the durations of all ``codes`` together (the fleet)."""
        bases, starts, ends = self._runs(codes)
        total = int((ends - starts).sum())
        if total == 0:
            return None
        return union_figures(
            total,
            quantiles,
            seconds_at=lambda ranks: self._select(bases, starts, ends, ranks),
            histogram=[int(n) for n in self._histograms(bases, starts, ends).sum(axis=0).tolist()],
        )
