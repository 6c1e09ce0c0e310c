"""Result shapes of the Dashboard."""

from datetime import date
from typing import Literal

from pydantic import Field

from fleetscope.analytics.core.models import PeriodOut
from fleetscope.appstore.schemas import CamelModel

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
        description="false: the value (cycle time over more than 31 days) comes from a "
        "histogram, within 0.5 %, the same number as on Processes",
    )
    series: list[SparkPoint]


class DashboardOut(CamelModel):
    period: PeriodOut
    granularity: Literal["day", "week", "month"]
    tiles: list[DashboardTile]
