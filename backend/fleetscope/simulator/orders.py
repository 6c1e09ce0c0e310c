"""How a simulated vehicle drives an order: nodes, actions, errors, cancellations.

Every change a real vehicle reports (order accepted, node reached, driving start/stop,
action status, error appearing) is published at the instant it happens and recorded in
the truth with that same timestamp.
"""

from dataclasses import dataclass

from fleetscope.simulator.payloads import ActiveError, edge_state, node_state
from fleetscope.simulator.randomness import ErrorSampler, log_uniform
from fleetscope.simulator.routing import Route, Router
from fleetscope.simulator.scenario import ErrorSeverity, ProtocolVersion, Scenario, VehicleSpec
from fleetscope.simulator.vehicle_core import VehicleCore


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


class OrderDriver(VehicleCore):
    def __init__(
        self,
        *,
        scenario: Scenario,
        spec: VehicleSpec,
        index: int,
        seed: int,
        end_ms: int,
        router: Router,
        errors: ErrorSampler,
    ) -> None:
        super().__init__(scenario=scenario, spec=spec, index=index, seed=seed, end_ms=end_ms)
        self._router = router
        self._sampler = errors
        self._order_number = 0
        self._workflow_weights = [w.weight for w in scenario.workflows]

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
        # The leg to this node was driven under the replaced order: the next order starts
        # here (VDA 5050: where the vehicle stands). The truth's odometer otherwise moves
        # only with published states, which would credit the leg to the next order.
        self.truth.distance_m = self.odometer
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
