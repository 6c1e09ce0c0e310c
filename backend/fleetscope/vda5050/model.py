"""The normalized message model every VDA 5050 version (1.1, 2.0, 2.1, 3.0) decodes into.

Enumerations are upper case as in 2.x; 1.1's lower-case values and 3.0's renames are mapped
here once so the derivation never looks at a protocol version.

The classes are frozen ``msgspec.Struct``s rather than frozen dataclasses: a state message
holds a dozen nested objects, and building a frozen dataclass costs about 1 µs against
0.1 µs for a Struct, which alone would use most of the 33 µs a message may take at the
30,000 messages/s target. Attribute names, field order and keyword construction are the
same as dataclasses; use ``msgspec.structs.replace``/``asdict`` instead of ``dataclasses``'.

They are also ``gc=False``: the cyclic garbage collector never tracks them. A batch keeps
thousands of decoded messages alive at once, and tracking their dozens of parts each made
collections cost about a quarter of the ingestion time. This is safe because they are frozen
and hold only atoms and tuples of other such Structs, so they can never be part of a cycle.
"""

from datetime import datetime
from enum import StrEnum
from typing import ClassVar

from msgspec import Struct

from fleetscope.i18n.text import Message as I18nMessage


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
        return self in _STOPPING_LEVELS


# Sets for the properties: a class attribute lookup on an enum costs about 0.3 µs in
# Python 3.11, a frozenset membership test 0.09 µs, and these run for every message.
_STOPPING_LEVELS = frozenset({ErrorLevel.CRITICAL, ErrorLevel.FATAL})


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
        return self in _MANUAL_MODES


_MANUAL_MODES = frozenset(
    {
        OperatingMode.MANUAL,
        OperatingMode.SERVICE,
        OperatingMode.TEACHIN,
        OperatingMode.INTERVENED,
    }
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
        """Statuses that keep a vehicle from being idle (VDA 5050 section 6.6.8).

        3.0's RETRIABLE counts as active: 3.0 defines idle as every action FINISHED or
        FAILED, and a RETRIABLE action still waits for retry or skipRetry.
        """
        return self in _ACTIVE_ACTION_STATUSES


_ACTIVE_ACTION_STATUSES = frozenset(
    {
        ActionStatus.WAITING,
        ActionStatus.INITIALIZING,
        ActionStatus.RUNNING,
        ActionStatus.PAUSED,
        ActionStatus.RETRIABLE,
    }
)


class ConnectionState(StrEnum):
    ONLINE = "ONLINE"
    OFFLINE = "OFFLINE"
    CONNECTIONBROKEN = "CONNECTIONBROKEN"  # 3.0 spells it CONNECTION_BROKEN
    HIBERNATING = "HIBERNATING"  # 3.0: connected but not sending states


class Header(Struct, frozen=True, gc=False):
    interface: str
    major_version: str  # from the topic, e.g. "v2"
    version: str  # from the payload, e.g. "2.0.0"
    manufacturer: str
    serial_number: str
    header_id: int
    timestamp: datetime  # timezone-aware UTC


class Position(Struct, frozen=True, gc=False):
    x: float
    y: float
    theta: float
    map_id: str
    initialized: bool = True


class NodeState(Struct, frozen=True, gc=False):
    node_id: str
    sequence_id: int
    released: bool = True


class EdgeState(Struct, frozen=True, gc=False):
    edge_id: str
    sequence_id: int
    released: bool = True


class ActionState(Struct, frozen=True, gc=False):
    action_id: str
    action_type: str
    status: ActionStatus
    description: str = ""
    result: str = ""


class ErrorReference(Struct, frozen=True, gc=False):
    key: str
    value: str


class VehicleError(Struct, frozen=True, gc=False):
    error_type: str
    level: ErrorLevel
    description: str = ""
    references: tuple[ErrorReference, ...] = ()

    @property
    def identity(self) -> tuple[str, ErrorLevel, tuple[ErrorReference, ...]]:
        """Errors carry no id: type, level and references identify an episode."""
        return (self.error_type, self.level, tuple(sorted(self.references, key=lambda r: r.key)))


class Battery(Struct, frozen=True, gc=False):
    charge: float  # percent 0-100 (3.0: powerSupply.stateOfCharge)
    charging: bool
    voltage: float | None = None
    health: float | None = None  # state of health, percent
    reach: float | None = None


class StateMessage(Struct, frozen=True, gc=False):
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
    # 3.0 reports instant actions apart from actionStates; 1.1-2.1 list them in actionStates.
    instant_action_states: tuple[ActionState, ...] = ()
    kind: ClassVar[MessageKind] = MessageKind.STATE


class ConnectionMessage(Struct, frozen=True, gc=False):
    header: Header
    connection_state: ConnectionState
    kind: ClassVar[MessageKind] = MessageKind.CONNECTION


class FactsheetMessage(Struct, frozen=True, gc=False):
    header: Header
    series_name: str
    series_description: str = ""
    agv_class: str = ""
    max_speed: float | None = None
    # False: the factsheet had no timestamp (2.1 allows it) and the receive time stood in.
    timed: bool = True
    kind: ClassVar[MessageKind] = MessageKind.FACTSHEET


Message = StateMessage | ConnectionMessage | FactsheetMessage


class DecodeError(ValueError):
    """A payload that is not a valid VDA 5050 message. ``reason`` (``fleetscope.i18n.refusals``)
    is the dead letter's reason in every language; ``str(err)`` is it in English."""

    def __init__(self, reason: I18nMessage) -> None:
        super().__init__(reason)
        self.reason = reason
