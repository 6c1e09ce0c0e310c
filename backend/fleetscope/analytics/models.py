"""Result shapes of ``/v2/Analytics/`` (camelCase JSON, listed in the OpenAPI document).

Durations are seconds, shares are fractions 0..1, distances km, charge percent. A KPI
without a denominator (no planned time, no finished order...) is ``null``.
"""

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from fleetscope.appstore.schemas import CamelModel

StateName = Literal["offline", "error", "manual", "charging", "working", "idle"]


class StateTimes(CamelModel):
    """Seconds in each vehicle state (summed over vehicles when combined)."""

    offline: float = 0.0
    error: float = 0.0
    manual: float = 0.0
    charging: float = 0.0
    working: float = 0.0
    idle: float = 0.0


class Kpis(CamelModel):
    period_seconds: float = Field(description="T: selected days x shift, clipped to now")
    no_data_seconds: float = Field(description="part of T before a vehicle's first message")
    planned_seconds: float = Field(description="T with a known state minus offline")
    downtime_seconds: float = Field(description="error + manual")
    availability: float | None
    utilization: float | None
    idle_share: float | None
    charging_share: float | None
    throughput_per_hour: float | None = Field(
        description="finished orders per calendar hour of T (fleet) or planned hour (vehicle)"
    )
    orders_finished: int
    orders_failed: int
    orders_cancelled: int
    order_success_rate: float | None
    loads_handled: int
    distance_km: float
    distance_per_order_km: float | None
    cycle_time_p50_seconds: float | None = Field(
        description="median cycle time of finished orders, exact (linear interpolation "
        "between the closest ranks, as on Processes); null where a page does not read it"
    )
    mtbf_seconds: float | None
    mttr_seconds: float | None
    stop_errors: int = Field(description="stop-level episodes: FATAL, in 3.0 also CRITICAL")
    errors: int = Field(description="error episodes of every level started in T")
    mean_charge: float | None
    min_charge: float | None


class PeriodOut(CamelModel):
    """The period and the previous period it is compared with, like for like (glossary,
    "Comparison"): while the period runs, both are clipped at the same elapsed time."""

    from_: date = Field(alias="from")
    to: date
    previous_from: date = Field(description="first day of the previous period (same length)")
    previous_to: date = Field(description="last day of the previous period")
    start: datetime = Field(description="instant the first day begins (site-local midnight)")
    end: datetime = Field(description="instant the period ends: the midnight after `to`, or now")
    previous_start: datetime = Field(description="instant the previous period begins")
    previous_end: datetime = Field(
        description="instant the previous period ends: its last midnight, or while the period "
        "runs the same elapsed site-local time after previousStart as now after start"
    )
    running: bool = Field(
        description="the period has not ended: T and the previous period are clipped"
    )
    days: int
    shift: str
    combined: bool
    vehicle_ids: list[int]


class ProductivityEntry(CamelModel):
    vehicle_id: int | None = Field(description="null: the selected vehicles combined")
    name: str | None
    states: StateTimes
    previous_states: StateTimes
    kpis: Kpis
    previous: Kpis


class ProductivityOut(CamelModel):
    period: PeriodOut
    entries: list[ProductivityEntry] = Field(
        description="one per vehicle, or one combined entry (vehicleId null) when combined"
    )
    fleet: ProductivityEntry = Field(description="the selected vehicles combined, always")
    heatmap: list[list[int]] = Field(
        description="finished orders in T by site-local weekday (0 = Monday) and hour (0-23)"
    )


class HistoryBucket(CamelModel):
    """Buckets lying wholly in the future are not returned."""

    from_: date = Field(alias="from")
    to: date
    partial: bool = Field(
        default=False, description="still running (the previous period's: cut at its clip)"
    )


Values = list[list[float | None]]  # one list per series, aligned with the buckets
Amounts = list[list[float]]
Counts = list[list[int]]


class KpiGrid(CamelModel):
    """The productivity KPIs of ``Kpis`` per series and bucket: ``grid.availability[s][b]`` is
    series ``s`` in bucket ``b`` (null: no data). Reliability, cycle time and charge have
    their own pages and the dashboard's sparklines; a test keeps these fields a subset of
    ``Kpis`` with the same meaning."""

    period_seconds: Amounts
    no_data_seconds: Amounts
    planned_seconds: Amounts
    downtime_seconds: Amounts
    availability: Values
    utilization: Values
    idle_share: Values
    charging_share: Values
    throughput_per_hour: Values
    orders_finished: Counts
    orders_failed: Counts
    orders_cancelled: Counts
    loads_handled: Counts
    distance_km: Amounts


class HistorySeries(CamelModel):
    vehicle_id: int | None
    name: str | None


class ProductivityHistoryOut(CamelModel):
    period: PeriodOut
    granularity: Literal["day", "week", "month"]
    buckets: list[HistoryBucket]
    previous_buckets: list[HistoryBucket]
    series: list[HistorySeries] = Field(
        description="one per vehicle, or one combined series (vehicleId null) when combined"
    )
    kpis: KpiGrid = Field(description="each KPI per series (in series order) and bucket")
    previous: KpiGrid = Field(description="the same for the previous period's buckets")


TileKey = Literal[
    "availability",
    "utilization",
    "throughput",
    "orders",
    "cycleTimeP50",
    "mtbf",
    "mttr",
    "errors",
    "meanCharge",
]


class SparkPoint(CamelModel):
    from_: date = Field(alias="from")
    value: float | None
    partial: bool = Field(default=False, description="the bucket is still running")


class DashboardTile(CamelModel):
    key: TileKey
    unit: Literal["share", "perHour", "count", "seconds", "percent"]
    value: float | None
    previous: float | None
    # Higher is better for most tiles; not for cycle time, MTTR and errors.
    higher_is_better: bool
    exact: bool = Field(
        default=True,
        description="the value is exact; a percentile (cycle time) is computed from the "
        "orders themselves, the same number as on Processes",
    )
    series: list[SparkPoint]


class DashboardOut(CamelModel):
    period: PeriodOut
    granularity: Literal["day", "week", "month"]
    tiles: list[DashboardTile]


class ActiveError(CamelModel):
    error_type: str
    level: str
    description: str


class StatusTile(CamelModel):
    vehicle_id: int
    name: str
    site_id: int
    state: StateName
    since: datetime | None
    order_id: str
    workflow: str
    charge: float | None
    charging: bool
    active_errors: list[ActiveError]
    last_message_at: datetime | None
    seconds_since_last_message: float | None


class StatusboardOut(CamelModel):
    generated_at: datetime
    state_order: list[StateName] = Field(description="worst first: the order of the tiles")
    counts: dict[str, int]
    vehicles: list[StatusTile]
