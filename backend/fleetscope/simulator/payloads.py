"""VDA 5050 payloads as each protocol version spells them (1.1, 2.0, 2.1, 3.0).

The vehicle keeps a version-neutral state; an encoder turns it into the bytes of a ``state``
or ``connection`` message of its version. Differences handled here:
- 1.1: lower-case ``actionStatus``, ``errorLevel`` and ``eStop`` values, ``informations``.
- 2.0: ``batteryHealth`` is an integer.
- 3.0: ``mobileRobotPosition`` (``localized``), ``powerSupply`` (``stateOfCharge``),
  ``instantActionStates``, ``safetyState.activeEmergencyStop``, ``CONNECTION_BROKEN``.
Built as plain dicts and serialised with orjson because the demo backfill emits millions.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import orjson

from fleetscope.simulator.scenario import ProtocolVersion

JsonObject = dict[str, Any]

_MAX_THETA = 3.1415


class TimestampFormatter:
    """ISO 8601 UTC with milliseconds; the date and the text up to the minute are cached."""

    def __init__(self) -> None:
        self._day = -1
        self._date = ""
        self._minute = -1
        self._prefix = ""

    def __call__(self, at_ms: int) -> str:
        minute, rest = divmod(at_ms, 60_000)
        if minute != self._minute:
            self._minute = minute
            day, minute_of_day = divmod(minute, 1440)
            if day != self._day:
                self._day = day
                self._date = datetime.fromtimestamp(day * 86_400, UTC).strftime("%Y-%m-%d")
            hour, minute_of_hour = divmod(minute_of_day, 60)
            self._prefix = f"{self._date}T{hour:02d}:{minute_of_hour:02d}:"
        seconds, millis = divmod(rest, 1000)
        return f"{self._prefix}{seconds:02d}.{millis:03d}Z"


@dataclass(slots=True)
class ActiveError:
    error_type: str
    level: str  # upper case as in 2.x/3.0; encoders lower it for 1.1
    description: str
    node_id: str  # the reference that, with type and level, identifies the episode
    stops: bool
    clear_at_ms: int


class VehicleView(Protocol):
    """What the encoder reads of a vehicle (``VehicleCore`` provides it)."""

    order_id: str
    node: str
    node_sequence: int
    node_states: list[JsonObject]
    edge_states: list[JsonObject]
    driving: bool
    x: float
    y: float
    theta: float
    speed: float
    loads: list[JsonObject]
    actions: list[list[str]]
    instant_actions: list[list[str]]
    actions_revision: int
    reported_charge: float
    reported_health: float
    charging: bool
    operating_mode: str
    errors: list[ActiveError]


def ms_to_datetime(at_ms: int) -> datetime:
    return datetime.fromtimestamp(at_ms / 1000, UTC)


class StateEncoder:
    """Builds ``state`` bodies from cached JSON segments, rebuilding only what changed.

    A body is ``{`` + segments joined by commas + ``}``; each segment is a run of members
    serialised once and reused while its inputs are unchanged (most messages change only
    the position or the charge). Lists of the vehicle are replaced, never edited in place,
    except action statuses, which the vehicle counts in ``actions_revision``.
    """

    def __init__(
        self, *, version: ProtocolVersion, manufacturer: str, serial_number: str, map_id: str
    ) -> None:
        self.version = version
        self._v1 = version is ProtocolVersion.V1_1
        self._v3 = version is ProtocolVersion.V3_0
        self._integer_health = version in (ProtocolVersion.V1_1, ProtocolVersion.V2_0)
        self._manufacturer = manufacturer
        self._serial = serial_number
        self._position_key = "mobileRobotPosition" if self._v3 else "agvPosition"
        self._localized_key = "localized" if self._v3 else "positionInitialized"
        self._battery_key = "powerSupply" if self._v3 else "batteryState"
        self._charge_key = "stateOfCharge" if self._v3 else "batteryCharge"
        safety: JsonObject = {"eStop": "none" if self._v1 else "NONE", "fieldViolation": False}
        if self._v3:
            safety = {"activeEmergencyStop": "NONE", "fieldViolation": False}
        static: JsonObject = {
            "version": version.value,
            "manufacturer": manufacturer,
            "serialNumber": serial_number,
            "orderUpdateId": 0,
            "paused": False,
            "safetyState": safety,
            "informations" if self._v1 else "information": [],
        }
        self._static = _members(static)
        self._motion_template = (
            b'"driving":%%s,"velocity":{"vx":%%a,"vy":0.0,"omega":0.0},'
            b'"%s":{"x":%%a,"y":%%a,"theta":%%a,"mapId":%s,"%s":true}'
            % (self._position_key.encode(), orjson.dumps(map_id), self._localized_key.encode())
        )
        # Segment caches: the inputs each segment was last built from.
        self._segments: list[bytes] = [b"", b"", b"", b"", b""]
        self._node_states: object = None
        self._edge_states: object = None
        self._order_key: tuple[str, str, int] = ("", "", -1)
        self._motion_key: tuple[bool, float, float, float] = (False, -1.0, -1.0, -9.0)
        self._actions_revision = -1
        self._battery_key_cache: tuple[float, bool, float] = (-1.0, False, -1.0)
        self._loads: object = None
        self._mode = ""
        self._errors: tuple[ActiveError, ...] = ()

    @staticmethod
    def frame(*, header_id: int, timestamp: str, body: bytes) -> bytes:
        """A full payload: the header fields first, then a body from ``state_body``."""
        return b'{"headerId":%d,"timestamp":"%s",%s' % (header_id, timestamp.encode(), body[1:])

    def state_body(self, vehicle: "VehicleView") -> bytes:
        """The body of a state message (no header) of ``vehicle`` as it is now."""
        segments = self._segments
        node_states, edge_states = vehicle.node_states, vehicle.edge_states
        order_key = (vehicle.order_id, vehicle.node, vehicle.node_sequence)
        if (
            node_states is not self._node_states
            or edge_states is not self._edge_states
            or order_key != self._order_key
        ):
            self._node_states, self._edge_states, self._order_key = (
                node_states, edge_states, order_key,
            )  # fmt: skip
            segments[0] = _members(
                {
                    "orderId": vehicle.order_id,
                    "lastNodeId": vehicle.node,
                    "lastNodeSequenceId": vehicle.node_sequence,
                    "nodeStates": node_states,
                    "edgeStates": edge_states,
                }
            )
        motion_key = (vehicle.driving, vehicle.x, vehicle.y, vehicle.theta)
        if motion_key != self._motion_key:
            self._motion_key = motion_key
            segments[1] = self._motion(vehicle)
        if vehicle.actions_revision != self._actions_revision:
            self._actions_revision = vehicle.actions_revision
            segments[2] = self._actions(vehicle.actions, vehicle.instant_actions)
        battery_key = (vehicle.reported_charge, vehicle.charging, vehicle.reported_health)
        if battery_key != self._battery_key_cache:
            self._battery_key_cache = battery_key
            segments[3] = self._battery(*battery_key)
        loads, errors = vehicle.loads, vehicle.errors
        if (
            loads is not self._loads
            or vehicle.operating_mode != self._mode
            or ((errors or self._errors) and tuple(errors) != self._errors)
        ):
            self._loads, self._mode, self._errors = loads, vehicle.operating_mode, tuple(errors)
            segments[4] = _members(
                {
                    "loads": loads,
                    "operatingMode": vehicle.operating_mode,
                    "errors": [self._error(e) for e in errors],
                }
            )
        return b"{%s,%s,%s,%s,%s,%s}" % (self._static, *segments)

    def _motion(self, vehicle: "VehicleView") -> bytes:
        # Rounded pi would exceed the schema's maximum of 3.14159265359: clamp after rounding.
        heading = min(_MAX_THETA, max(-_MAX_THETA, round(vehicle.theta, 4)))
        driving = vehicle.driving
        # Formatted, not serialised: the position changes in most messages of a driving
        # vehicle and a float's repr is valid JSON (finite values only, as here).
        return self._motion_template % (
            b"true" if driving else b"false",
            vehicle.speed if driving else 0.0,
            round(vehicle.x, 3),
            round(vehicle.y, 3),
            heading,
        )

    def _actions(self, actions: Sequence[list[str]], instant_actions: Sequence[list[str]]) -> bytes:
        if self._v3:
            return _members(
                {
                    "actionStates": [self._action(a) for a in actions],
                    "instantActionStates": [self._action(a) for a in instant_actions],
                }
            )
        # Before 3.0 instant actions are listed in actionStates with the order's actions.
        return _members({"actionStates": [self._action(a) for a in [*actions, *instant_actions]]})

    def _battery(self, charge: float, charging: bool, health: float) -> bytes:
        battery = {
            self._charge_key: charge,
            "batteryVoltage": round(44.0 + charge * 0.08, 2),
            "batteryHealth": round(health) if self._integer_health else round(health, 1),
            "charging": charging,
        }
        return _members({self._battery_key: battery})

    def _action(self, action: list[str]) -> JsonObject:
        status = action[2].lower() if self._v1 else action[2]
        return {"actionId": action[0], "actionType": action[1], "actionStatus": status}

    def _error(self, error: ActiveError) -> JsonObject:
        return {
            "errorType": error.error_type,
            "errorLevel": error.level.lower() if self._v1 else error.level,
            "errorDescription": error.description,
            "errorReferences": [{"referenceKey": "nodeId", "referenceValue": error.node_id}],
        }

    def connection(self, *, header_id: int, timestamp: str, connection_state: str) -> bytes:
        if self._v3 and connection_state == "CONNECTIONBROKEN":
            connection_state = "CONNECTION_BROKEN"
        body = orjson.dumps(
            {
                "version": self.version.value,
                "manufacturer": self._manufacturer,
                "serialNumber": self._serial,
                "connectionState": connection_state,
            }
        )
        return self.frame(header_id=header_id, timestamp=timestamp, body=body)


def _members(document: JsonObject) -> bytes:
    """The members of a JSON object without its braces, to splice into a larger object."""
    return orjson.dumps(document)[1:-1]


def node_state(node_id: str, sequence_id: int) -> JsonObject:
    return {"nodeId": node_id, "sequenceId": sequence_id, "released": True}


def edge_state(edge_id: str, sequence_id: int) -> JsonObject:
    return {"edgeId": edge_id, "sequenceId": sequence_id, "released": True}
