"""Wire Structs of each protocol version -> the normalized message model.

Each version family has a ``Dialect`` (``dialects``): the enumeration values it allows,
mapped to the model's enums. A value outside the dialect is a schema violation naming the
field.
"""

import math
from typing import Any, NoReturn, TypeVar

from fleetscope.i18n.refusals import INVALID_VALUE, NOT_PRINTABLE
from fleetscope.vda5050.dialects import Dialect
from fleetscope.vda5050.limits import CONTROL_CHARACTER
from fleetscope.vda5050.model import (
    ActionState,
    Battery,
    ConnectionMessage,
    DecodeError,
    EdgeState,
    ErrorReference,
    FactsheetMessage,
    Header,
    NodeState,
    Position,
    StateMessage,
    VehicleError,
)
from fleetscope.vda5050.wire import (
    WireActionState,
    WireActionStateV3,
    WireConnection,
    WireEdgeState,
    WireError,
    WireFactsheet,
    WireNodeState,
    WireStateV2,
    WireStateV3,
    WireVelocity,
)

Built = TypeVar("Built")


class Recent:
    """The previous state message of one topic: its wire lists and their normalized tuples.

    A vehicle repeats most of its state from message to message (the route, the actions,
    the errors). A wire list equal to the previous one (compared in C by msgspec) reuses
    the previous normalized tuple instead of building it again; the derivation then finds
    the very same tuple and its "unchanged" checks succeed on identity. Each slot holds a
    (wire, normalized) pair replaced in one assignment, so concurrent decoders stay correct.
    """

    __slots__ = ("actions", "edges", "errors", "instant", "nodes")

    def __init__(self) -> None:
        self.nodes: tuple[list[WireNodeState], tuple[NodeState, ...]] | None = None
        self.edges: tuple[list[WireEdgeState], tuple[EdgeState, ...]] | None = None
        self.actions: tuple[list[Any], tuple[ActionState, ...]] | None = None
        self.instant: tuple[list[Any], tuple[ActionState, ...]] | None = None
        self.errors: tuple[list[WireError], tuple[VehicleError, ...]] | None = None


def _invalid(mapping: dict[str, Any], value: str, path: str, *index: int) -> NoReturn:
    """Error path only: builds the JSON path lazily (f-strings per call cost throughput)."""
    if index:
        path = path.replace("[]", f"[{index[0]}]")
    allowed = ", ".join(sorted(key for key in mapping if key.isupper()))
    raise DecodeError(INVALID_VALUE(path=path, value=value, allowed=allowed))


def _nodes(wire: list[WireNodeState]) -> tuple[NodeState, ...]:
    return tuple([NodeState(node.nodeId, node.sequenceId, node.released) for node in wire])


def _edges(wire: list[WireEdgeState]) -> tuple[EdgeState, ...]:
    return tuple([EdgeState(edge.edgeId, edge.sequenceId, edge.released) for edge in wire])


def _errors(wire: list[WireError], dialect: Dialect) -> tuple[VehicleError, ...]:
    levels = dialect.error_level
    return tuple(
        [
            VehicleError(
                error.errorType,
                levels.get(error.errorLevel)
                or _invalid(levels, error.errorLevel, "$.errors[].errorLevel", index),
                error.errorDescription,
                tuple(
                    [
                        ErrorReference(ref.referenceKey, ref.referenceValue)
                        for ref in error.errorReferences
                    ]
                ),
            )
            for index, error in enumerate(wire)
        ]
    )


def _actions_v2(wire: list[WireActionState], dialect: Dialect) -> tuple[ActionState, ...]:
    statuses = dialect.action_status
    return tuple(
        [
            ActionState(
                action.actionId,
                action.actionType,
                statuses.get(action.actionStatus)
                or _invalid(statuses, action.actionStatus, "$.actionStates[].actionStatus", i),
                action.actionDescription,
                action.resultDescription,
            )
            for i, action in enumerate(wire)
        ]
    )


def _actions_v3(
    wire: list[WireActionStateV3], dialect: Dialect, field: str
) -> tuple[ActionState, ...]:
    statuses = dialect.action_status
    return tuple(
        [
            ActionState(
                action.actionId,
                action.actionType,
                statuses.get(action.actionStatus)
                or _invalid(statuses, action.actionStatus, f"$.{field}[].actionStatus", i),
                action.actionDescriptor,
                action.actionResult,
            )
            for i, action in enumerate(wire)
        ]
    )


def _speed(velocity: WireVelocity | None) -> float | None:
    if velocity is None or (velocity.vx is None and velocity.vy is None):
        return None
    return math.hypot(velocity.vx or 0.0, velocity.vy or 0.0)


def _lists(
    wire: WireStateV2 | WireStateV3, dialect: Dialect, recent: Recent | None
) -> tuple[tuple[NodeState, ...], tuple[EdgeState, ...], tuple[VehicleError, ...]]:
    """Nodes, edges and errors, reusing the previous message's tuples where unchanged."""
    if recent is None:
        return _nodes(wire.nodeStates), _edges(wire.edgeStates), _errors(wire.errors, dialect)
    wire_nodes = wire.nodeStates
    last_nodes = recent.nodes
    if last_nodes is not None and last_nodes[0] == wire_nodes:
        nodes = last_nodes[1]
    else:
        nodes = _nodes(wire_nodes)
        recent.nodes = (wire_nodes, nodes)
    wire_edges = wire.edgeStates
    last_edges = recent.edges
    if last_edges is not None and last_edges[0] == wire_edges:
        edges = last_edges[1]
    else:
        edges = _edges(wire_edges)
        recent.edges = (wire_edges, edges)
    wire_errors = wire.errors
    last_errors = recent.errors
    if last_errors is not None and last_errors[0] == wire_errors:
        errors = last_errors[1]
    else:
        errors = _errors(wire_errors, dialect)
        recent.errors = (wire_errors, errors)
    return nodes, edges, errors


def _reused(
    last: tuple[list[Any], tuple[Built, ...]] | None, wire: list[Any]
) -> tuple[Built, ...] | None:
    return last[1] if last is not None and last[0] == wire else None


def state_v2(
    wire: WireStateV2, header: Header, dialect: Dialect, recent: Recent | None = None
) -> StateMessage:
    """1.1, 2.0 and 2.1 state. ``recent``: the topic's previous lists, to reuse."""
    battery = wire.batteryState
    position = wire.agvPosition
    nodes, edges, errors = _lists(wire, dialect, recent)
    actions = None if recent is None else _reused(recent.actions, wire.actionStates)
    if actions is None:
        actions = _actions_v2(wire.actionStates, dialect)
        if recent is not None:
            recent.actions = (wire.actionStates, actions)
    return StateMessage(
        header,
        wire.orderId,
        wire.orderUpdateId,
        wire.lastNodeId,
        wire.lastNodeSequenceId,
        nodes,
        edges,
        actions,
        errors,
        wire.driving,
        wire.paused,
        dialect.operating_mode.get(wire.operatingMode)
        or _invalid(dialect.operating_mode, wire.operatingMode, "$.operatingMode"),
        Battery(
            battery.batteryCharge,
            battery.charging,
            battery.batteryVoltage,
            battery.batteryHealth,
            battery.reach,
        ),
        None
        if position is None
        else Position(
            position.x, position.y, position.theta, position.mapId, position.positionInitialized
        ),
        _speed(wire.velocity),
        0 if wire.loads is None else len(wire.loads),
        dialect.e_stop.get(wire.safetyState.eStop)
        or _invalid(dialect.e_stop, wire.safetyState.eStop, "$.safetyState.eStop"),
    )


def state_v3(
    wire: WireStateV3, header: Header, dialect: Dialect, recent: Recent | None = None
) -> StateMessage:
    power = wire.powerSupply
    position = wire.mobileRobotPosition
    nodes, edges, errors = _lists(wire, dialect, recent)
    actions = None if recent is None else _reused(recent.actions, wire.actionStates)
    if actions is None:
        actions = _actions_v3(wire.actionStates, dialect, "actionStates")
        if recent is not None:
            recent.actions = (wire.actionStates, actions)
    instant = None if recent is None else _reused(recent.instant, wire.instantActionStates)
    if instant is None:
        instant = _actions_v3(wire.instantActionStates, dialect, "instantActionStates")
        if recent is not None:
            recent.instant = (wire.instantActionStates, instant)
    return StateMessage(
        header,
        wire.orderId,
        wire.orderUpdateId,
        wire.lastNodeId,
        wire.lastNodeSequenceId,
        nodes,
        edges,
        actions,
        errors,
        wire.driving,
        wire.paused,
        dialect.operating_mode.get(wire.operatingMode)
        or _invalid(dialect.operating_mode, wire.operatingMode, "$.operatingMode"),
        Battery(
            power.stateOfCharge,
            power.charging,
            power.batteryVoltage,
            power.batteryHealth,
            power.range,
        ),
        None
        if position is None
        else Position(position.x, position.y, position.theta, position.mapId, position.localized),
        _speed(wire.velocity),
        0 if wire.loads is None else len(wire.loads),
        dialect.e_stop.get(wire.safetyState.activeEmergencyStop)
        or _invalid(
            dialect.e_stop,
            wire.safetyState.activeEmergencyStop,
            "$.safetyState.activeEmergencyStop",
        ),
        instant,
    )


def connection(wire: WireConnection, header: Header, dialect: Dialect) -> ConnectionMessage:
    return ConnectionMessage(
        header,
        dialect.connection_state.get(wire.connectionState)
        or _invalid(dialect.connection_state, wire.connectionState, "$.connectionState"),
    )


def factsheet(wire: WireFactsheet, header: Header) -> FactsheetMessage:
    type_spec = wire.typeSpecification
    physical = wire.physicalParameters
    if CONTROL_CHARACTER.search(type_spec.seriesName):  # the vehicle's model in the app store
        raise DecodeError(NOT_PRINTABLE(path="$.typeSpecification.seriesName"))
    return FactsheetMessage(
        header,
        type_spec.seriesName,
        type_spec.seriesDescription,
        type_spec.mobileRobotClass or type_spec.agvClass,
        physical.maximumSpeed if physical.maximumSpeed is not None else physical.speedMax,
        timed=wire.timestamp is not None,
    )
