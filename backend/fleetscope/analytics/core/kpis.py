"""The KPIs of product.md section 3 from additive measures: the one place the glossary's
formulas are computed. A ratio without denominator is ``None`` ("no data", never 0 %)."""

import numpy as np
import numpy.typing as npt

from fleetscope.analytics.core.measure_table import (
    COLUMN,
    COUNTS,
    STATE_COLUMNS,
    STATES,
    Matrix,
)
from fleetscope.analytics.core.models import Kpis, StateTimes
from fleetscope.facts.rollup import MICROS

Column = npt.NDArray[np.float64]
# KPI fields that are counts (integers in JSON); every other KPI is a float or null.
COUNT_KPIS = COUNTS - {"battery_samples"}


def _ratio(numerator: Column, denominator: Column) -> Column:
    """numerator / denominator, NaN (null) where the denominator is not positive."""
    result = np.full(np.broadcast(numerator, denominator).shape, np.nan)
    np.divide(numerator, denominator, out=result, where=denominator > 0)
    return result


def kpi_columns(
    rows: Matrix, *, period_s: Column, calendar_s: Column | None = None
) -> dict[str, Column]:
    """The KPIs of every row, by ``Kpis`` field name (NaN: no data). ``period_s``: T of each
    row in vehicle seconds; ``calendar_s``: throughput per calendar hour, else per planned."""
    m = {name: rows[:, index] for name, index in COLUMN.items()}
    covered = rows[:, STATE_COLUMNS].sum(axis=1)
    planned = covered - m["offline_s"]
    downtime = m["error_s"] + m["manual_s"]
    uptime = planned - downtime
    finished, stop_errors = m["orders_finished"], m["stop_errors"]
    ended = finished + m["orders_failed"] + m["orders_cancelled"]
    throughput_hours = (calendar_s if calendar_s is not None else planned) / 3600
    distance_km = m["distance_m"] / 1000
    return {
        # To the facts' millisecond (below: float noise, a clip at now's microseconds), so a
        # period without data has no_data_seconds == period_seconds.
        "period_seconds": np.round(period_s, 3),
        "no_data_seconds": np.round(np.maximum(0.0, period_s - covered), 3),
        "planned_seconds": planned,
        "downtime_seconds": downtime,
        "availability": _ratio(uptime, planned),
        "utilization": _ratio(m["working_s"], planned),
        "idle_share": _ratio(m["idle_s"], planned),
        "charging_share": _ratio(m["charging_s"], planned),
        "throughput_per_hour": _ratio(finished, throughput_hours),
        "orders_finished": finished,
        "orders_failed": m["orders_failed"],
        "orders_cancelled": m["orders_cancelled"],
        "order_success_rate": _ratio(finished, ended),
        "loads_handled": m["loads_handled"],
        "distance_km": distance_km,
        "distance_per_order_km": _ratio(distance_km, finished),
        # Percentiles need the facts: the pages that show one compute it exactly.
        "cycle_time_p50_seconds": np.full(len(rows), np.nan),
        "mtbf_seconds": _ratio(uptime, stop_errors),
        "mttr_seconds": _ratio(m["stop_error_s"], stop_errors),
        "stop_errors": stop_errors,
        "errors": m["errors"],
        # Time-weighted: the charge integrated over the time it held / that time
        # (``battery_samples`` counts the hold in microseconds, ``facts.rollup.MICROS``).
        "mean_charge": _ratio(m["battery_charge_sum"], m["battery_samples"] / MICROS),
        "min_charge": m["battery_charge_min"],
    }


def kpis_at(columns: dict[str, Column], index: int) -> Kpis:
    """Row ``index`` of ``kpi_columns`` as ``Kpis``."""
    values: dict[str, float | int | None] = {}
    for name, column in columns.items():
        value = float(column[index])  # NaN: no denominator
        values[name] = None if value != value else int(value) if name in COUNT_KPIS else value
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


def recorded(kpis: Kpis) -> bool:
    """Whether a period has any time after the vehicles' first message: one before the fleet
    was connected is no comparison, one it spent offline is ("previous: 0"). Every page
    decides so (the web app by the same two fields)."""
    return kpis.no_data_seconds < kpis.period_seconds
