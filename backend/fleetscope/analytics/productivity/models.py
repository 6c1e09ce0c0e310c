"""Result shapes of the productivity pages: Productivity, History, Dashboard."""

from datetime import date
from typing import Literal

from pydantic import Field

from fleetscope.analytics.core.models import Kpis, PeriodOut, StateTimes
from fleetscope.appstore.schemas import CamelModel


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
    "availability", "utilization", "throughput", "orders", "cycleTimeP50", "mtbf", "mttr",
    "errors", "meanCharge",
]  # fmt: skip


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
