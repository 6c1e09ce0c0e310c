"""One simulated vehicle's mutable state, its clock and how it reports (messages + truth).

Time is integer milliseconds since the epoch. ``advance(t)`` moves the clock, publishing
what a real vehicle publishes on the way: a state at least every ``heartbeat_seconds``,
an extra position every ``position_seconds`` while driving, and a state when a warning
clears. Behaviour (orders, charging, episodes) lives in ``vehicle.py``.
"""

import math
import random
from datetime import datetime

from fleetscope.simulator.factsheet import factsheet_body
from fleetscope.simulator.payloads import (
    ActiveError,
    JsonObject,
    StateEncoder,
    TimestampFormatter,
    ms_to_datetime,
)
from fleetscope.simulator.scenario import Scenario, VehicleSpec
from fleetscope.simulator.truth import ErrorEpisodeTruth, VehicleTruthRecorder

# (at_ms, vehicle index, message number, topic, payload): unique up to the message number,
# so merging vehicles by tuple order never compares payloads.
Emitted = tuple[int, int, int, str, bytes]

_ACTIVE_ACTION = frozenset({"WAITING", "INITIALIZING", "RUNNING", "PAUSED"})
_NEVER = 1 << 62


class SimulationEnd(Exception):
    """Raised when the clock would pass the end of the simulation."""


class VehicleCore:
    # Tests switch this off to prove that reusing heartbeat bodies changes no byte.
    reuse_heartbeat_bodies = True

    def __init__(
        self, *, scenario: Scenario, spec: VehicleSpec, index: int, seed: int, end_ms: int
    ) -> None:
        self.scenario = scenario
        self.spec = spec
        self.index = index
        self.rng = random.Random(f"{seed}/{scenario.interface}/{spec.serial_number}")
        self.end_ms = end_ms
        self.encoder = StateEncoder(
            version=spec.version,
            manufacturer=scenario.manufacturer,
            serial_number=spec.serial_number,
            map_id=scenario.layout.map_id,
        )
        base = f"{scenario.interface}/{spec.version.major_topic}/{scenario.manufacturer}/"
        self.state_topic = f"{base}{spec.serial_number}/state"
        self.connection_topic = f"{base}{spec.serial_number}/connection"
        self.factsheet_topic = f"{base}{spec.serial_number}/factsheet"
        self._factsheet = factsheet_body(spec=spec, manufacturer=scenario.manufacturer)
        self.truth = VehicleTruthRecorder(
            manufacturer=scenario.manufacturer, serial_number=spec.serial_number
        )
        self.out: list[Emitted] = []
        self._timestamp = TimestampFormatter()
        self._heartbeat_ms = round(scenario.heartbeat_seconds * 1000)
        self._position_ms = round(scenario.position_seconds * 1000)
        battery = scenario.battery
        self._drain_per_ms = battery.drain_percent_per_hour / 3_600_000
        self._charge_per_ms = battery.charge_percent_per_minute / 60_000
        self._health_per_ms = battery.health_loss_per_day / 86_400_000
        # Charging 100 % is one equivalent full cycle.
        self._cycle_health_per_ms = self._charge_per_ms / 100 * battery.health_loss_per_cycle

        self.t = 0
        self.x = self.y = self.theta = 0.0
        self.node = ""
        self.node_sequence = 0
        self.order_id = ""
        self.node_states: list[JsonObject] = []
        self.edge_states: list[JsonObject] = []
        self.actions: list[list[str]] = []  # [actionId, actionType, status]
        self.instant_actions: list[list[str]] = []
        self.actions_revision = 0  # counts every change of the two action lists
        self.loads: list[JsonObject] = []
        self.errors: list[ActiveError] = []
        self._episodes: dict[int, ErrorEpisodeTruth] = {}
        self.driving = False
        self.charge = spec.initial_charge
        self.reported_charge = round(self.charge, 1)
        self.charging = False
        self.health = spec.initial_health
        self.reported_health = round(self.health, 1)
        self.speed = spec.speed_mps
        self.operating_mode = "AUTOMATIC"
        self.online = False
        self.odometer = 0.0
        self.state_header_id = 0
        self.connection_header_id = 0
        self.factsheet_header_id = 0
        self.last_state_ms = 0
        self.last_message_ms = 0
        self._message_number = 0
        self._body = b""
        self._body_key: tuple[float, float] = (-1.0, -1.0)
        # The edge being driven: start point, direction, length, start time, duration.
        self._edge = (0.0, 0.0, 0.0, 0.0, 0.0)
        self._edge_start_ms = 0
        self._edge_duration_ms = 1
        self._edge_done_m = 0.0

    # -- clock ---------------------------------------------------------------------------

    def move(self, at_ms: int) -> None:
        """Advance continuous quantities (position, battery) to ``at_ms`` without publishing."""
        if at_ms > self.end_ms:
            raise SimulationEnd
        elapsed = at_ms - self.t
        if elapsed <= 0:
            return
        charge = self.charge - elapsed * self._drain_per_ms
        if self.driving:
            x0, y0, dx, dy, length = self._edge
            fraction = min(1.0, (at_ms - self._edge_start_ms) / self._edge_duration_ms)
            self.x, self.y = x0 + dx * fraction, y0 + dy * fraction
            step = length * fraction - self._edge_done_m
            self._edge_done_m += step
            self.odometer += step
            charge -= step * self.scenario.battery.drain_percent_per_m
        if self.charging:
            charge += elapsed * self._charge_per_ms
            self.health -= elapsed * self._cycle_health_per_ms
        self.charge = min(100.0, max(1.0, charge))
        self.health -= elapsed * self._health_per_ms
        self.t = at_ms

    def advance(self, target_ms: int) -> None:
        """Move to ``target_ms``, publishing heartbeats, positions and warning clears."""
        while True:
            due = _NEVER
            if self.online:
                due = self.last_state_ms + self._heartbeat_ms
                if self.driving:
                    due = min(due, self.last_state_ms + self._position_ms)
            clear_due = _NEVER
            if self.errors:
                clear_due = min((e.clear_at_ms for e in self.errors if not e.stops), default=_NEVER)
            if clear_due <= target_ms and clear_due <= due:
                self.move(clear_due)
                self.clear_errors(stopping=False)
                self.emit_state()
            elif due < target_ms:
                self.move(due)
                self.emit_state(unchanged=not self.driving and not self.charging)
            else:
                break
        self.move(target_ms)

    def start_edge(
        self, start: tuple[float, float], end: tuple[float, float], length: float
    ) -> int:
        """Begin driving a straight edge; returns the arrival time."""
        dx, dy = end[0] - start[0], end[1] - start[1]
        self._edge = (start[0], start[1], dx, dy, length)
        self._edge_start_ms = self.t
        self._edge_duration_ms = max(1, round(length / self.speed * 1000))
        self._edge_done_m = 0.0
        self.theta = math.atan2(dy, dx)
        return self.t + self._edge_duration_ms

    # -- actions ---------------------------------------------------------------------------

    def replace_actions(self, actions: list[list[str]], instant_actions: list[list[str]]) -> None:
        self.actions, self.instant_actions = actions, instant_actions
        self.actions_revision += 1

    def set_action_status(self, action: list[str], status: str) -> None:
        action[2] = status
        self.actions_revision += 1

    # -- errors --------------------------------------------------------------------------

    def clear_errors(self, *, stopping: bool) -> None:
        """Remove due warnings (or all stopping errors); their episodes end at ``self.t``."""
        keep = []
        for error in self.errors:
            due = error.stops if stopping else (not error.stops and error.clear_at_ms <= self.t)
            if due:
                self._episodes.pop(id(error)).end = self._now()
            else:
                keep.append(error)
        self.errors = keep

    def add_error(self, error: ActiveError) -> None:
        self.errors.append(error)
        self._episodes[id(error)] = self.truth.start_error(
            at_ms=self.t,
            error_type=error.error_type,
            level=error.level,
            node_id=error.node_id,
            order_id=self.order_id,
        )

    # -- publishing ----------------------------------------------------------------------

    def truth_state(self) -> str:
        """The state of product.md section 2 this vehicle is in (first match wins)."""
        if not self.online:
            return "offline"
        if self.errors and any(e.stops for e in self.errors):
            return "error"
        if self.operating_mode != "AUTOMATIC":
            return "manual"
        if self.charging:
            return "charging"
        if self.driving or self.node_states or self.edge_states:
            return "working"
        for action in self.actions:
            if action[2] in _ACTIVE_ACTION:
                return "working"
        for action in self.instant_actions:
            if action[2] in _ACTIVE_ACTION:
                return "working"
        return "idle"

    def emit_state(self, *, unchanged: bool = False) -> None:
        """Publish a state. ``unchanged``: a heartbeat of a vehicle standing still since the
        last state, so only header, charge and health can differ (the body is reused)."""
        self.reported_charge = round(self.charge, 1)
        self.reported_health = round(self.health, 1)
        cached_body = self._body
        key = (self.reported_charge, self.reported_health)
        if not (unchanged and self.reuse_heartbeat_bodies and self._body_key == key):
            self._body_key = key
            cached_body = self._body = self.encoder.state_body(self)
        payload = self.encoder.frame(
            header_id=self.state_header_id, timestamp=self._timestamp(self.t), body=cached_body
        )
        self.state_header_id += 1
        self.last_state_ms = self.last_message_ms = self.t
        self.truth.distance_m = self.odometer
        self.truth.report_charge(self.reported_charge)
        self._publish(self.state_topic, payload, state_may_change=not unchanged)

    def emit_connection(self, connection_state: str) -> None:
        payload = self.encoder.connection(
            header_id=self.connection_header_id,
            timestamp=self._timestamp(self.t),
            connection_state=connection_state,
        )
        self.connection_header_id += 1
        self.last_message_ms = self.t
        self._publish(self.connection_topic, payload)

    def emit_factsheet(self) -> None:
        """Publish the factsheet (a vehicle does at start-up); 1.1 has none."""
        if self._factsheet is None:
            return
        payload = self.encoder.frame(
            header_id=self.factsheet_header_id,
            timestamp=self._timestamp(self.t),
            body=self._factsheet,
        )
        self.factsheet_header_id += 1
        self.last_message_ms = self.t
        self._publish(self.factsheet_topic, payload, state_may_change=False)

    def _publish(self, topic: str, payload: bytes, *, state_may_change: bool = True) -> None:
        if self.truth.first_ms is None:
            self.truth.first_ms = self.t
        if state_may_change:
            self.truth.set_state(self.t, self.truth_state())
        self.truth.messages += 1
        self._message_number += 1
        self.out.append((self.t, self.index, self._message_number, topic, payload))

    def _now(self) -> datetime:
        return ms_to_datetime(self.t)
