"""The normalized message model every VDA 5050 version (1.1, 2.0, 2.1, 3.0) decodes into.

Enumerations are upper case as in 2.x; 1.1's lower-case values and 3.0's renames are mapped
here once so the derivation never looks at a protocol version.
"""

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class MessageKind(StrEnum):
    STATE = "state"
    CONNECTION = "connection"
    FACTSHEET = "factsheet"


class ErrorLevel(StrEnum):
    WARNING = "WARNING"
    URGENT = "URGENT"  # 3.0
    CRITICAL = "CRITICAL"  # 3.0
    FATAL = "FATAL"

    @property
    def stops_vehicle(self) -> bool:
        """FATAL in 1.1-2.1; CRITICAL or FATAL in 3.0 (product.md section 2, rule 2)."""
        return self in (ErrorLevel.CRITICAL, ErrorLevel.FATAL)


class OperatingMode(StrEnum):
    AUTOMATIC = "AUTOMATIC"
    SEMIAUTOMATIC = "SEMIAUTOMATIC"
    MANUAL = "MANUAL"
    SERVICE = "SERVICE"
    TEACHIN = "TEACHIN"  # 3.0 spells it TEACH_IN
    STARTUP = "STARTUP"  # 3.0
    INTERVENED = "INTERVENED"  # 3.0

    @property
    def is_manual(self) -> bool:
        return self in (
            OperatingMode.MANUAL,
            OperatingMode.SERVICE,
            OperatingMode.TEACHIN,
            OperatingMode.INTERVENED,
        )


class ActionStatus(StrEnum):
    WAITING = "WAITING"
    INITIALIZING = "INITIALIZING"
    RUNNING = "RUNNING"
    PAUSED = "PAUSED"
    RETRIABLE = "RETRIABLE"  # 3.0
    FINISHED = "FINISHED"
    FAILED = "FAILED"

    @property
    def is_active(self) -> bool:
        """Statuses that keep a vehicle from being idle (VDA 5050 section 6.6.8)."""
        return self in (
            ActionStatus.WAITING,
            ActionStatus.INITIALIZING,
            ActionStatus.RUNNING,
            ActionStatus.PAUSED,
        )


class ConnectionState(StrEnum):
    ONLINE = "ONLINE"
    OFFLINE = "OFFLINE"
    CONNECTIONBROKEN = "CONNECTIONBROKEN"


@dataclass(frozen=True, slots=True)
class Header:
    interface: str
    major_version: str  # from the topic, e.g. "v2"
    version: str  # from the payload, e.g. "2.0.0"
    manufacturer: str
    serial_number: str
    header_id: int
    timestamp: datetime  # timezone-aware UTC


@dataclass(frozen=True, slots=True)
class Position:
    x: float
    y: float
    theta: float
    map_id: str
    initialized: bool = True


@dataclass(frozen=True, slots=True)
class NodeState:
    node_id: str
    sequence_id: int
    released: bool = True


@dataclass(frozen=True, slots=True)
class EdgeState:
    edge_id: str
    sequence_id: int
    released: bool = True


@dataclass(frozen=True, slots=True)
class ActionState:
    action_id: str
    action_type: str
    status: ActionStatus
    description: str = ""
    result: str = ""


@dataclass(frozen=True, slots=True)
class ErrorReference:
    key: str
    value: str


@dataclass(frozen=True, slots=True)
class VehicleError:
    error_type: str
    level: ErrorLevel
    description: str = ""
    references: tuple[ErrorReference, ...] = ()

    @property
    def identity(self) -> tuple[str, ErrorLevel, tuple[ErrorReference, ...]]:
        """Errors carry no id: type, level and references identify an episode."""
        return (self.error_type, self.level, tuple(sorted(self.references, key=lambda r: r.key)))


@dataclass(frozen=True, slots=True)
class Battery:
    charge: float  # percent 0-100 (3.0: powerSupply.stateOfCharge)
    charging: bool
    voltage: float | None = None
    health: float | None = None  # state of health, percent
    reach: float | None = None


@dataclass(frozen=True, slots=True)
class StateMessage:
    header: Header
    order_id: str
    order_update_id: int
    last_node_id: str
    last_node_sequence_id: int
    node_states: tuple[NodeState, ...]
    edge_states: tuple[EdgeState, ...]
    action_states: tuple[ActionState, ...]
    errors: tuple[VehicleError, ...]
    driving: bool
    paused: bool
    operating_mode: OperatingMode
    battery: Battery | None
    position: Position | None
    velocity: float | None = None
    loads: int = 0
    e_stop: str = "NONE"
    kind: MessageKind = field(default=MessageKind.STATE, init=False)


@dataclass(frozen=True, slots=True)
class ConnectionMessage:
    header: Header
    connection_state: ConnectionState
    kind: MessageKind = field(default=MessageKind.CONNECTION, init=False)


@dataclass(frozen=True, slots=True)
class FactsheetMessage:
    header: Header
    series_name: str
    series_description: str = ""
    agv_class: str = ""
    max_speed: float | None = None
    kind: MessageKind = field(default=MessageKind.FACTSHEET, init=False)


Message = StateMessage | ConnectionMessage | FactsheetMessage


class DecodeError(ValueError):
    """A payload that is not a valid VDA 5050 message; ``str(err)`` is the dead-letter reason."""
