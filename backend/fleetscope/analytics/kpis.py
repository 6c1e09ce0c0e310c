"""The KPIs of product.md section 3, computed from additive measures (one glossary, here).

- planned = T - offline, where T counts only time with a known state (time before a
  vehicle's first message is "no data", neither planned nor offline);
- downtime = error + manual; availability = (planned - downtime) / planned;
- utilization = working / planned; idle and charging shares likewise;
- throughput = finished orders per hour: per calendar hour of T for the fleet, per
  planned hour for a vehicle; loads handled = finished load-handling actions;
- MTBF = (planned - downtime) / stop-level episodes (FATAL; 3.0 also CRITICAL);
  MTTR = mean duration of those episodes.
A ratio whose denominator is zero is ``None`` (shown as "no data", never as 0 %).
"""

from fleetscope.analytics.measures import Measures, hist_percentile
from fleetscope.analytics.models import Kpis, StateTimes


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator > 0 else None


def state_times(measures: Measures) -> StateTimes:
    states = measures.states
    return StateTimes(
        offline=states["offline"],
        error=states["error"],
        manual=states["manual"],
        charging=states["charging"],
        working=states["working"],
        idle=states["idle"],
    )


def compute_kpis(measures: Measures, *, period_s: float, calendar_s: float | None = None) -> Kpis:
    """KPIs of ``measures`` over a period of ``period_s`` seconds of vehicle time.

    ``calendar_s``: the fleet's calendar length of T; throughput is then per calendar hour,
    otherwise (one vehicle) per planned hour.
    """
    states = measures.states
    planned = measures.covered_s - states["offline"]
    downtime = states["error"] + states["manual"]
    uptime = planned - downtime
    finished = measures.orders_finished
    ended = finished + measures.orders_failed + measures.orders_cancelled
    throughput_hours = (calendar_s if calendar_s is not None else planned) / 3600
    throughput = _ratio(finished, throughput_hours) if throughput_hours > 0 else None
    return Kpis(
        period_seconds=period_s,
        # Facts have millisecond resolution; below that the difference is float noise.
        no_data_seconds=round(max(0.0, period_s - measures.covered_s), 3),
        planned_seconds=planned,
        downtime_seconds=downtime,
        availability=_ratio(uptime, planned),
        utilization=_ratio(states["working"], planned),
        idle_share=_ratio(states["idle"], planned),
        charging_share=_ratio(states["charging"], planned),
        throughput_per_hour=throughput,
        orders_finished=finished,
        orders_failed=measures.orders_failed,
        orders_cancelled=measures.orders_cancelled,
        order_success_rate=_ratio(finished, ended),
        loads_handled=measures.loads_handled,
        distance_km=measures.distance_m / 1000,
        distance_per_order_km=_ratio(measures.distance_m / 1000, finished),
        cycle_time_p50_seconds=hist_percentile(measures.cycle_hist, 0.5),
        mtbf_seconds=_ratio(uptime, measures.stop_errors),
        mttr_seconds=_ratio(measures.stop_error_s, measures.stop_errors),
        stop_errors=measures.stop_errors,
        errors=measures.errors,
        mean_charge=_ratio(measures.battery_charge_sum, measures.battery_samples),
        min_charge=measures.battery_charge_min,
    )
