"""``GET /v2/Analytics/Processes`` and the dashboard's cycle-time median of the orders ended in
T (docs/analytics-v2.md); cycle time = end - start of a finished order, integer microseconds."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

import duckdb
from pydantic import Field

from fleetscope.analytics.core import facts, plan, sql
from fleetscope.analytics.core.models import PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.percentiles import PERCENTILES_EXACT, exact_for, percentiles
from fleetscope.analytics.core.periods import TimeCell
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts import rollup

CYCLE_US = "epoch_us(f.end_at) - epoch_us(f.start_at) AS cycle_us"
ORDER_COLUMNS = f"f.vehicle_id, f.workflow, f.outcome, {CYCLE_US}, f.paused_s, f.waiting_s"
OUTCOMES = ("finished", "failed", "cancelled")
# A plain ``outcome IN`` the three costs DuckDB several times this. Per order -1 failed, -2
# cancelled, else its histogram bucket (``rollup.cycle_bucket``'s floating-point steps, same
# edges), so outcome counts, histogram and sums are one grouped count.
ENDED = f"(outcome IN {OUTCOMES[1:]} OR outcome = 'finished')"
ORDER_CODE = (
    "CASE WHEN outcome = 'failed' THEN -1 WHEN outcome = 'cancelled' THEN -2 "
    f"WHEN cycle_us < {int(rollup.CYCLE_BUCKET_BASE_S * 1e6)} THEN 0 "
    f"ELSE least({rollup.CYCLE_BUCKET_COUNT - 1}, "
    f"1 + floor(4 * log2(cycle_us / 1e6 / {rollup.CYCLE_BUCKET_BASE_S:.1f})))::INTEGER END"
)
Key = tuple[Any, int]  # (key value, or None for the sum over the values; bucket)


@dataclass(slots=True)
class OrderSummary:
    outcomes: dict[str, int] = field(default_factory=dict)
    paused_s: float = 0.0
    waiting_s: float = 0.0
    cycle_sum_us: float = 0.0
    quantiles: list[float] | None = None  # p50, p90, p95 of the finished orders, seconds
    maximum: float | None = None
    histogram: list[int] = field(default_factory=lambda: [0] * rollup.CYCLE_BUCKET_COUNT)


def summarize_orders(
    cursor: duckdb.DuckDBPyConnection,
    rows: tuple[str, list[Any]],
    *,
    key: str | None,
    where: tuple[str, list[Any]] = ("TRUE", []),
    fleet: bool = False,
    exact: bool = True,
) -> dict[Key, OrderSummary]:
    """Per ``(value of key, bucket)`` (key None: per bucket), with ``fleet`` also per ``(None,
    bucket)``; ``rows`` of ``ORDER_COLUMNS``; ``where``: a constant condition, its parameters."""
    rows_sql, parameters = rows
    condition, condition_parameters = where
    parameters = [*parameters, *condition_parameters]
    key_sql = key or "NULL"
    source = f"FROM ({rows_sql}) WHERE {condition} AND {ENDED}"
    result: dict[Key, OrderSummary] = {}
    for value, bucket, code, count, paused, waiting, total, top in cursor.execute(
        f"SELECT {key_sql}, bucket, {ORDER_CODE}, count(*), sum(paused_s), sum(waiting_s), "
        f"sum(cycle_us), max(cycle_us) {source} GROUP BY ALL",
        parameters,
    ).fetchall():
        outcome = OUTCOMES[-code] if code < 0 else "finished"
        for group in [(value, bucket), *([(None, bucket)] if fleet else [])]:
            summary = result.setdefault(group, OrderSummary())
            summary.outcomes[outcome] = summary.outcomes.get(outcome, 0) + count
            summary.paused_s += paused
            summary.waiting_s += waiting
            if code >= 0:
                summary.histogram[code] += count
                summary.cycle_sum_us += total
                summary.maximum = max(summary.maximum or 0.0, top / 1e6)
    finished = (f"SELECT *, {key_sql} AS k {source} AND outcome = 'finished'", parameters)
    sets = [("k", "bucket"), *([("bucket",)] if fleet else [])]
    quantiles = percentiles(
        cursor, finished, value="cycle_us", sets=sets, quantiles=(0.5, 0.9, 0.95), exact=exact
    )
    for group, micros in quantiles.items():
        result[group].quantiles = [us / 1e6 for us in micros]
    return result


class CycleTimes(CamelModel):
    count: int = Field(description="finished orders")
    p50_seconds: float | None
    p90_seconds: float | None
    p95_seconds: float | None
    max_seconds: float | None
    mean_seconds: float | None
    exact: bool = Field(default=True, description=PERCENTILES_EXACT)


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


def figures(summary: OrderSummary | None, *, exact: bool) -> ProcessFigures:
    summary = summary or OrderSummary()
    finished, failed, cancelled = (summary.outcomes.get(outcome, 0) for outcome in OUTCOMES)
    p50, p90, p95 = summary.quantiles or (None, None, None)
    ended = finished + failed + cancelled
    paused, waiting = sql.summed_seconds(summary.paused_s), sql.summed_seconds(summary.waiting_s)
    return ProcessFigures(
        cycle=CycleTimes(
            count=finished,
            p50_seconds=p50,
            p90_seconds=p90,
            p95_seconds=p95,
            max_seconds=summary.maximum,
            mean_seconds=summary.cycle_sum_us / finished / 1e6 if finished else None,
            exact=exact,
        ),
        outcomes=Outcomes(
            finished=finished,
            failed=failed,
            cancelled=cancelled,
            total=ended,
            success_rate=finished / ended if ended else None,
        ),
        times=OrderTimes(
            paused_seconds=paused,
            waiting_seconds=waiting,
            mean_paused_seconds=paused / ended if ended else None,
            mean_waiting_seconds=waiting / ended if ended else None,
        ),
        histogram=summary.histogram,
    )


def periods_apart(slices: Iterable[facts.SiteSlice], count: int) -> facts.Selection:
    """A slice per site and period (``bucket % count``): a period without a shift is then one
    stretch of time bounded in the scan, not a CASE or a join per row."""
    return facts.Selection(
        [
            facts.SiteSlice(part.vehicle_ids, [w for w in part.windows if w[1] % count == period])
            for part in slices
            for period in range(count)
        ]
    )


def rows_by_period(
    scope: AnalyticsScope,
    *,
    now: datetime,
    table: str = "orders",
    columns: str = ORDER_COLUMNS,
    cell: TimeCell | None = None,
) -> tuple[str, list[Any]]:
    """``facts.rows_in_periods`` of the period and the previous one, apart."""
    selection = periods_apart(facts.select_periods(scope, now=now, cell=cell).slices, 2)
    return facts.rows_in_periods(selection, table=table, at="end_at", columns=columns)


def processes(
    cursor: duckdb.DuckDBPyConnection, scope: AnalyticsScope, *, now: datetime
) -> ProcessesOut:
    rows = rows_by_period(scope, now=now)
    key = None if scope.combined else "vehicle_id"
    exact = exact_for(scope.span)
    summaries = summarize_orders(cursor, rows, key=key, fleet=not scope.combined, exact=exact)

    def entry(vehicle_id: int | None, name: str | None) -> ProcessEntry:
        return ProcessEntry(
            vehicle_id=vehicle_id,
            name=name,
            current=figures(summaries.get((vehicle_id, facts.CURRENT)), exact=exact),
            previous=figures(summaries.get((vehicle_id, facts.PREVIOUS)), exact=exact),
        )

    fleet = entry(None, None)
    entries = [entry(vehicle.id, vehicle.name) for vehicle in scope.vehicles]
    return ProcessesOut(
        period=plan.period_out(scope, now=now),
        histogram_edges=rollup.cycle_bucket_lower_bounds(),
        entries=[fleet] if scope.combined else entries,
        fleet=fleet,
    )


def cycle_medians(
    cursor: duckdb.DuckDBPyConnection,
    collected: plan.Collected,
    *,
    periods: Sequence[Sequence[int]],
    exact: bool,
) -> tuple[list[float | None], list[float | None]]:
    """Median cycle time (as ``processes``) per bucket of ``periods`` (exact: a day, week or
    month) and per period (its buckets' union; ``exact`` as there), None without a finished order.
    Windows are tagged ``position * len(periods) + period`` (decoded: cheaper than a MAP lookup)."""
    count = len(periods)
    tags = [(bucket, period) for period, members in enumerate(periods) for bucket in members]
    slices = [
        facts.SiteSlice(
            list(site.group.vehicle_ids),
            sorted(
                (window, position * count + period)
                for position, (bucket, period) in enumerate(tags)
                for window in site.windows.get(bucket, ())
            ),
        )
        for site in collected.sites
    ]
    rows_sql, parameters = facts.rows_in_periods(
        periods_apart(slices, count), table="orders", at="end_at", columns=ORDER_COLUMNS
    )
    rows = (
        f"SELECT bucket AS tag, bucket % {count} AS period, cycle_us FROM ({rows_sql}) "  # noqa: S608 - constants only
        "WHERE outcome = 'finished'",
        parameters,
    )
    median = partial(percentiles, cursor, rows, value="cycle_us", quantiles=(0.5,))
    found = median(sets=[("tag",), *([("period",)] if exact else [])], exact=True)
    if not exact:
        found |= {
            (None, *key): value for key, value in median(sets=[("period",)], exact=False).items()
        }
    per_tag = {tag: value[0] / 1e6 for (tag, *_), value in found.items() if tag is not None}
    per_period = {key[1]: value[0] / 1e6 for key, value in found.items() if key[0] is None}
    medians = [per_tag.get(position * count + period) for position, (_, period) in enumerate(tags)]
    return medians, [per_period.get(period) for period in range(count)]
