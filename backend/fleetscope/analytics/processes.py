"""``GET /v2/Analytics/Processes``: order cycle times, outcomes, paused and waiting time.

Orders count in T where they **end** (as in the rollups and productivity). Cycle time =
end - start of finished orders; its percentiles are exact (``quantile_cont``: linear
interpolation between the closest ranks), read from the orders themselves, because the
rollups' histogram is only within 10 %. The histogram uses the rollups' fixed log-spaced
buckets (``facts.rollup``), so it lines up with every other cycle-time chart. Paused and
waiting time are the sums (and means per ended order) of the orders' ``paused_s`` and
``waiting_s``: time with the order paused, and time with one of its actions WAITING.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import duckdb
from pydantic import Field

from fleetscope.analytics.fact_rows import CURRENT, PREVIOUS, rows_in_periods, select_periods
from fleetscope.analytics.models import PeriodOut
from fleetscope.analytics.params import AnalyticsScope
from fleetscope.analytics.plan import period_out
from fleetscope.analytics.sql_time import seconds_between
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.rollup import (
    CYCLE_BUCKET_BASE_S,
    CYCLE_BUCKET_COUNT,
    cycle_bucket_lower_bounds,
)

CYCLE_SQL = seconds_between("f.end_at", "f.start_at")
_CYCLE_BUCKET_SQL = (
    f"CASE WHEN cycle_s < {CYCLE_BUCKET_BASE_S} THEN 0 ELSE least({CYCLE_BUCKET_COUNT - 1}, "
    f"1 + floor(4 * log2(cycle_s / {CYCLE_BUCKET_BASE_S}))::INTEGER) END"
)
ORDER_COLUMNS = (
    f"f.vehicle_id, f.workflow, f.outcome, {CYCLE_SQL} AS cycle_s, f.paused_s, f.waiting_s"
)
# Counts, histogram, max and sums group small (by outcome and cycle bucket) and add up in
# Python; only the exact percentiles need a pass over the finished orders' cycle times.
_SUMMARY = (
    f"outcome, CASE WHEN outcome = 'finished' THEN {_CYCLE_BUCKET_SQL} END AS cycle_bucket, "
    "count(*), max(cycle_s), sum(paused_s), sum(waiting_s)"
)
_QUANTILES = "quantile_cont(cycle_s, [0.5, 0.9, 0.95]), avg(cycle_s)"

Key = tuple[Any, ...]


@dataclass(slots=True)
class OrderSummary:
    outcomes: dict[str, int] = field(default_factory=dict)
    histogram: list[int] = field(default_factory=lambda: [0] * CYCLE_BUCKET_COUNT)
    max_cycle_s: float | None = None
    paused_s: float = 0.0
    waiting_s: float = 0.0
    quantiles: list[float] | None = None
    mean_cycle_s: float | None = None

    def add(self, other: "OrderSummary") -> None:
        for outcome, count in other.outcomes.items():
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + count
        for index, count in enumerate(other.histogram):
            self.histogram[index] += count
        if other.max_cycle_s is not None:
            self.max_cycle_s = max(self.max_cycle_s or 0.0, other.max_cycle_s)
        self.paused_s += other.paused_s
        self.waiting_s += other.waiting_s


def summarize_orders(
    cursor: duckdb.DuckDBPyConnection,
    rows: tuple[str, list[Any]],
    *,
    keys: list[str],
    fleet_keys: list[str] | None = None,
    where: tuple[str, list[Any]] = ("TRUE", []),
) -> dict[Key, OrderSummary]:
    """Per value of ``keys`` (constant column names): outcomes, histogram, max, sums and the
    exact percentiles of finished orders. With ``fleet_keys`` (a subset of ``keys``) the
    groups summed over the other keys are added too, as keys padded with ``None``."""
    rows_sql, parameters = rows
    condition, condition_parameters = where
    source = f"FROM ({rows_sql}) WHERE {condition}"
    columns = ", ".join(keys)
    result: dict[Key, OrderSummary] = {}
    summary_sql = f"SELECT {columns}, {_SUMMARY} {source} GROUP BY ALL"
    width = len(keys)
    for row in cursor.execute(summary_sql, [*parameters, *condition_parameters]).fetchall():
        part = OrderSummary()
        outcome, bucket, count, max_cycle, paused, waiting = row[width:]
        part.outcomes[str(outcome)] = int(count)
        if bucket is not None:
            part.histogram[int(bucket)] = int(count)
            part.max_cycle_s = max_cycle
        part.paused_s, part.waiting_s = float(paused or 0.0), float(waiting or 0.0)
        keys_of_row = [tuple(row[:width])]
        if fleet_keys is not None:
            keys_of_row.append(
                tuple(row[i] if k in fleet_keys else None for i, k in enumerate(keys))
            )
        for key in keys_of_row:
            result.setdefault(key, OrderSummary()).add(part)
    sets = f"({columns})" + (f", ({', '.join(fleet_keys)})" if fleet_keys is not None else "")
    quantile_sql = (
        f"SELECT {columns}, {_QUANTILES} {source} AND outcome = 'finished' "
        f"GROUP BY GROUPING SETS ({sets})"
    )
    for row in cursor.execute(quantile_sql, [*parameters, *condition_parameters]).fetchall():
        summary = result.setdefault(tuple(row[:width]), OrderSummary())
        summary.quantiles, summary.mean_cycle_s = row[width], row[width + 1]
    return result


class CycleTimes(CamelModel):
    count: int = Field(description="finished orders")
    p50_seconds: float | None
    p90_seconds: float | None
    p95_seconds: float | None
    max_seconds: float | None
    mean_seconds: float | None


class Outcomes(CamelModel):
    finished: int
    failed: int
    cancelled: int
    total: int
    success_rate: float | None = Field(description="finished / (finished + failed + cancelled)")


class OrderTimes(CamelModel):
    paused_seconds: float = Field(description="sum over ended orders")
    waiting_seconds: float = Field(description="sum of time with an action WAITING")
    mean_paused_seconds: float | None = Field(description="per ended order")
    mean_waiting_seconds: float | None


class ProcessFigures(CamelModel):
    cycle: CycleTimes
    outcomes: Outcomes
    times: OrderTimes
    histogram: list[int] = Field(description="finished orders per bucket of histogramEdges")


class ProcessEntry(CamelModel):
    vehicle_id: int | None = Field(description="null: the selected vehicles combined")
    name: str | None
    current: ProcessFigures
    previous: ProcessFigures


class ProcessesOut(CamelModel):
    period: PeriodOut
    histogram_edges: list[float] = Field(
        description="lower edge in seconds of each histogram bucket; the last is open above"
    )
    entries: list[ProcessEntry] = Field(description="one per vehicle, or the combined entry")
    fleet: ProcessEntry


def _share(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator > 0 else None


def figures(summary: OrderSummary | None) -> ProcessFigures:
    summary = summary or OrderSummary()
    finished, failed, cancelled = (
        summary.outcomes.get(outcome, 0) for outcome in ("finished", "failed", "cancelled")
    )
    none: list[float | None] = [None, None, None]
    quantiles: list[float | None] = list(summary.quantiles) if summary.quantiles else none
    ended = finished + failed + cancelled
    return ProcessFigures(
        cycle=CycleTimes(
            count=finished,
            p50_seconds=quantiles[0],
            p90_seconds=quantiles[1],
            p95_seconds=quantiles[2],
            max_seconds=summary.max_cycle_s,
            mean_seconds=summary.mean_cycle_s,
        ),
        outcomes=Outcomes(
            finished=finished,
            failed=failed,
            cancelled=cancelled,
            total=ended,
            success_rate=_share(finished, ended),
        ),
        times=OrderTimes(
            paused_seconds=summary.paused_s,
            waiting_seconds=summary.waiting_s,
            mean_paused_seconds=_share(summary.paused_s, ended),
            mean_waiting_seconds=_share(summary.waiting_s, ended),
        ),
        histogram=list(summary.histogram),
    )


def histogram_edges() -> list[float]:
    return cycle_bucket_lower_bounds()


def processes(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime
) -> ProcessesOut:
    selection = select_periods(scope, now=now)
    rows_sql, parameters = rows_in_periods(
        selection, table="orders", at="end_at", columns=ORDER_COLUMNS
    )
    if scope.combined:
        found = summarize_orders(cursor, (rows_sql, parameters), keys=["bucket"])
        summaries: dict[tuple[int | None, int], OrderSummary] = {
            (None, key[0]): value for key, value in found.items()
        }
    else:
        found = summarize_orders(
            cursor, (rows_sql, parameters), keys=["vehicle_id", "bucket"], fleet_keys=["bucket"]
        )
        summaries = {(key[0], key[1]): value for key, value in found.items()}

    def entry(vehicle_id: int | None, name: str | None) -> ProcessEntry:
        return ProcessEntry(
            vehicle_id=vehicle_id,
            name=name,
            current=figures(summaries.get((vehicle_id, CURRENT))),
            previous=figures(summaries.get((vehicle_id, PREVIOUS))),
        )

    fleet = entry(None, None)
    if scope.combined:
        entries = [fleet]
    else:
        entries = [entry(vehicle.id, vehicle.name) for vehicle in scope.vehicles]
    return ProcessesOut(
        period=period_out(scope), histogram_edges=histogram_edges(), entries=entries, fleet=fleet
    )
