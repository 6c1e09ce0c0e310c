"""``VehicleDeriver``: the per-vehicle state machine turning messages into facts.

Messages are fed in arrival order (``ordering`` puts a batch's states in timestamp order
first). Time policies (documented in derive/README.md):
- duplicate: same topic kind, headerId and timestamp as a message already applied -> ignored;
- out of order: timestamp older than the last applied message -> ignored for every fact
  (applying it would rewrite history already emitted) and counted in ``stats``. Exception:
  a connection message other than ONLINE (the MQTT last will carries the timestamp of the
  connect, older than the states sent since) applies at the last applied time;
- a vehicle restart (headerId from 1 again, newer timestamps) is neither;
- silence longer than ``offline_after`` -> offline from last message + offline_after until
  the next message; a connection not ONLINE -> offline from its timestamp;
- facts never go back in time: an event earlier than a transition already made (e.g. by
  ``tick`` with a clock ahead of the vehicle's) is applied at that transition.
Factsheets produce no facts.
"""

from datetime import UTC, datetime
from typing import Any

from fleetscope.derive.actions import LOAD_HANDLING_TYPES, ActionTracker
from fleetscope.derive.battery import BatteryTracker
from fleetscope.derive.config import DerivationConfig
from fleetscope.derive.errors import ErrorTracker
from fleetscope.derive.orders import OrderRunState
from fleetscope.derive.snapshot import SNAPSHOT_VERSION, dump_deriver, load_deriver
from fleetscope.derive.states import StateTracker, has_stopping_error, is_vda_idle, state_of
from fleetscope.derive.stats import DeriverStats
from fleetscope.derive.track import TrackTracker
from fleetscope.derive.workflow import resolve_workflow
from fleetscope.facts.model import Fact, LiveStatus, OrderOutcome, StateInterval, VehicleState
from fleetscope.vda5050.model import (
    Battery,
    ConnectionMessage,
    ConnectionState,
    FactsheetMessage,
    Message,
    MessageKind,
    Position,
    StateMessage,
    VehicleError,
)

_OFFLINE = VehicleState.OFFLINE
_ONLINE = ConnectionState.ONLINE
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class VehicleDeriver:
    __slots__ = (
        "actions",
        "battery",
        "config",
        "derived",
        "errors",
        "horizon",
        "keys_at_last",
        "last_at",
        "last_battery",
        "last_connection",
        "last_errors",
        "last_order_id",
        "last_position",
        "run",
        "states",
        "stats",
        "track",
        "vehicle_id",
    )

    def __init__(self, *, vehicle_id: int, config: DerivationConfig) -> None:
        self.vehicle_id = vehicle_id
        self.config = config
        self.states = StateTracker(vehicle_id=vehicle_id)
        self.actions = ActionTracker(
            vehicle_id=vehicle_id, load_types=LOAD_HANDLING_TYPES | config.load_action_types
        )
        self.errors = ErrorTracker(vehicle_id=vehicle_id)
        self.battery = BatteryTracker(vehicle_id=vehicle_id)
        self.track = TrackTracker(vehicle_id=vehicle_id)
        self.run: OrderRunState | None = None
        self.last_at: datetime | None = None  # timestamp of the latest applied message
        # (kind, headerId) of the messages applied at last_at, for duplicates
        self.keys_at_last: list[tuple[MessageKind, int]] = []
        self.last_connection: tuple[int, datetime] | None = None
        self.horizon: datetime | None = None  # latest time a transition was made at
        self.derived: VehicleState | None = None  # state of the latest state message
        self.last_order_id: str | None = None  # None until the first state message
        self.last_battery: Battery | None = None
        self.last_position: Position | None = None
        self.last_errors: tuple[VehicleError, ...] = ()
        self.stats = DeriverStats()

    # --- feeding ---------------------------------------------------------------------------

    def feed(self, message: Message) -> list[Fact]:
        """Applies one message (in arrival order); returns the facts it completed."""
        facts: list[Fact] = []
        self.feed_into(message, facts)
        return facts

    def feed_into(self, message: Message, facts: list[Fact]) -> None:
        """``feed`` appending the completed facts to ``facts`` (a batch's list): saves a
        list per message on the ingestion path."""
        if isinstance(message, FactsheetMessage):
            self.stats.ignored += 1
            return
        kind = message.kind
        header = message.header
        timestamp = header.timestamp
        key = (kind, header.header_id)
        last_at = self.last_at
        if last_at is not None:
            if timestamp < last_at:
                if not self._is_late_disconnect(message, header.header_id, timestamp):
                    self.stats.out_of_order += 1
                    return
            elif timestamp == last_at:
                if key in self.keys_at_last:
                    self.stats.duplicates += 1
                    return
                self.keys_at_last.append(key)
            else:
                if (
                    self.states.current is not _OFFLINE
                    and timestamp - last_at > self.config.offline_after
                ):
                    self._go_offline(last_at + self.config.offline_after, facts)
                self.last_at = timestamp
                self.keys_at_last = [key]
        else:
            self.last_at = timestamp
            self.keys_at_last = [key]
        horizon = self.horizon
        at = timestamp if horizon is None or timestamp >= horizon else horizon
        self.horizon = at
        self.stats.applied += 1
        if isinstance(message, StateMessage):
            self._apply_state(message, at, facts)
        else:
            self._apply_connection(message, at, facts)

    def tick(self, *, now: datetime) -> list[Fact]:
        """Switches to offline at last message + offline_after once ``now`` is past it."""
        facts: list[Fact] = []
        last_at = self.last_at
        offline_after = self.config.offline_after
        if (
            last_at is not None
            and self.states.current is not _OFFLINE
            and now - last_at > offline_after
        ):
            self._go_offline(last_at + offline_after, facts)
        return facts

    def _is_late_disconnect(
        self, message: StateMessage | ConnectionMessage, header_id: int, timestamp: datetime
    ) -> bool:
        if not isinstance(message, ConnectionMessage) or message.connection_state is _ONLINE:
            return False
        return self.last_connection != (header_id, timestamp)

    def _go_offline(self, at: datetime, facts: list[Fact]) -> None:
        horizon = self.horizon
        if horizon is not None and at < horizon:
            at = horizon
        self.horizon = at
        self.states.switch(_OFFLINE, at, facts)
        if self.run is not None:
            self.run.suspend(at)
        self.battery.interrupt(at=at, facts=facts)

    def _apply_connection(
        self, message: ConnectionMessage, at: datetime, facts: list[Fact]
    ) -> None:
        header = message.header
        self.last_connection = (header.header_id, header.timestamp)
        if message.connection_state is _ONLINE:
            if self.states.current is None or self.states.current is _OFFLINE:
                self.states.switch(self.derived or VehicleState.IDLE, at, facts)
        else:
            self._go_offline(at, facts)

    def _apply_state(self, message: StateMessage, at: datetime, facts: list[Fact]) -> None:
        baseline = self.last_order_id is None
        vda_idle = is_vda_idle(message)
        stopping = bool(message.errors) and has_stopping_error(message)
        run = self.run
        if run is not None:
            run.account(at)
        position = message.position
        if position is not None:
            delta = self.track.update(at=at, position=position, facts=facts)
            if run is not None and delta:
                run.distance_m += delta
            if position.initialized:  # an episode and the statusboard keep a located one
                self.last_position = position

        order_id = message.order_id
        started_here = False
        if order_id != self.last_order_id:
            if run is not None:  # still running: replaced or lost (judged as idle)
                outcome = (
                    run.outcome_when_replaced(stopping_error=stopping)
                    if order_id
                    else run.outcome_when_idle(stopping_error=stopping)
                )
                facts.append(run.fact(vehicle_id=self.vehicle_id, end=at, outcome=outcome))
                run = self.run = None
            # An order first seen already idle ended before we saw it: no run.
            if order_id and not vda_idle:
                workflow = resolve_workflow(order_id, self.config.workflow_rules)
                run = self.run = OrderRunState(order_id, workflow, at, accounted_to=at)
                started_here = True
            self.last_order_id = order_id

        run_id = "" if run is None else run.order_id
        if run is not None:
            run.see_nodes(message.node_states, message.last_node_id, message.last_node_sequence_id)
        summary = self.actions.update(
            at=at,
            actions=message.action_states,
            instant_actions=message.instant_action_states,
            order_id=run_id,
            baseline=baseline,
            facts=facts,
        )
        started = self.errors.update(
            at=at,
            errors=message.errors,
            position=self.last_position,
            order_id=run_id,
            facts=facts,
        )
        if run is not None:
            run.error_count += started
            if stopping:
                run.stopped = True
            if summary.order_failed_action:
                run.failed_action = True
            # A cancelOrder finishing in the message that starts a run was the previous
            # order's (a message between them was lost): a cancelled order leaves the vehicle
            # idle, and no run starts idle.
            if summary.cancel_finished and not started_here:
                facts.append(
                    run.fact(vehicle_id=self.vehicle_id, end=at, outcome=OrderOutcome.CANCELLED)
                )
                self.run = None
            elif vda_idle and not summary.cancel_pending:
                outcome = run.outcome_when_idle(stopping_error=stopping)
                facts.append(run.fact(vehicle_id=self.vehicle_id, end=at, outcome=outcome))
                self.run = None
            else:
                run.paused = message.paused
                run.waiting = summary.order_waiting

        battery = message.battery
        if battery is not None:
            self.battery.update(at=at, battery=battery, facts=facts)
        self.last_battery = battery
        self.last_errors = message.errors
        derived = self.derived = state_of(message, vda_idle=vda_idle)
        self.states.switch(derived, at, facts)

    # --- reading ---------------------------------------------------------------------------

    def live(self) -> LiveStatus:
        run = self.run
        battery = self.last_battery
        position = self.last_position
        held = self.battery.held
        return LiveStatus(
            vehicle_id=self.vehicle_id,
            state=self.states.current or _OFFLINE,
            since=self.states.since or _EPOCH,
            last_message_at=self.last_at,
            order_id="" if run is None else run.order_id,
            workflow="" if run is None else run.workflow,
            charge=None if battery is None else battery.charge,
            charging=battery is not None and battery.charging,
            active_errors=tuple(
                (error.error_type, error.level.value, error.description)
                for error in self.last_errors
            ),
            x=None if position is None else position.x,
            y=None if position is None else position.y,
            map_id="" if position is None else position.map_id,
            held_until=held.report_at,
            held_s=held.seconds,
            held_charge_s=held.charge_seconds,
            held_low=held.lowest,
            held_discharged=held.discharged,
        )

    def open_facts(self, *, at: datetime) -> list[Fact]:
        """Facts still open at ``at`` as if they ended there, without changing anything:
        the current state interval (offline after silence, as ``tick`` would decide), open
        error episodes and an open charge session. Open order runs have no outcome yet and
        are left out. For "up to now" analytics and end-of-stream comparisons."""
        facts: list[Fact] = []
        states = self.states
        end = at
        last_at = self.last_at
        if last_at is not None and states.current is not _OFFLINE:
            silent_from = last_at + self.config.offline_after
            if at > silent_from:
                since = states.since
                end = silent_from if since is None or silent_from > since else since
        interval = states.open_interval(end)
        if interval is not None:
            facts.append(interval)
        if end < at:
            facts.append(StateInterval(self.vehicle_id, _OFFLINE, end, at))
        facts.extend(self.errors.open_episodes(at))
        session = self.battery.open_session(end)
        if session is not None:
            facts.append(session)
        return facts

    # --- persistence -----------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """JSON-safe state; ``restore`` of it continues exactly as this deriver would."""
        return dump_deriver(self)

    @classmethod
    def restore(cls, snapshot: dict[str, Any], *, config: DerivationConfig) -> "VehicleDeriver":
        if snapshot.get("v") != SNAPSHOT_VERSION:
            raise ValueError(f"unsupported deriver snapshot version {snapshot.get('v')!r}")
        deriver = cls(vehicle_id=snapshot["vehicle_id"], config=config)
        load_deriver(deriver, snapshot)
        return deriver
