"""Orders ended in T summed per group: outcomes, paused and waiting time, and the exact
cycle times of the finished ones (percentiles, maximum, mean, display histogram).

One scan: DuckDB hands over one BIGINT per order, its group code ``4 * (2 * key + bucket)
+ outcome`` packed with its cycle time (``sorted_durations``), plus its paused and waiting
time; NumPy counts and sums per code (``bincount``) and sorts the finished orders' keys, so
each group is a sorted run and its ranks are plain indexes. The key is the vehicle id, or
the position of the workflow among the candidates a first, narrow query found. Against the
former two scans (a grouped aggregation for counts and sums, then the finished orders'
cycle times) this reads and selects the orders of T once: the selection is the expensive
part for a shift (a join on the hour), and DuckDB packing the key spares NumPy four passes.
Codes too large to pack or cycles beyond 6.4 days switch to a second read of plain columns.
"""

from dataclasses import dataclass, field
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from fleetscope.analytics.sorted_durations import (
    VALUE_BITS,
    Figures,
    Ints,
    SortedDurations,
    key_codes,
    packed_key_sql,
)

ORDER_COLUMNS = (
    "f.vehicle_id, f.workflow, f.outcome, epoch_us(f.end_at) - epoch_us(f.start_at) AS cycle_us, "
    "f.paused_s, f.waiting_s"
)
CYCLE_QUANTILES = (0.5, 0.9, 0.95)
OUTCOMES = ("finished", "failed", "cancelled")
# The outcome's index in OUTCOMES, 3 for any other (not counted).
OUTCOME_CODE = (
    "CASE outcome WHEN 'finished' THEN 0 WHEN 'failed' THEN 1 WHEN 'cancelled' THEN 2 ELSE 3 END"
)
# Up to this many codes are counted as they are (vehicle ids below 32768); with larger
# ones, the codes are renumbered first.
_DIRECT_CODES = 1 << 18

Key = tuple[Any, int]  # (key value, or None for the sum over the values; bucket)
Floats = npt.NDArray[np.float64]


@dataclass(slots=True)
class OrderSummary:
    outcomes: dict[str, int] = field(default_factory=dict)
    paused_s: float = 0.0
    waiting_s: float = 0.0
    cycle_sum_us: float = 0.0
    cycle: Figures | None = None  # of the finished orders (p50, p90, p95)

    def add(self, other: "OrderSummary") -> None:
        """Counts and sums only: the figures of a union come from the sorted durations."""
        for outcome, count in other.outcomes.items():
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + count
        self.paused_s += other.paused_s
        self.waiting_s += other.waiting_s
        self.cycle_sum_us += other.cycle_sum_us

    def mean_cycle_s(self) -> float | None:
        finished = self.outcomes.get("finished", 0)
        return self.cycle_sum_us / finished / 1e6 if finished else None


@dataclass(slots=True)
class _Groups:
    """Per code present: orders, paused and waiting sums, cycle sums of the finished ones."""

    codes: list[int]
    counts: list[int]
    paused: list[float]
    waiting: list[float]
    cycle_sums: dict[int, float]
    cycles: SortedDurations  # durations by code (those of outcome 0 are the finished)


def _packed(table: pa.Table, *, size: int, sums: bool) -> _Groups:
    """Keys of codes below ``size``: sums counted per Arrow batch as DuckDB made it (no
    copy), counts and cycle sums from the runs of all keys sorted at once (the finished
    orders' runs are the ranks; sorting the others too costs less than picking them out)."""
    paused, waiting = np.zeros(size), np.zeros(size)
    batches = table.to_batches()
    keys_of = [batch.column(0).to_numpy() for batch in batches]
    if sums:
        for keys, batch in zip(keys_of, batches, strict=True):
            codes = key_codes(keys)
            paused += np.bincount(codes, weights=batch.column(1).to_numpy(), minlength=size)
            waiting += np.bincount(codes, weights=batch.column(2).to_numpy(), minlength=size)
    cycles = SortedDurations.of_keys(np.concatenate(keys_of) if keys_of else np.zeros(0, np.int64))
    counts = cycles.counts(range(size))
    present = np.flatnonzero(counts).tolist()
    finished = [code for code in present if code & 3 == 0]
    return _Groups(
        codes=present,
        counts=counts[present].tolist(),
        paused=[float(paused[code]) for code in present],
        waiting=[float(waiting[code]) for code in present],
        cycle_sums=dict(zip(finished, map(float, cycles.totals(finished)), strict=True)),
        cycles=cycles,
    )


def _plain(codes: Ints, micros: Ints, columns: list[Floats]) -> _Groups:
    """Any codes and durations: renumbered for the counts and sums (the slow way)."""
    present, dense = np.unique(codes, return_inverse=True)
    finished = (codes & 3) == 0
    sums = [
        np.bincount(dense, weights=column, minlength=len(present)).tolist()
        for column in [*columns, micros.astype(np.float64) * finished]
    ]
    return _Groups(
        codes=present.tolist(),
        counts=np.bincount(dense, minlength=len(present)).tolist(),
        paused=sums[0] if columns else [0.0] * len(present),
        waiting=sums[1] if columns else [0.0] * len(present),
        cycle_sums={int(c): s for c, s in zip(present.tolist(), sums[-1], strict=True)},
        cycles=SortedDurations(codes[finished], micros[finished]),
    )


def _read(
    cursor: duckdb.DuckDBPyConnection,
    code_sql: str,
    *,
    source: str,
    parameters: list[Any],
    sums: bool,
) -> _Groups:
    """The orders of ``source`` by code ``4 * code_sql + outcome``."""
    code = f"({code_sql}) * 4 + {OUTCOME_CODE}"
    extra = ", paused_s, waiting_s" if sums else ""
    # A caller's unfinished result (a ``fetchone``) is let go: ``sql`` refuses to run beside
    # it, and ``execute`` would copy the Arrow rows once more.
    cursor.abort()
    table = cursor.sql(
        f"SELECT {packed_key_sql('code', 'cycle_us')}{extra} "  # noqa: S608 - constants only
        f"FROM (SELECT {code} AS code, cycle_us{extra} {source})",
        params=parameters,
    ).to_arrow_table()
    keys = table.column(0)
    if keys.null_count == 0:
        top = pc.max(keys).as_py()
        size = 0 if top is None else (top >> VALUE_BITS) + 1
        if size <= _DIRECT_CODES:
            return _packed(table, size=size, sums=sums)
    plain = cursor.sql(
        f"SELECT {code}, cycle_us{extra} {source}",
        params=parameters,
    ).to_arrow_table()
    if plain.column(0).null_count:
        raise ValueError("an order's key is not among the candidates")
    codes, micros = (column.to_numpy().astype(np.int64) for column in plain.columns[:2])
    return _plain(codes, micros, [column.to_numpy() for column in plain.columns[2:]])


def summarize_orders(
    cursor: duckdb.DuckDBPyConnection,
    rows: tuple[str, list[Any]],
    *,
    key: str | None,
    candidates: tuple[str, list[Any]] | None = None,
    where: tuple[str, list[Any]] = ("TRUE", []),
    fleet: bool = False,
    sums: bool = True,
) -> dict[Key, OrderSummary]:
    """Per ``(value of key, bucket)`` and, with ``fleet``, summed over the values per
    ``(None, bucket)``; without ``sums`` only the counts and cycle times (the sums stay 0).

    ``key`` is ``vehicle_id``, ``workflow`` or ``None`` (the sums alone); ``rows`` come
    from ``rows_in_periods`` with ``ORDER_COLUMNS``, ``where`` narrows them (a constant
    condition and its parameters). A ``workflow`` key needs ``candidates``: a query giving
    every workflow of ``rows`` (more do no harm); the caller's cursor must read one
    snapshot (``analytics.snapshot``, as every API answer does) for the two to agree.
    """
    rows_sql, parameters = rows
    condition, condition_parameters = where
    source = f"FROM ({rows_sql}) WHERE {condition}"
    selected = [*parameters, *condition_parameters]
    names: list[Any] = []  # of the workflow candidates
    # One statement reads every figure (a fallback reads anew, and only that): consistent
    # by itself; the candidates and the orders need the caller's snapshot.
    if key is None:
        found = _read(cursor, "bucket", source=source, parameters=selected, sums=sums)
    elif key == "vehicle_id":
        code_sql = "vehicle_id::BIGINT * 2 + bucket"
        found = _read(cursor, code_sql, source=source, parameters=selected, sums=sums)
    elif candidates is None:
        raise ValueError(f"a {key} key needs the query of its candidates")
    else:
        names = sorted(row[0] for row in cursor.execute(*candidates).fetchall())
        code_sql = f"(list_position(?::VARCHAR[], {key}) - 1) * 2 + bucket"
        found = _read(cursor, code_sql, source=source, parameters=[names, *selected], sums=sums)
    result: dict[Key, OrderSummary] = {}
    groups: dict[Key, int] = {}  # the code of each key without the outcome
    for index, code in enumerate(found.codes):
        group, outcome = divmod(code, 4)
        if outcome >= len(OUTCOMES):  # not an outcome the derivation writes
            continue
        value, bucket = divmod(group, 2)
        key_of = (None if key is None else names[value] if names else value, bucket)
        groups[key_of] = group
        summary = result.setdefault(key_of, OrderSummary())
        summary.outcomes[OUTCOMES[outcome]] = found.counts[index]
        if sums:
            summary.paused_s += found.paused[index]
            summary.waiting_s += found.waiting[index]
        if outcome == 0:
            summary.cycle_sum_us = found.cycle_sums[code]
    finished = {key_of: 4 * group for key_of, group in groups.items()}  # outcome 0
    figures = found.cycles.groups(list(finished.values()), CYCLE_QUANTILES)
    for key_of, cycle in zip(finished, figures, strict=True):
        result[key_of].cycle = cycle
    if key is not None and fleet:
        totals: dict[Key, OrderSummary] = {}
        fleet_codes: dict[Key, list[int]] = {}
        for (value, bucket), code in finished.items():
            totals.setdefault((None, bucket), OrderSummary()).add(result[(value, bucket)])
            fleet_codes.setdefault((None, bucket), []).append(code)
        for fleet_key, summary in totals.items():
            summary.cycle = found.cycles.union(fleet_codes[fleet_key], CYCLE_QUANTILES)
        result.update(totals)
    return result
