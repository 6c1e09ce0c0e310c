"""The additive measures of many keys (vehicle or ``FLEET``, bucket) as rows of one matrix:
sums, counts and a minimum add up in any order, and the KPIs are array operations (``kpis``)."""

from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from fleetscope.facts.model import VehicleState

Key = tuple[int, int]  # (vehicle id, or FLEET when summed over vehicles; bucket)
Matrix = npt.NDArray[np.float64]
STATES: tuple[str, ...] = tuple(state.value for state in VehicleState)
_SCALARS: tuple[str, ...] = (
    "orders_finished",
    "orders_failed",
    "orders_cancelled",
    "errors",  # error episodes of every level started
    "stop_errors",  # stop-level episodes (FATAL; 3.0 also CRITICAL) started
    "stop_error_s",  # their total duration
    "distance_m",
    "loads_handled",
    # The time-weighted mean charge's parts: microseconds the reported charges held
    # (``facts.rollup.MICROS``) and the charge integrated over them (percent-seconds).
    "battery_samples",
    "battery_charge_sum",
)
COUNTS = frozenset(_SCALARS) - {"stop_error_s", "distance_m", "battery_charge_sum"}
# Column order of the matrix (reads select in this order); the minimum is NaN for none.
COLUMNS: tuple[str, ...] = (*(f"{state}_s" for state in STATES), *_SCALARS, "battery_charge_min")
COLUMN: Mapping[str, int] = {name: index for index, name in enumerate(COLUMNS)}
STATE_COLUMNS = slice(0, len(STATES))
STATE_MEASURES = frozenset(COLUMNS[STATE_COLUMNS])
MIN_COLUMN = COLUMN["battery_charge_min"]
_SUMMED = np.arange(len(COLUMNS)) != MIN_COLUMN
_INITIAL_CAPACITY = 64


def empty_rows(count: int) -> Matrix:
    """``count`` rows of zero measures (no battery minimum)."""
    rows = np.zeros((count, len(COLUMNS)))
    rows[:, MIN_COLUMN] = np.nan
    return rows


class MeasureTable:
    """Measures per key; every key's row starts at zero and only grows by additions."""

    def __init__(self) -> None:
        self._index: dict[Key, int] = {}
        self._values = empty_rows(_INITIAL_CAPACITY)

    def __len__(self) -> int:
        return len(self._index)

    def keys(self) -> Iterator[Key]:
        return iter(self._index)

    def _row(self, key: Key) -> int:
        """The row of ``key``, a new one if needed (grown by doubling at least)."""
        row = self._index.setdefault(key, len(self._index))
        if row >= len(self._values):
            grown = empty_rows(max(2 * len(self._values), row + _INITIAL_CAPACITY))
            grown[:row] = self._values[:row]
            self._values = grown
        return row

    def add_rows(self, *, vehicles: Sequence[int], buckets: Sequence[int], values: Matrix) -> None:
        """Add ``values`` (one row per (vehicle, bucket), in ``COLUMNS`` order)."""
        if not len(vehicles):
            return
        keys = zip(vehicles, buckets, strict=True)
        if not self._index:
            # The first (big) read into an empty table: its keys are unique, rows in order.
            self._index = {key: row for row, key in enumerate(keys)}
            self._values = np.vstack([values, empty_rows(len(values) // 8 + _INITIAL_CAPACITY)])
            return
        rows = np.fromiter((self._row(key) for key in keys), dtype=np.intp, count=len(vehicles))
        np.add.at(self._values, (rows[:, None], _SUMMED.nonzero()[0]), values[:, _SUMMED])
        np.fmin.at(self._values[:, MIN_COLUMN], rows, values[:, MIN_COLUMN])

    def add(self, key: Key, column: str, value: float) -> None:
        row = self._row(key)  # first: it may replace ``_values`` by a grown copy
        self._values[row, COLUMN[column]] += value

    def add_minimum(self, key: Key, column: str, value: float | None) -> None:
        if value is not None:
            row, index = self._row(key), COLUMN[column]
            self._values[row, index] = np.fmin(self._values[row, index], value)

    def merge(self, other: "MeasureTable") -> None:
        keys = list(other.keys())
        vehicles, buckets = [k[0] for k in keys], [k[1] for k in keys]
        self.add_rows(vehicles=vehicles, buckets=buckets, values=other.rows(keys))

    def rows(self, keys: Sequence[Key]) -> Matrix:
        """The measures of ``keys`` as a matrix (zero rows for keys never added)."""
        index = self._index
        rows = np.fromiter((index.get(key, -1) for key in keys), dtype=np.intp, count=len(keys))
        result = self._values[rows]  # a copy; rows of keys never added are reset below
        result[rows < 0] = empty_rows(1)[0]
        return result

    def total(self, keys: Sequence[Key]) -> Matrix:
        """One row: the measures of ``keys`` added up."""
        return total_of(self.rows(keys))


def total_of(rows: Matrix) -> Matrix:
    """One row: ``rows`` added up (the minimum of their minimums)."""
    result = empty_rows(1)
    result[0] = rows.sum(axis=0)
    result[0, MIN_COLUMN] = np.fmin.reduce(rows[:, MIN_COLUMN]) if len(rows) else np.nan
    return result
