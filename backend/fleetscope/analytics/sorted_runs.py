"""Fact rows of the store in memory, sorted into runs by a group code and a duration: the
figures of long periods without reading and sorting the rows of T on every request.

Over a year, the exact percentiles read millions of orders or actions from DuckDB and sort
them for every answer (about 125 ms for the orders before the route). Here they are read
and sorted once; each answer then only marks the rows of T (``run_buckets``) and counts
along the sorted runs (``marked_runs``).

A row's key is ``sorted_durations``'s packing, ``code << 40 | duration + 2**39``, with the
code ``group << 2 | class``: a run holds the rows of one group and class (an outcome, a
status). The group is either the vehicle (``by_vehicle``: figures per vehicle, two lookups
each) or a name the source gives (a workflow, an action type: the figures of a name over
all its vehicles, again two lookups each, where runs per vehicle would need a search over
their union); then each row's vehicle is kept alongside, for the scope. Names are numbered
as they first appear, so that newer rows keep the codes of older ones.

The store only appends facts while it serves (rebuilds and merges run offline, and change
its ``generation``), so the rows of a later snapshot are those held here plus the rows with
a higher ``rowid``: a reader holding more reads only those and merges them in.
"""

from dataclasses import dataclass
from datetime import datetime

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.sorted_durations import VALUE_BITS, VALUE_OFFSET
from fleetscope.facts.battery_hours import MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

GROUP_BITS = 63 - VALUE_BITS - 2  # the vehicle or the name, above the class's two bits
# 128 MB: a year of 100 vehicles' orders by vehicle (400 runs, three weights) needs 84 MB.
MAX_HOUR_SUMS = 1 << 24


@dataclass(frozen=True, slots=True)
class RunSource:
    """How the rows of one fact table become runs: SQL expressions over its columns."""

    table: str
    end: str  # the column placing a row in T
    value: str  # BIGINT µs: the duration the runs are sorted by
    row_class: str  # 0-3
    name: str | None = None  # VARCHAR naming a row's group; None: grouped by vehicle
    weights: tuple[str, ...] = ()  # DOUBLE columns summed per run
    where: str = "TRUE"  # the rows taken
    rowids: bool = False  # keep each row's ``rowid`` (to read chosen rows back by it)

    @property
    def by_vehicle(self) -> bool:
        return self.name is None


@dataclass(frozen=True, slots=True)
class SortedRuns:
    """Rows with ``rowid`` below ``next_rowid``, sorted by key, with their end and weights."""

    names: tuple[str, ...]  # by number; empty for runs by vehicle
    next_rowid: int  # above every row's rowid: where newer rows begin
    table_rows: int  # rows of the table below ``next_rowid``, taken or not
    keys: Ints
    end_us: Ints
    end_hour: Ints  # hours after ``first_hour`` (NumPy's own index type: ``take`` reads it
    # without a conversion, three times faster than from int32)
    vehicles: npt.NDArray[np.int32] | None  # each row's, for runs by name
    rowids: Ints | None  # each row's, when the source keeps them
    vehicles_seen: Ints  # the distinct ``vehicles``
    first_hour: int  # since the epoch: the earliest row's end
    weights: Floats  # one row per fact row, one column per weight
    run_codes: Ints  # ascending
    run_starts: Ints  # the runs cover the arrays one after the other
    run_ends: Ints
    totals: Floats  # per run (rows): the weights summed
    hour_prefix: Ints  # rows ending before each hour from ``first_hour``
    # [hour, run, weight]: the weights of the run's rows ending before the hour, summed; None
    # beyond ``MAX_HOUR_SUMS`` cells (then sums pick out the rows)
    hour_sums: Floats | None
    hour_order: "HourOrder"  # the rows by end hour, for marking the rows of a short T

    @classmethod
    def read(
        cls,
        cursor: duckdb.DuckDBPyConnection,
        source: RunSource,
        *,
        after: "SortedRuns | None" = None,
    ) -> "SortedRuns | None":
        """The rows of the cursor's snapshot, or only those above ``after``'s (to merge);
        None when one does not fit the packing (a cycle of 6.4 days or more, a vehicle id
        from 2**21, as many names)."""
        since_row = after.next_rowid if after else 0
        where = f"rowid >= ? AND ({source.where})"
        counted = cursor.execute(
            f"SELECT count(*), max(rowid) FROM {source.table} WHERE rowid >= ?",  # noqa: S608 - constants only
            [since_row],
        ).fetchall()[0]
        names = after.names if after else ()
        if source.name:
            found = cursor.execute(
                f"SELECT DISTINCT {source.name} FROM {source.table} WHERE {where}",  # noqa: S608 - constants only
                [since_row],
            ).fetchall()
            names = names + tuple(sorted({row[0] for row in found} - set(names)))
        name_sql = f"list_position(?::VARCHAR[], {source.name}) - 1" if source.name else "0"
        weights = "".join(
            f", ({weight})::DOUBLE AS w{i}" for i, weight in enumerate(source.weights)
        )
        rowid_sql = "rowid AS row_id, " if source.rowids else ""
        columns = cursor.execute(
            f"SELECT {rowid_sql}vehicle_id, {name_sql} AS name, ({source.row_class}) AS row_class, "  # noqa: S608 - constants only
            f"({source.value}) AS value_us, epoch_us({source.end}) AS end_us{weights} "
            f"FROM {source.table} WHERE {where}",
            [*([list(names)] if source.name else []), since_row],
        ).fetchnumpy()
        vehicles = np.asarray(columns["vehicle_id"], dtype=np.int64)
        values = np.asarray(columns["value_us"], dtype=np.int64)
        groups = vehicles if source.by_vehicle else np.asarray(columns["name"], dtype=np.int64)
        if len(groups) and (
            int(groups.min()) < 0
            or int(groups.max()) >= 1 << GROUP_BITS
            or max(-int(values.min()), int(values.max())) >= VALUE_OFFSET
        ):
            return None
        codes = (groups << 2) | np.asarray(columns["row_class"], dtype=np.int64)
        keys = (codes << VALUE_BITS) | (values + VALUE_OFFSET)
        order = np.argsort(keys, kind="stable")
        return cls._of_sorted(
            names=names,
            next_rowid=since_row if counted[1] is None else int(counted[1]) + 1,
            table_rows=int(counted[0]),
            keys=keys[order],
            end_us=np.asarray(columns["end_us"], dtype=np.int64)[order],
            vehicles=None if source.by_vehicle else vehicles[order].astype(np.int32),
            rowids=np.asarray(columns["row_id"], np.int64)[order] if source.rowids else None,
            weights=np.column_stack(
                [
                    np.asarray(columns[f"w{i}"], np.float64)[order]
                    for i in range(len(source.weights))
                ]
                or [np.zeros((len(order), 0))]
            ),
        )

    @classmethod
    def _of_sorted(
        cls,
        *,
        names: tuple[str, ...],
        next_rowid: int,
        table_rows: int,
        keys: Ints,
        end_us: Ints,
        vehicles: npt.NDArray[np.int32] | None,
        rowids: Ints | None,
        weights: Floats,
    ) -> "SortedRuns":
        codes = keys >> VALUE_BITS
        starts = np.flatnonzero(np.diff(codes, prepend=-1)).astype(np.int64)
        hours = end_us // MICROS_PER_HOUR
        first_hour = int(hours.min()) if len(hours) else 0
        end_hour = hours - first_hour
        return cls(
            names=names,
            next_rowid=next_rowid,
            table_rows=table_rows,
            keys=keys,
            end_us=end_us,
            end_hour=end_hour,
            vehicles=vehicles,
            rowids=rowids,
            vehicles_seen=np.zeros(0, np.int64) if vehicles is None else np.unique(vehicles),
            first_hour=first_hour,
            weights=weights,
            run_codes=codes[starts],
            run_starts=starts,
            run_ends=np.append(starts[1:], len(keys))[: len(starts)].astype(np.int64),
            totals=sums_of_runs(weights, starts),
            hour_prefix=np.concatenate([[0], np.cumsum(np.bincount(end_hour))]).astype(np.int64),
            hour_sums=_hour_sums(end_hour, starts, weights),
            hour_order=HourOrder(end_hour, derive=True),
        )

    def merged(self, newer: "SortedRuns") -> "SortedRuns":
        """These rows and ``newer`` (read ``after=self``) as one: the same arrays as a fresh
        read. Each array is copied once with the newer rows inserted; the runs, their totals
        and the hour counts are updated from the newer rows alone (a fresh derivation would
        cost several times more, as a live store merges after every commit)."""
        at = np.searchsorted(self.keys, newer.keys, side="right")
        keys = np.insert(self.keys, at, newer.keys)
        end_us = np.insert(self.end_us, at, newer.end_us)
        vehicles = (
            None
            if self.vehicles is None or newer.vehicles is None
            else np.insert(self.vehicles, at, newer.vehicles)
        )
        rowids = (
            None
            if self.rowids is None or newer.rowids is None
            else np.insert(self.rowids, at, newer.rowids)
        )
        weights = np.insert(self.weights, at, newer.weights, axis=0)
        rows = self.table_rows + newer.table_rows
        if not (len(self.keys) and len(newer.keys)) or newer.first_hour < self.first_hour:
            return SortedRuns._of_sorted(
                names=newer.names,
                next_rowid=newer.next_rowid,
                table_rows=rows,
                keys=keys,
                end_us=end_us,
                vehicles=vehicles,
                rowids=rowids,
                weights=weights,
            )
        end_hour = newer.end_hour + (newer.first_hour - self.first_hour)
        per_hour = np.diff(self.hour_prefix)
        per_hour = np.concatenate(
            [per_hour, np.zeros(max(int(end_hour.max()) + 1 - len(per_hour), 0), np.int64)]
        )
        per_hour += np.bincount(end_hour, minlength=len(per_hour))
        codes = np.union1d(self.run_codes, newer.run_codes)
        starts = np.searchsorted(keys, codes << VALUE_BITS, side="left").astype(np.int64)
        totals = np.zeros((len(codes), self.weights.shape[1]))
        totals[np.searchsorted(codes, self.run_codes)] += self.totals
        totals[np.searchsorted(codes, newer.run_codes)] += newer.totals
        merged_hours = np.insert(self.end_hour, at, end_hour)
        return SortedRuns(
            names=newer.names,
            next_rowid=newer.next_rowid,
            table_rows=rows,
            keys=keys,
            end_us=end_us,
            end_hour=merged_hours,
            first_hour=self.first_hour,
            vehicles=vehicles,
            rowids=rowids,
            vehicles_seen=np.union1d(self.vehicles_seen, newer.vehicles_seen),
            weights=weights,
            run_codes=codes,
            run_starts=starts,
            run_ends=np.append(starts[1:], len(keys)).astype(np.int64),
            totals=totals,
            hour_prefix=np.concatenate([[0], np.cumsum(per_hour)]).astype(np.int64),
            hour_sums=_hour_sums(merged_hours, starts, weights),
            hour_order=HourOrder(merged_hours),
        )

    @property
    def run_groups(self) -> Ints:
        """Each run's vehicle, or the number of its name in ``names``."""
        groups: Ints = self.run_codes >> 2
        return groups

    @property
    def run_classes(self) -> Ints:
        classes: Ints = self.run_codes & 3
        return classes

    def share_between(self, start: datetime, end: datetime) -> float:
        """About the share of the rows ending in [start, end), to the hour (a cost
        estimate)."""
        if not len(self.keys):
            return 0.0
        last = len(self.hour_prefix) - 1
        first, after = (
            min(max(hour - self.first_hour, 0), last)
            for hour in (to_micros(start) // MICROS_PER_HOUR, -(-to_micros(end) // MICROS_PER_HOUR))
        )
        return int(self.hour_prefix[after] - self.hour_prefix[first]) / len(self.keys)


class HourOrder:
    """The rows' indices ordered by end hour: the rows of a stretch of hours are then one
    slice of it, at ``hour_prefix``'s positions. A build derives it at once; a merge leaves
    it to the first answer marking rows by hour (a sort of every row: 60-180 ms for a year's
    3.5 M orders), as merges follow every commit of a live store."""

    __slots__ = ("_end_hour", "_rows")

    def __init__(self, end_hour: Ints, *, derive: bool = False) -> None:
        self._end_hour = end_hour
        self._rows: npt.NDArray[np.int32] | npt.NDArray[np.int64] | None = None
        if derive:
            self.rows()

    def rows(self) -> npt.NDArray[np.int32] | npt.NDArray[np.int64]:
        """Row indices, by end hour and within an hour ascending."""
        if self._rows is None:  # two threads deriving it at once get equal arrays
            hours = self._end_hour
            # A stable sort of 16-bit values is a radix sort: three times faster.
            narrow = hours.astype(np.uint16) if len(hours) and hours.max() < 1 << 16 else hours
            order = np.argsort(narrow, kind="stable")
            self._rows = order.astype(np.int32) if len(order) < 1 << 31 else order
        return self._rows


def _hour_sums(end_hour: Ints, starts: Ints, weights: Floats) -> Floats | None:
    """``SortedRuns.hour_sums``: the weights summed per (hour, run), accumulated over the
    hours. Marked whole hours then sum a run's rows in two lookups per stretch of hours,
    where picking the rows out reads them scattered over the arrays (a cache miss each)."""
    hours = int(end_hour.max()) + 1 if len(end_hour) else 0
    runs, width = len(starts), weights.shape[1]
    if width == 0 or not 0 < hours * runs * width <= MAX_HOUR_SUMS:
        return None
    run_of_row = np.repeat(np.arange(runs), np.diff(np.append(starts, len(end_hour))))
    cell = end_hour * runs + run_of_row
    sums = np.zeros((hours + 1, runs, width))
    for column in range(width):
        counted = np.bincount(cell, weights=weights[:, column], minlength=hours * runs)
        sums[1:, :, column] = counted.reshape(hours, runs)
    accumulated: Floats = np.cumsum(sums, axis=0)
    return accumulated


def sums_of_runs(weights: Floats, starts: Ints) -> Floats:
    """Per run (rows) of ``weights``' rows from each of ``starts`` (ascending) to the next,
    the weights summed: one sequential pass (``bincount`` by run costs three times more)."""
    sums = np.zeros((len(starts), weights.shape[1]))
    ends = np.append(starts[1:], len(weights))
    filled = starts < ends
    if weights.shape[1] and filled.any():
        sums[filled] = np.add.reduceat(weights, starts[filled], axis=0)
    return sums
