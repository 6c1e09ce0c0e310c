"""Snapshots of a ``VehicleDeriver``: compact JSON-safe state from which ``restore`` continues
exactly as the original would. Bump SNAPSHOT_VERSION when the layout changes."""

from typing import TYPE_CHECKING, Any

from fleetscope.derive.orders import OrderRunState
from fleetscope.derive.stats import DeriverStats
from fleetscope.derive.timecodec import dump_time, load_time
from fleetscope.facts.model import VehicleState
from fleetscope.vda5050.model import (
    Battery,
    ErrorLevel,
    ErrorReference,
    MessageKind,
    Position,
    VehicleError,
)

if TYPE_CHECKING:
    from fleetscope.derive.machine import VehicleDeriver

SNAPSHOT_VERSION = 1


def dump_deriver(deriver: "VehicleDeriver") -> dict[str, Any]:
    connection = deriver.last_connection
    stats = deriver.stats
    return {
        "v": SNAPSHOT_VERSION,
        "vehicle_id": deriver.vehicle_id,
        "states": deriver.states.dump(),
        "actions": deriver.actions.dump(),
        "errors": deriver.errors.dump(),
        "battery": deriver.battery.dump(),
        "track": deriver.track.dump(),
        "run": None if deriver.run is None else deriver.run.dump(),
        "last_at": dump_time(deriver.last_at),
        "keys_at_last": [[str(kind), header_id] for kind, header_id in deriver.keys_at_last],
        "last_connection": None
        if connection is None
        else [connection[0], dump_time(connection[1])],
        "horizon": dump_time(deriver.horizon),
        "derived": None if deriver.derived is None else str(deriver.derived),
        "last_order_id": deriver.last_order_id,
        "live": _dump_live(deriver.last_battery, deriver.last_position, deriver.last_errors),
        "stats": [stats.applied, stats.duplicates, stats.out_of_order, stats.ignored],
    }


def load_deriver(deriver: "VehicleDeriver", data: dict[str, Any]) -> None:
    deriver.states.load(data["states"])
    deriver.actions.load(data["actions"])
    deriver.errors.load(data["errors"])
    deriver.battery.load(data["battery"])
    deriver.track.load(data["track"])
    run = data["run"]
    deriver.run = None if run is None else OrderRunState.load(run)
    deriver.last_at = load_time(data["last_at"])
    deriver.keys_at_last = [
        (MessageKind(kind), header_id) for kind, header_id in data["keys_at_last"]
    ]
    connection = data["last_connection"]
    if connection is not None:
        connected_at = load_time(connection[1])
        if connected_at is not None:
            deriver.last_connection = (connection[0], connected_at)
    deriver.horizon = load_time(data["horizon"])
    derived = data["derived"]
    deriver.derived = None if derived is None else VehicleState(derived)
    deriver.last_order_id = data["last_order_id"]
    deriver.last_battery, deriver.last_position, deriver.last_errors = _load_live(data["live"])
    deriver.stats = DeriverStats(*data["stats"])


def _dump_live(
    battery: Battery | None, position: Position | None, errors: tuple[VehicleError, ...]
) -> dict[str, Any]:
    """The latest battery, position and errors, which ``live()`` shows."""
    return {
        "battery": None
        if battery is None
        else [battery.charge, battery.charging, battery.voltage, battery.health, battery.reach],
        "position": None
        if position is None
        else [position.x, position.y, position.theta, position.map_id, position.initialized],
        "errors": [
            [
                error.error_type,
                str(error.level),
                error.description,
                [[reference.key, reference.value] for reference in error.references],
            ]
            for error in errors
        ],
    }


def _load_live(
    data: dict[str, Any],
) -> tuple[Battery | None, Position | None, tuple[VehicleError, ...]]:
    battery = data["battery"]
    position = data["position"]
    return (
        None if battery is None else Battery(*battery),
        None if position is None else Position(*position),
        tuple(
            VehicleError(
                error_type,
                ErrorLevel(level),
                description,
                tuple(ErrorReference(key, value) for key, value in references),
            )
            for error_type, level, description, references in data["errors"]
        ),
    )
