"""What a simulated vehicle does: orders, charging, errors, manual and offline episodes.

The vehicle idles between orders; order arrivals follow the shift calendar. Every change a
real vehicle reports (order accepted, node reached, driving start/stop, action status,
error appearing/clearing, charging, mode, connection) is published at the instant it
happens and recorded in the truth with that same timestamp.
"""

from collections.abc import Iterator
from dataclasses import dataclass, field

from fleetscope.simulator.payloads import ActiveError, edge_state, node_state
from fleetscope.simulator.randomness import ErrorSampler, ShiftCalendar, log_uniform
from fleetscope.simulator.routing import Route, Router
from fleetscope.simulator.scenario import ErrorSeverity, ProtocolVersion, Scenario, VehicleSpec
from fleetscope.simulator.vehicle_core import Emitted, SimulationEnd, VehicleCore

_NEVER = 1 << 62
_DAY_MS = 86_400_000
_OFFLINE_AFTER_MS = 65_000


@dataclass(slots=True)
class PlannedAction:
    action_id: str
    action_type: str
    seconds: float


@dataclass(slots=True)
class PlannedOrder:
    order_id: str
    workflow: str
    route: Route
    actions: dict[int, PlannedAction]  # by node index on the route
    load_type: str = ""
    # What will go wrong: "" (nothing), "cancel", "replace" or "pick_fail"; at node index.
    fate: str = ""
    fate_index: int = -1
    traversed: int = field(default=1)


class VehicleProcess(VehicleCore):
    def __init__(
        self,
        *,
        scenario: Scenario,
        spec: VehicleSpec,
        index: int,
        seed: int,
        start_ms: int,
        end_ms: int,
        router: Router,
        calendar: ShiftCalendar,
        errors: ErrorSampler,
    ) -> None:
        super().__init__(scenario=scenario, spec=spec, index=index, seed=seed, end_ms=end_ms)
        self._router = router
        self._calendar = calendar
        self._sampler = errors
        self._start_ms = start_ms
        self._order_number = 0
        self._workflow_weights = [w.weight for w in scenario.workflows]
        self._next_offline_ms = _NEVER
        self._next_manual_ms = _NEVER

    def run(self) -> Iterator[Emitted]:
        """Messages in time order until the end of the simulation."""
        try:
            self._come_online()
            while True:
                self._step()
                yield from self.out
                self.out.clear()
        except SimulationEnd:
            pass
        yield from self.out
        self.out.clear()

    # -- life cycle -----------------------------------------------------------------------

    def _come_online(self) -> None:
        self.t = self._start_ms + self.index * 1000 + self.rng.randrange(1000)
        if self.t > self.end_ms:
            raise SimulationEnd
        parking = [n.node_id for n in self.scenario.layout.nodes if n.node_id.startswith("X")]
        self.node = self.rng.choice(parking)
        self.x, self.y = self._router.point(self.node)
        self._schedule_episodes()
        self.online = True
        self.emit_connection("ONLINE")
        self.emit_state()

    def _schedule_episodes(self) -> None:
        def next_at(per_day: float) -> int:
            if per_day <= 0:
                return _NEVER
            return self.t + round(self.rng.expovariate(per_day / _DAY_MS))

        if self._next_offline_ms <= self.t:
            self._next_offline_ms = _NEVER
        if self._next_manual_ms <= self.t:
            self._next_manual_ms = _NEVER
        if self._next_offline_ms == _NEVER:
            self._next_offline_ms = next_at(self.spec.offline_per_day)
        if self._next_manual_ms == _NEVER:
            self._next_manual_ms = next_at(self.spec.manual_per_day)

    def _step(self) -> None:
        """One activity starting from idle: charge, an episode, or the next order."""
        if self.charge < self.scenario.battery.go_charge_below:
            self._charge()
            return
        episode_at = min(self._next_offline_ms, self._next_manual_ms)
        order_at = self._calendar.next_arrival(self.rng, after_ms=self.t, limit_ms=self.end_ms)
        if episode_at < order_at:
            self.advance(max(self.t, episode_at))
            if self.errors:  # wait for warnings to clear: never go offline or manual with one
                self.advance(min(e.clear_at_ms for e in self.errors))
                return
            if self._next_offline_ms <= self._next_manual_ms:
                self._offline_episode()
            else:
                self._manual_episode()
            self._schedule_episodes()
            return
        self.advance(order_at)
        order: PlannedOrder | None = self._plan_transport(self.node)
        while order is not None:
            order = self._run_order(order)

    # -- orders ---------------------------------------------------------------------------

    def _next_order_id(self, workflow: str) -> str:
        self._order_number += 1
        return f"{workflow}-{self.index + 1:02d}{self._order_number:05d}"

    def _plan_transport(self, from_node: str) -> PlannedOrder:
        rng = self.rng
        workflow = rng.choices(self.scenario.workflows, self._workflow_weights)[0]
        source = rng.choice(workflow.sources)
        target = rng.choice(workflow.targets)
        to_source = self._router.route(start=from_node, goal=source)
        route = to_source.joined(self._router.route(start=source, goal=target))
        pick_index, drop_index = len(to_source.node_ids) - 1, len(route.node_ids) - 1
        order_id = self._next_order_id(workflow.name)
        order = PlannedOrder(
            order_id=order_id,
            workflow=workflow.name,
            route=route,
            actions={
                pick_index: PlannedAction(
                    f"{order_id}/pick", "pick", rng.uniform(*workflow.pick_seconds)
                ),
                drop_index: PlannedAction(
                    f"{order_id}/drop", "drop", rng.uniform(*workflow.drop_seconds)
                ),
            },
            load_type=workflow.load_type,
        )
        incidents = self.scenario.incidents
        draw = rng.random()
        if draw < incidents.cancel_per_order:
            order.fate, order.fate_index = "cancel", rng.randint(1, drop_index)
        elif draw < incidents.cancel_per_order + incidents.replace_per_order and pick_index >= 2:
            order.fate, order.fate_index = "replace", rng.randint(1, pick_index - 1)
        elif draw < (
            incidents.cancel_per_order + incidents.replace_per_order + incidents.pick_fail_per_order
        ):
            order.fate, order.fate_index = "pick_fail", pick_index
        return order

    def _run_order(self, order: PlannedOrder) -> PlannedOrder | None:
        """Drive an order; returns the order that replaced it, if one did."""
        route = order.route
        last = len(route.node_ids) - 1
        all_nodes = [node_state(n, 2 * i) for i, n in enumerate(route.node_ids)]
        all_edges = [edge_state(e, 2 * i + 1) for i, e in enumerate(route.edge_ids)]
        self.order_id = order.order_id
        self.replace_actions(
            [[a.action_id, a.action_type, "WAITING"] for _, a in sorted(order.actions.items())], []
        )
        self.node, self.node_sequence = route.node_ids[0], 0
        self.node_states, self.edge_states = all_nodes[1:], all_edges
        self.driving = 0 not in order.actions and last > 0
        self.truth.start_order(
            at_ms=self.t, order_id=order.order_id, workflow=order.workflow, nodes_total=last + 1
        )
        self.emit_state()
        if 0 in order.actions:
            self.advance(self.t + 1000)
        for k in range(last + 1):
            if k > 0:
                self._drive(order, k)
                self.node, self.node_sequence = route.node_ids[k], 2 * k
                self.node_states, self.edge_states = all_nodes[k + 1 :], all_edges[k:]
                if order.fate == "cancel" and k == order.fate_index:
                    self._stop_order(order, outcome="cancelled", traversed=k + 1)
                    return None
                if order.fate == "replace" and k == order.fate_index:
                    self._abandon(order, traversed=k)
                    return self._plan_transport(self.node)
                if self._maybe_error() and any(e.stops for e in self.errors):
                    self._stop_order(order, outcome="failed", traversed=k + 1)
                    self._repair()
                    return None
            action = order.actions.get(k)
            if action is not None and not self._perform(order, action, k):
                return None
            if k == last:
                self.driving = False
                self.emit_state()
                self.truth.end_order(at_ms=self.t, outcome="finished", traversed=last + 1)
                self._after_finish(order)
                return None
            if k > 0 or action is not None:
                self.driving = True
                self.emit_state()
        return None

    def _drive(self, order: PlannedOrder, k: int) -> None:
        route = order.route
        arrival = self.start_edge(route.points[k - 1], route.points[k], route.edge_lengths[k - 1])
        if order.fate == "cancel" and k == order.fate_index:
            # The cancelOrder instant action arrives on the way; the vehicle stops at the node.
            self.advance((self.t + arrival) // 2)
            self.replace_actions(
                self.actions, [[f"{order.order_id}/cancel", "cancelOrder", "RUNNING"]]
            )
            self.emit_state()
        self.advance(arrival)

    def _perform(self, order: PlannedOrder, action: PlannedAction, k: int) -> bool:
        """Run the action at the current node; False if it failed the order."""
        state = self._action_state(action.action_id)
        self.driving = False
        self.set_action_status(state, "RUNNING")
        self.emit_state()
        self.advance(self.t + round(action.seconds * 1000))
        if order.fate == "pick_fail" and action.action_type == "pick":
            self.set_action_status(state, "FAILED")
            self.truth.count_action("pick", "failed")
            self._stop_order(order, outcome="failed", traversed=k + 1)
            return False
        self.set_action_status(state, "FINISHED")
        self.truth.count_action(action.action_type, "finished")
        if action.action_type == "pick":
            self.loads = [{"loadId": f"{order.order_id}-L", "loadType": order.load_type}]
        elif action.action_type == "drop":
            self.loads = []
        elif action.action_type == "startCharging":
            self.charging = True
        return True

    def _after_finish(self, order: PlannedOrder) -> None:
        if self.charging and order.workflow == self.scenario.charge_workflow:
            self.truth.start_charge(at_ms=self.t, charge=self.reported_charge)

    def _action_state(self, action_id: str) -> list[str]:
        return next(a for a in self.actions if a[0] == action_id)

    def _stop_order(self, order: PlannedOrder, *, outcome: str, traversed: int) -> None:
        """Stop here: no nodes left, unfinished actions FAILED (VDA 5050 6.6.3)."""
        self.driving = False
        self.node_states, self.edge_states = [], []
        for action in self.actions:
            if action[2] in ("WAITING", "RUNNING"):
                self.set_action_status(action, "FAILED")
                self.truth.count_action(action[1], "failed")
        for instant in self.instant_actions:
            self.set_action_status(instant, "FINISHED")
            self.truth.count_action(instant[1], "finished")
        self.emit_state()
        self.truth.end_order(at_ms=self.t, outcome=outcome, traversed=traversed)

    def _abandon(self, order: PlannedOrder, *, traversed: int) -> None:
        """Another order replaces this one; the next order's first message reveals it."""
        for action in self.actions:
            if action[2] == "WAITING":
                self.truth.count_action(action[1], "abandoned")
        self.truth.end_order(at_ms=self.t, outcome="cancelled", traversed=traversed)

    # -- errors ---------------------------------------------------------------------------

    def _maybe_error(self) -> bool:
        """Roll for an error at the node just reached; True if one appeared."""
        incidents = self.scenario.incidents
        if self.rng.random() >= self._sampler.chance_at(self.node, base=incidents.error_per_node):
            return False
        kind = self._sampler.choose(self.rng, self.node)
        if any(e.error_type == kind.error_type for e in self.errors):
            return False
        stops = kind.severity is ErrorSeverity.STOPPING
        if self.spec.version is ProtocolVersion.V3_0:
            level = kind.level_v3
        else:
            level = "FATAL" if stops else "WARNING"
        seconds = log_uniform(self.rng, *kind.duration_seconds)
        self.add_error(
            ActiveError(
                error_type=kind.error_type,
                level=level,
                description=kind.description,
                node_id=self.node,
                stops=stops,
                clear_at_ms=self.t + round(seconds * 1000),
            )
        )
        return True

    def _repair(self) -> None:
        clear_at = max(e.clear_at_ms for e in self.errors if e.stops)
        self.advance(clear_at)
        self.clear_errors(stopping=True)
        self.loads = []  # the operator takes off whatever the vehicle carried
        self.emit_state()

    # -- charging and episodes ------------------------------------------------------------

    def _charge(self) -> None:
        chargers = self.scenario.chargers
        routes = [self._router.route(start=self.node, goal=c) for c in chargers]
        route = min(routes, key=lambda r: (r.length, r.node_ids[-1]))
        order_id = self._next_order_id(self.scenario.charge_workflow)
        action = PlannedAction(f"{order_id}/charge", "startCharging", 3.0)
        order = PlannedOrder(
            order_id, self.scenario.charge_workflow, route, {len(route.node_ids) - 1: action}
        )
        self._run_order(order)
        if not self.charging:
            return  # a stopping error on the way: the next step tries again
        battery = self.scenario.battery
        net_per_minute = battery.charge_percent_per_minute - battery.drain_percent_per_hour / 60
        minutes = max(0.0, battery.charge_until - self.charge) / net_per_minute
        self.advance(self.t + round(minutes * 60_000))
        self.charging = False
        self.emit_state()
        self.truth.end_charge(at_ms=self.t, charge=self.reported_charge)

    def _manual_episode(self) -> None:
        minutes = log_uniform(self.rng, *self.scenario.incidents.manual_minutes)
        self.operating_mode = "MANUAL"
        self.emit_state()
        self.advance(self.t + round(minutes * 60_000))
        self.operating_mode = "AUTOMATIC"
        self.emit_state()

    def _offline_episode(self) -> None:
        """Go offline: a graceful OFFLINE, a CONNECTIONBROKEN last will, or plain silence."""
        rng = self.rng
        kind = rng.choice(("graceful", "broken", "silent"))
        minutes = log_uniform(rng, *self.scenario.incidents.offline_minutes)
        if kind == "graceful":
            self.online = False
            self.emit_connection("OFFLINE")
            back = self.t
        elif kind == "broken":
            # The broker notices the lost client after its keep-alive, well within 65 s.
            self.move(max(self.t, self.last_message_ms + rng.randint(31_000, 55_000)))
            self.online = False
            self.emit_connection("CONNECTIONBROKEN")
            back = self.t
        else:
            self.online = False
            offline_from = self.last_message_ms + _OFFLINE_AFTER_MS
            self.truth.set_state(offline_from, "offline")
            back = max(self.t, offline_from)
        self.move(back + round(minutes * 60_000))
        if rng.random() < self.scenario.incidents.reboot_share:
            # A restart: headerIds begin again at 0 and the order memory is gone.
            self.state_header_id = self.connection_header_id = 0
            self.order_id = ""
            self.replace_actions([], [])
            self.node_sequence = 0
        self.online = True
        self.emit_connection("ONLINE")
        self.emit_state()
