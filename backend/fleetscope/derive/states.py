"""Vehicle state: exactly one at every instant, emitted as one interval per continuous state."""

from datetime import datetime
from typing import Any

from fleetscope.derive.timecodec import dump_time, load_time
from fleetscope.facts.model import StateInterval, VehicleState
from fleetscope.vda5050.model import ActionStatus, ErrorLevel, OperatingMode, StateMessage

# Derived once from the model's properties: a frozenset test is cheaper than the property
# call, and this runs for every message.
_ACTIVE_STATUSES = frozenset(status for status in ActionStatus if status.is_active)
_STOPPING_LEVELS = frozenset(level for level in ErrorLevel if level.stops_vehicle)
_MANUAL_MODES = frozenset(mode for mode in OperatingMode if mode.is_manual)
_ERROR = VehicleState.ERROR
_MANUAL = VehicleState.MANUAL
_CHARGING = VehicleState.CHARGING
_WORKING = VehicleState.WORKING
_IDLE = VehicleState.IDLE


def is_vda_idle(message: StateMessage) -> bool:
    """Idle in the sense of VDA 5050 6.6.8, and not driving: no route and no active action."""
    if message.node_states or message.edge_states or message.driving:
        return False
    # A loop rather than all(<generator>): runs for every message, and the generator's
    # set-up costs more than the usual one or two actions.
    for action in message.action_states:  # noqa: SIM110 - see above
        if action.status in _ACTIVE_STATUSES:
            return False
    return True


def has_stopping_error(message: StateMessage) -> bool:
    return any(error.level in _STOPPING_LEVELS for error in message.errors)


def state_of(message: StateMessage, *, vda_idle: bool) -> VehicleState:
    """Precedence of product.md section 2 for an online vehicle (offline is decided by time
    and connection, see machine.py): error, manual, charging, working, idle.
    ``vda_idle`` is ``is_vda_idle(message)``, computed once by the caller."""
    if message.errors and has_stopping_error(message):
        return _ERROR
    if message.operating_mode in _MANUAL_MODES:
        return _MANUAL
    battery = message.battery
    if battery is not None and battery.charging:
        return _CHARGING
    return _IDLE if vda_idle else _WORKING


class StateTracker:
    """The current state and since when; an interval is emitted when the state changes."""

    __slots__ = ("current", "since", "vehicle_id")

    def __init__(self, *, vehicle_id: int) -> None:
        self.vehicle_id = vehicle_id
        self.current: VehicleState | None = None
        self.since: datetime | None = None

    def switch(self, state: VehicleState, at: datetime, facts: list[Any]) -> None:
        """Enters ``state`` at ``at``; the same state again extends the current interval."""
        current = self.current
        if state is current:
            return
        since = self.since
        if current is not None and since is not None and at > since:
            facts.append(StateInterval(self.vehicle_id, current, since, at))
        self.current = state
        self.since = at

    def open_interval(self, at: datetime) -> StateInterval | None:
        if self.current is None or self.since is None or at <= self.since:
            return None
        return StateInterval(self.vehicle_id, self.current, self.since, at)

    def dump(self) -> dict[str, Any]:
        return {
            "current": None if self.current is None else self.current.value,
            "since": dump_time(self.since),
        }

    def load(self, data: dict[str, Any]) -> None:
        current = data["current"]
        self.current = None if current is None else VehicleState(current)
        self.since = load_time(data["since"])
