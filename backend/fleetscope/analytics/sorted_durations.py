"""Exact percentiles and histograms of durations, sorted in NumPy instead of in DuckDB.

DuckDB's ``quantile_cont`` keeps and sorts every value of each group on its own: over a
year of orders (three million) it cost more than all other figures together, and more
again with the fleet as a second grouping set. Here a query hands over each duration
(integer microseconds) with a small group code; NumPy sorts them all at once as one array
of 64-bit keys ``code << 40 | duration`` (a vectorised sort several times faster than
DuckDB's), so each group is a sorted run and its ranks are plain indexes. The fleet's ranks
(the union of runs) are found by bisecting the value with one ``searchsorted`` over all
its runs per step, the cycle-time histogram by the buckets' edges. Every figure is exact.

Durations outside +-2**39 µs (6.4 days) switch the run to milliseconds, rounded down,
so that they still fit the 40 bits. Codes are dense indexes (renumbered when too large).
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.facts.rollup import CYCLE_BUCKET_BASE_S, CYCLE_BUCKET_COUNT

Ints = npt.NDArray[np.int64]
_VALUE_BITS = 40
_OFFSET = 1 << (_VALUE_BITS - 1)
_MAX_CODE = 1 << (63 - _VALUE_BITS)


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
        if len(values) and max(-int(values.min()), int(values.max())) >= _OFFSET:
            self._unit = 1000
            values = np.clip(values // 1000, 1 - _OFFSET, _OFFSET - 1)
        self._dense: dict[int, int] | None = None
        if len(codes) and (int(codes.min()) < 0 or int(codes.max()) >= _MAX_CODE):
            found, codes = np.unique(codes, return_inverse=True)
            self._dense = {int(code): index for index, code in enumerate(found.tolist())}
        keys = codes << _VALUE_BITS
        keys |= values + _OFFSET
        keys.sort()
        self._keys: Ints = keys

    @classmethod
    def read(
        cls, cursor: duckdb.DuckDBPyConnection, sql: str, parameters: list[Any]
    ) -> "SortedDurations":
        """From a query giving a key and a bucket (integers, 0 or 1 for the bucket) and the
        duration in microseconds (BIGINT, not NULL), read as Arrow columns; the code of
        a duration is ``2 * key + bucket`` (computed here: cheaper than in the query)."""
        table = cursor.sql(sql, params=parameters).to_arrow_table()
        keys, buckets, micros = (column.to_numpy() for column in table.columns)
        return cls(2 * keys.astype(np.int64) + buckets, micros)

    def _code(self, code: int) -> int | None:
        if self._dense is None:
            return code if 0 <= code < _MAX_CODE else None
        return self._dense.get(code)

    def _runs(self, codes: Sequence[int]) -> tuple[Ints, Ints, Ints]:
        """Key base, start and end index of each code's run (unknown codes: empty runs)."""
        known = [self._code(code) for code in codes]
        bases = np.array([-1 if c is None else c for c in known], dtype=np.int64) << _VALUE_BITS
        starts = np.searchsorted(self._keys, bases, side="left")
        ends = np.searchsorted(self._keys, bases + (1 << _VALUE_BITS), side="left")
        ends[bases < 0] = starts[bases < 0]
        return bases, starts.astype(np.int64), ends.astype(np.int64)

    def _seconds(self, keys: Ints) -> npt.NDArray[np.float64]:
        values = (keys & ((1 << _VALUE_BITS) - 1)) - _OFFSET
        return values.astype(np.float64) / (1_000_000 / self._unit)

    def _histograms(self, bases: Ints, starts: Ints, ends: Ints) -> Ints:
        """Durations per cycle-time bucket of ``facts.rollup``, one row per run."""
        edges = (CYCLE_EDGES_US // self._unit) + _OFFSET
        cut = np.searchsorted(self._keys, bases[:, None] + edges[None, :], side="left")
        cut = np.clip(cut, starts[:, None], ends[:, None])
        return np.diff(np.concatenate([starts[:, None], cut, ends[:, None]], axis=1), axis=1)

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

    def _select(self, bases: Ints, starts: Ints, ends: Ints, ranks: list[int]) -> list[float]:
        """The value of each 0-based rank in the union of the runs: for all ranks at once,
        bisect the smallest value with more than ``rank`` durations at or below it."""
        wanted = np.array(ranks, dtype=np.int64)
        low = np.zeros(len(ranks), dtype=np.int64)
        high = np.full(len(ranks), (1 << _VALUE_BITS) - 1, dtype=np.int64)
        while bool((low < high).any()):
            middle = (low + high) // 2
            at_or_below = np.searchsorted(self._keys, bases[None, :] + middle[:, None], "right")
            below = (np.clip(at_or_below, starts, ends) - starts).sum(axis=1)
            more = below > wanted
            high = np.where(more, middle, high)
            low = np.where(more, low, middle + 1)
        return [float(v) for v in self._seconds(low)]

    def union(self, codes: Sequence[int], quantiles: Sequence[float]) -> Figures | None:
        """The figures of the durations of all ``codes`` together (the fleet)."""
        bases, starts, ends = self._runs(codes)
        total = int((ends - starts).sum())
        if total == 0:
            return None
        positions = [quantile * (total - 1) for quantile in quantiles]
        belows = [math.floor(position) for position in positions]
        ranks = sorted({*belows, *(min(b + 1, total - 1) for b in belows), total - 1})
        value = dict(zip(ranks, self._select(bases, starts, ends, ranks), strict=True))
        result = []
        for position, below in zip(positions, belows, strict=True):
            low = value[below]
            result.append(low + (value[min(below + 1, total - 1)] - low) * (position - below))
        return Figures(
            result,
            value[total - 1],
            [int(n) for n in self._histograms(bases, starts, ends).sum(axis=0).tolist()],
        )
