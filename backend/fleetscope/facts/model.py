"""Facts: what the derivation emits and the fact store keeps (product.md section 2).

Times are timezone-aware UTC. ``vehicle_id`` is the application store's vehicle id.
"""

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class VehicleState(StrEnum):
    """Exactly one at every instant; the order is the precedence (first match wins)."""

    OFFLINE = "offline"
    ERROR = "error"
    MANUAL = "manual"
    CHARGING = "charging"
    WORKING = "working"
    IDLE = "idle"


class OrderOutcome(StrEnum):
    FINISHED = "finished"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class StateInterval:
    vehicle_id: int
    state: VehicleState
    start: datetime
    end: datetime


@dataclass(frozen=True, slots=True)
class OrderRun:
    vehicle_id: int
    order_id: str
    workflow: str
    start: datetime
    end: datetime
    outcome: OrderOutcome
    distance_m: float
    nodes_traversed: int
    nodes_total: int
    paused_s: float
    waiting_s: float  # time the order's actions spent WAITING
    error_count: int


@dataclass(frozen=True, slots=True)
class ActionRecord:
    vehicle_id: int
    action_id: str
    action_type: str
    order_id: str  # empty for instant actions
    first_seen: datetime
    started: datetime | None  # first RUNNING
    end: datetime
    status: str  # FINISHED or FAILED
    # A load-handling type: VDA 5050's or the site's own, as the derivation was configured.
    load_handling: bool = False


@dataclass(frozen=True, slots=True)
class ErrorEpisode:
    vehicle_id: int
    error_type: str
    level: str
    description: str  # as at the start
    references: str  # JSON object of the references, keys sorted (a repeated key: a list)
    start: datetime
    end: datetime
    x: float | None
    y: float | None
    map_id: str
    order_id: str


@dataclass(frozen=True, slots=True)
class BatterySample:
    vehicle_id: int
    at: datetime
    charge: float
    charging: bool
    voltage: float | None
    health: float | None
    # What the reports since the previous sample held (derive/battery.py): seconds, the
    # charge integrated over them (percent-seconds), the percentage points it fell.
    held_s: float = 0.0
    held_charge_s: float = 0.0
    discharged: float = 0.0
    # A closing sample: at the instant the vehicle went offline, carrying the last report's
    # hold up to it; no report (the step of time below 20 % ends here, none starts).
    closes: bool = False
    # The lowest charge that held in the hold (None: none held).
    held_low: float | None = None


@dataclass(frozen=True, slots=True)
class ChargeSession:
    vehicle_id: int
    start: datetime
    end: datetime
    start_charge: float
    end_charge: float
    # Highest charge since the previous session ended: depth of discharge = this - start_charge.
    peak_before: float


@dataclass(frozen=True, slots=True)
class TrackPoint:
    vehicle_id: int
    at: datetime
    x: float
    y: float
    map_id: str
    distance_m: float  # driven since the previous track point (0 after a relocalisation jump)


Fact = (
    StateInterval
    | OrderRun
    | ActionRecord
    | ErrorEpisode
    | BatterySample
    | ChargeSession
    | TrackPoint
)


@dataclass(frozen=True, slots=True)
class LiveStatus:
    """What the statusboard shows of one vehicle right now."""

    vehicle_id: int
    state: VehicleState
    since: datetime
    last_message_at: datetime | None
    order_id: str
    workflow: str
    charge: float | None
    charging: bool
    active_errors: tuple[tuple[str, str, str], ...]  # (type, level, description)
    x: float | None
    y: float | None
    map_id: str
    # The battery reports' hold since the last sample (stored with the next one): up to
    # ``held_until`` (the last report, or a whole minute's sample after it), from where the
    # last report's charge (``charge``) holds on; and the points the charge fell in it.
    held_until: datetime | None = None
    held_s: float = 0.0
    held_charge_s: float = 0.0
    held_low: float | None = None
    held_discharged: float = 0.0
