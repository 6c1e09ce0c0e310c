"""Scenario model of the fleet simulator: layout, stations, workflows, errors and vehicles.

Everything here is plain data (frozen dataclasses) so a scenario can be built in a test in a
few lines; ``fleetscope.simulator.warehouse.default_scenario`` builds the demo warehouse.
"""

from dataclasses import dataclass, field
from enum import StrEnum


class ProtocolVersion(StrEnum):
    V1_1 = "1.1.0"
    V2_0 = "2.0.0"
    V2_1 = "2.1.0"
    V3_0 = "3.0.0"

    @property
    def major_topic(self) -> str:
        """The topic level of the major version (``v1``, ``v2``, ``v3``)."""
        return "v" + self.value.split(".", 1)[0]


class ErrorSeverity(StrEnum):
    """How an error type affects the vehicle; the emitted level depends on the version."""

    WARNING = "warning"  # keeps driving (3.0 may report URGENT)
    STOPPING = "stopping"  # stops the vehicle and fails its order (FATAL; 3.0 CRITICAL or FATAL)


@dataclass(frozen=True, slots=True)
class Node:
    node_id: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Layout:
    map_id: str
    nodes: tuple[Node, ...]
    # Undirected connections; the simulator drives them in both directions.
    connections: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Workflow:
    """A kind of transport order: pick at one of ``sources``, drop at one of ``targets``."""

    name: str  # orderIds are ``{name}-{number}`` so the default workflow rule resolves them
    weight: float  # relative share of the order volume
    sources: tuple[str, ...]  # node ids
    targets: tuple[str, ...]
    pick_seconds: tuple[float, float]  # uniform range of the pick action's duration
    drop_seconds: tuple[float, float]
    load_type: str = "EUR-pallet"


@dataclass(frozen=True, slots=True)
class ErrorType:
    error_type: str
    severity: ErrorSeverity
    description: str
    # Level reported by 3.0 vehicles (WARNING/URGENT for warnings, CRITICAL/FATAL for stops).
    level_v3: str
    duration_seconds: tuple[float, float]  # log-uniform range of the episode's duration
    hotspots: tuple[str, ...] = ()  # node ids where this error type is much likelier


@dataclass(frozen=True, slots=True)
class BatteryModel:
    capacity_wh: float = 2400.0
    drain_percent_per_m: float = 0.004
    drain_percent_per_hour: float = 1.2  # electronics, also while standing
    charge_percent_per_minute: float = 0.55
    go_charge_below: float = 30.0
    charge_until: float = 90.0
    health_loss_per_day: float = 0.006  # percent of state of health, by calendar ageing
    health_loss_per_cycle: float = 0.04  # percent per equivalent full cycle charged


@dataclass(frozen=True, slots=True)
class VehicleSpec:
    serial_number: str
    version: ProtocolVersion
    speed_mps: float = 1.4
    initial_charge: float = 80.0
    initial_health: float = 97.0
    # Per-day rates of the episodes this vehicle has (Poisson).
    offline_per_day: float = 0.3
    manual_per_day: float = 0.3


@dataclass(frozen=True, slots=True)
class ShiftVolume:
    """Order arrival intensity per vehicle; the busiest shift gets ``orders_per_hour``."""

    orders_per_hour: float = 24.0
    early: float = 1.0  # 06:00-14:00 local time
    late: float = 0.8  # 14:00-22:00
    night: float = 0.3  # 22:00-06:00
    saturday: float = 0.7
    sunday: float = 0.25

    def intensity(self, *, weekday: int, hour: int) -> float:
        """Relative intensity (0..1) for a local weekday (Monday 0) and hour."""
        if 6 <= hour < 14:
            shift = self.early
        elif 14 <= hour < 22:
            shift = self.late
        else:
            shift = self.night
        day = {5: self.saturday, 6: self.sunday}.get(weekday, 1.0)
        return shift * day


@dataclass(frozen=True, slots=True)
class Incidents:
    """Probabilities that shape failures; rates are per event named in the field."""

    error_per_node: float = 0.005  # chance of an error when a vehicle reaches a node
    hotspot_factor: float = 6.0  # how much likelier errors are at a hotspot node
    zipf_exponent: float = 1.1
    cancel_per_order: float = 0.02  # cancelOrder instant action
    replace_per_order: float = 0.012  # another order replaces it before idle
    pick_fail_per_order: float = 0.015  # the pick action FAILs, the order fails
    reboot_share: float = 0.5  # share of offline episodes that restart the vehicle software
    offline_minutes: tuple[float, float] = (3.0, 90.0)
    manual_minutes: tuple[float, float] = (4.0, 45.0)


@dataclass(frozen=True, slots=True)
class Scenario:
    site_time_zone: str
    layout: Layout
    workflows: tuple[Workflow, ...]
    chargers: tuple[str, ...]  # node ids of charging spots
    error_types: tuple[ErrorType, ...]  # in Zipf rank order, most frequent first
    vehicles: tuple[VehicleSpec, ...]
    manufacturer: str = "Fleetscope Sim"
    interface: str = "uagv"
    battery: BatteryModel = field(default_factory=BatteryModel)
    volume: ShiftVolume = field(default_factory=ShiftVolume)
    incidents: Incidents = field(default_factory=Incidents)
    heartbeat_seconds: float = 30.0  # VDA 5050: a state at least every 30 s
    position_seconds: float = 15.0  # extra state while driving when no other was sent
    charge_workflow: str = "CHARGE"
