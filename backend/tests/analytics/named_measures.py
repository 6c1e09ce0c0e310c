"""One key's measures by name, for tests that assert on a few of them: the product reads the
measure matrix column-wise (``measure_table``, ``kpis``), never one key at a time."""

from dataclasses import dataclass, field

import numpy as np

from fleetscope.analytics.core.kpis import kpi_columns, kpis_at
from fleetscope.analytics.core.measure_table import (
    COLUMN,
    COLUMNS,
    COUNTS,
    MIN_COLUMN,
    STATE_COLUMNS,
    STATES,
    Key,
    Matrix,
    MeasureTable,
    empty_rows,
)
from fleetscope.analytics.core.models import Kpis

SCALARS = tuple(name for name in COLUMNS[STATE_COLUMNS.stop :] if name != "battery_charge_min")


@dataclass(slots=True)
class Measures:
    states: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STATES, 0.0))
    orders_finished: int = 0
    orders_failed: int = 0
    orders_cancelled: int = 0
    errors: int = 0
    stop_errors: int = 0
    stop_error_s: float = 0.0
    distance_m: float = 0.0
    loads_handled: int = 0
    battery_samples: int = 0
    battery_charge_sum: float = 0.0
    battery_charge_min: float | None = None

    @property
    def covered_s(self) -> float:
        """Time with a known state."""
        return sum(self.states.values())


def measures_of(row: Matrix) -> Measures:
    values = row.tolist()
    minimum = values[MIN_COLUMN]
    return Measures(
        states=dict(zip(STATES, values[STATE_COLUMNS], strict=True)),
        battery_charge_min=None if minimum != minimum else minimum,  # NaN: no sample
        **{
            name: int(values[COLUMN[name]]) if name in COUNTS else values[COLUMN[name]]
            for name in SCALARS
        },
    )


def row_of(measures: Measures) -> Matrix:
    """``Measures`` as a one-row matrix."""
    result = empty_rows(1)
    result[0, STATE_COLUMNS] = [measures.states[state] for state in STATES]
    for name in SCALARS:
        result[0, COLUMN[name]] = getattr(measures, name)
    if measures.battery_charge_min is not None:
        result[0, MIN_COLUMN] = measures.battery_charge_min
    return result


def named(table: MeasureTable, key: Key) -> Measures:
    """The measures of ``key`` (zero if never added)."""
    return measures_of(table.rows([key])[0])


def compute_kpis(measures: Measures, *, period_s: float) -> Kpis:
    return kpis_at(kpi_columns(row_of(measures), period_s=np.array([period_s])), 0)
