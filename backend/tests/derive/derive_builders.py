"""Small builders of normalized messages for message-by-message derivation tests."""

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from fleetscope.derive import DerivationConfig, VehicleDeriver
from fleetscope.facts.model import Fact
from fleetscope.vda5050.model import (
    ActionState,
    ActionStatus,
    Battery,
    ConnectionMessage,
    ConnectionState,
    EdgeState,
    ErrorLevel,
    ErrorReference,
    Header,
    NodeState,
    OperatingMode,
    Position,
    StateMessage,
    VehicleError,
)

T0 = datetime(2026, 3, 2, 8, 0, 0, tzinfo=UTC)
VEHICLE_ID = 7
FactType = TypeVar("FactType")


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def action(action_id: str, status: str, action_type: str = "pick") -> ActionState:
    return ActionState(action_id, action_type, ActionStatus(status))


def error(
    error_type: str,
    level: str = "WARNING",
    description: str = "",
    references: dict[str, str] | None = None,
) -> VehicleError:
    refs = tuple(ErrorReference(key, value) for key, value in (references or {}).items())
    return VehicleError(error_type, ErrorLevel(level), description, refs)


class Vehicle:
    """Builds the messages of one vehicle with headerIds counting up per topic."""

    def __init__(self) -> None:
        self.state_header = 0
        self.connection_header = 0

    def header(self, seconds: float, header_id: int | None, *, topic: str) -> Header:
        if header_id is None:
            if topic == "state":
                self.state_header += 1
                header_id = self.state_header
            else:
                self.connection_header += 1
                header_id = self.connection_header
        return Header("uagv", "v2", "2.0.0", "acme", "agv-1", header_id, at(seconds))

    def state(
        self,
        seconds: float,
        *,
        order_id: str = "",
        nodes: Sequence[tuple[str, int]] = (),
        edges: Sequence[tuple[str, int]] = (),
        last_node: tuple[str, int] = ("", 0),
        actions: Sequence[ActionState] = (),
        instant_actions: Sequence[ActionState] = (),
        errors: Sequence[VehicleError] = (),
        driving: bool = False,
        paused: bool = False,
        mode: str = "AUTOMATIC",
        charge: float | None = 80.0,
        charging: bool = False,
        position: tuple[float, float, str] | None = (0.0, 0.0, "hall"),
        initialized: bool = True,
        header_id: int | None = None,
    ) -> StateMessage:
        return StateMessage(
            self.header(seconds, header_id, topic="state"),
            order_id,
            0,
            last_node[0],
            last_node[1],
            tuple(NodeState(node_id, sequence) for node_id, sequence in nodes),
            tuple(EdgeState(edge_id, sequence) for edge_id, sequence in edges),
            tuple(actions),
            tuple(errors),
            driving,
            paused,
            OperatingMode(mode),
            None if charge is None else Battery(charge, charging),
            None if position is None else Position(*position[:2], 0.0, position[2], initialized),
            instant_action_states=tuple(instant_actions),
        )

    def connection(
        self, seconds: float, state: str, *, header_id: int | None = None
    ) -> ConnectionMessage:
        return ConnectionMessage(
            self.header(seconds, header_id, topic="connection"), ConnectionState(state)
        )


def deriver(**config: Any) -> VehicleDeriver:
    return VehicleDeriver(vehicle_id=VEHICLE_ID, config=DerivationConfig(**config))


def feed_all(target: VehicleDeriver, messages: Iterable[Any]) -> list[Fact]:
    facts: list[Fact] = []
    for message in messages:
        facts.extend(target.feed(message))
    return facts


def only(facts: Iterable[Any], fact_type: type[FactType]) -> list[FactType]:
    return [fact for fact in facts if isinstance(fact, fact_type)]
