"""Result shapes of ``/v2/Analytics/`` (camelCase JSON): durations in seconds, shares 0..1,
distances km, charge percent; a KPI without a denominator is ``null``."""

from datetime import date, datetime
from typing import Annotated

import numpy as np
import numpy.typing as npt
from pydantic import Field

from fleetscope.appstore.schemas import CamelModel

# Instants of answers with thousands of them (map points, chart lines): DuckDB's text or epoch
# milliseconds, as a chart's axis reads them, not datetimes converted and validated each.
Instant = Annotated[
    str,
    Field(
        description="UTC, ISO 8601 to the millisecond", json_schema_extra={"format": "date-time"}
    ),
]
EpochMillis = Annotated[
    int, Field(description="UTC instant in milliseconds since 1970-01-01T00:00:00Z")
]


def epoch_millis(epoch_us: npt.NDArray[np.float64] | npt.NDArray[np.int64]) -> list[int]:
    """Instants as epoch milliseconds, truncated."""
    millis: list[int] = (epoch_us.astype(np.int64) // 1000).tolist()
    return millis


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


class Coverage(CamelModel):
    """How much of a period the fleet recorded: the comparison's note reads both periods'."""

    period_seconds: float = Field(description="vehicle-seconds of the period")
    no_data_seconds: float = Field(description="the part before the vehicles' first message")

    @classmethod
    def of(cls, kpis: Kpis) -> "Coverage":
        return cls(period_seconds=kpis.period_seconds, no_data_seconds=kpis.no_data_seconds)


class PeriodOut(CamelModel):
    """The period and the previous period it is compared with, like for like."""

    from_: date = Field(alias="from")
    to: date
    previous_from: date = Field(description="first day of the previous period (same length)")
    previous_to: date = Field(description="last day of the previous period")
    start: datetime = Field(description="instant the first day begins (site-local midnight)")
    end: datetime = Field(
        description="instant the period ends: the midnight after `to` (with a shift: the end "
        "of its last shift), or now while it runs"
    )
    previous_start: datetime = Field(description="instant the previous period begins")
    previous_end: datetime = Field(
        description="instant the previous period ends: as `end` for the previous days, or while "
        "the period runs the same elapsed site-local time after previousStart as now after start"
    )
    running: bool = Field(
        description="the period has not ended (its last shift, with a shift): T and the previous "
        "period are clipped"
    )
    days: int
    shift: str
    combined: bool
    vehicle_ids: list[int]
