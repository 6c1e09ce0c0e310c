"""The KPIs of product.md section 3, computed from additive measures (one glossary, here).

- planned = T - offline, where T counts only time with a known state (time before a
  vehicle's first message is "no data", neither planned nor offline);
- downtime = error + manual; availability = (planned - downtime) / planned;
- utilization = working / planned; idle and charging shares likewise;
- throughput = finished orders per hour: per calendar hour of T for the fleet, per
  planned hour for a vehicle; loads handled = finished load-handling actions (pick,
  drop, load, unload in any case);
- mean charge: time-weighted, each reported charge holding until the next report;
- MTBF = (planned - downtime) / stop-level episodes (FATAL; 3.0 also CRITICAL);
  MTTR = mean duration of those episodes.
A ratio whose denominator is zero is ``None`` (shown as "no data", never as 0 %).
"""

import math

import numpy as np
import numpy.typing as npt

from fleetscope.analytics.core.measure_table import (
    COLUMN,
    HIST_COLUMNS,
    MIN_COLUMN,
    STATE_COLUMNS,
    STATES,
    Matrix,
    Measures,
    row_of,
)
from fleetscope.analytics.core.models import Kpis, StateTimes
from fleetscope.facts.rollup import MICROS, cycle_bucket_lower_bounds

Column = npt.NDArray[np.float64]
# KPI fields that are counts (integers in JSON); every other KPI is a float or null.
COUNT_KPIS = frozenset(
    {
        "orders_finished",
        "orders_failed",
        "orders_cancelled",
        "loads_handled",
        "stop_errors",
        "errors",
    }
)


def _ratio(numerator: Column, denominator: Column) -> Column:
    """numerator / denominator, NaN (null) where the denominator is not positive."""
    result = np.full(np.broadcast(numerator, denominator).shape, np.nan)
    np.divide(numerator, denominator, out=result, where=denominator > 0)
    return result


def _column(rows: Matrix, name: str) -> Column:
    return rows[:, COLUMN[name]]


def kpi_columns(
    rows: Matrix, *, period_s: Column, calendar_s: Column | None = None
) -> dict[str, Column]:
    """The KPIs of every row of ``rows`` (a ``measure_table`` matrix), by ``Kpis`` field
    name; NaN is "no data" (null). ``period_s``: T of each row in vehicle seconds.
    ``calendar_s``: the fleet's calendar length of T per row; throughput is then per
    calendar hour, otherwise (one vehicle per row) per planned hour.
    """
    states = {state: rows[:, index] for index, state in enumerate(STATES)}
    covered = rows[:, STATE_COLUMNS].sum(axis=1)
    planned = covered - states["offline"]
    downtime = states["error"] + states["manual"]
    uptime = planned - downtime
    finished = _column(rows, "orders_finished")
    ended = finished + _column(rows, "orders_failed") + _column(rows, "orders_cancelled")
    throughput_hours = (calendar_s if calendar_s is not None else planned) / 3600
    distance_km = _column(rows, "distance_m") / 1000
    stop_errors = _column(rows, "stop_errors")
    return {
        "period_seconds": period_s.astype(np.float64, copy=True),
        # Facts have millisecond resolution; below that the difference is float noise.
        "no_data_seconds": np.round(np.maximum(0.0, period_s - covered), 3),
        "planned_seconds": planned,
        "downtime_seconds": downtime,
        "availability": _ratio(uptime, planned),
        "utilization": _ratio(states["working"], planned),
        "idle_share": _ratio(states["idle"], planned),
        "charging_share": _ratio(states["charging"], planned),
        "throughput_per_hour": _ratio(finished, throughput_hours),
        "orders_finished": finished,
        "orders_failed": _column(rows, "orders_failed"),
        "orders_cancelled": _column(rows, "orders_cancelled"),
        "order_success_rate": _ratio(finished, ended),
        "loads_handled": _column(rows, "loads_handled"),
        "distance_km": distance_km,
        "distance_per_order_km": _ratio(distance_km, finished),
        "cycle_time_p50_seconds": _median_cycles(rows),
        "mtbf_seconds": _ratio(uptime, stop_errors),
        "mttr_seconds": _ratio(_column(rows, "stop_error_s"), stop_errors),
        "stop_errors": stop_errors,
        "errors": _column(rows, "errors"),
        # Time-weighted: the charge integrated over the time it held / that time
        # (``battery_samples`` counts the hold in microseconds, ``facts.rollup.MICROS``).
        "mean_charge": _ratio(
            _column(rows, "battery_charge_sum"), _column(rows, "battery_samples") / MICROS
        ),
        "min_charge": rows[:, MIN_COLUMN],
    }


_LOWER_BOUNDS = cycle_bucket_lower_bounds()


def hist_percentile(hist: list[int], quantile: float) -> float | None:
    """Percentile of a cycle-time histogram, interpolated geometrically inside its bucket
    (buckets are 19 % wide: within about 10 % of the exact value)."""
    rank, seen = quantile * sum(hist), 0
    for index, in_bucket in enumerate(hist):
        if in_bucket and seen + in_bucket >= rank:
            share = (rank - seen) / in_bucket
            lower = _LOWER_BOUNDS[index]
            upper = _LOWER_BOUNDS[index + 1] if index + 1 < len(_LOWER_BOUNDS) else lower * 2**0.25
            return upper * share if lower <= 0 else lower * math.pow(upper / lower, share)
        seen += in_bucket
    return _LOWER_BOUNDS[-1] if hist and sum(hist) else None


def _median_cycles(rows: Matrix) -> Column:
    result = np.full(len(rows), np.nan)
    hist = rows[:, HIST_COLUMNS]
    for index in np.flatnonzero(hist.sum(axis=1) > 0):
        p50 = hist_percentile([int(count) for count in hist[index]], 0.5)
        result[index] = np.nan if p50 is None else p50
    return result


def kpis_at(columns: dict[str, Column], index: int) -> Kpis:
    """Row ``index`` of ``kpi_columns`` as ``Kpis``."""
    values: dict[str, float | int | None] = {}
    for name, column in columns.items():
        value = float(column[index])
        if value != value:  # NaN: no denominator
            values[name] = None
        elif name in COUNT_KPIS:
            values[name] = int(value)
        else:
            values[name] = value
    return Kpis.model_validate(values)


def kpis_of_rows(rows: Matrix, *, period_s: Column, calendar_s: Column | None = None) -> list[Kpis]:
    """``Kpis`` of every row of ``rows`` (see ``kpi_columns``), one vectorised pass."""
    columns = kpi_columns(rows, period_s=period_s, calendar_s=calendar_s)
    return [kpis_at(columns, index) for index in range(len(rows))]


def state_times_of_rows(rows: Matrix) -> list[StateTimes]:
    return [
        StateTimes.model_validate(dict(zip(STATES, row, strict=True)))
        for row in rows[:, STATE_COLUMNS].tolist()
    ]


def compute_kpis(measures: Measures, *, period_s: float, calendar_s: float | None = None) -> Kpis:
    """KPIs of ``measures`` over a period of ``period_s`` seconds of vehicle time (see
    ``kpi_columns``)."""
    columns = kpi_columns(
        row_of(measures),
        period_s=np.array([period_s]),
        calendar_s=None if calendar_s is None else np.array([calendar_s]),
    )
    return kpis_at(columns, 0)
