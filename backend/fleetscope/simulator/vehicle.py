"""A simulated vehicle's day: idle, orders, charging, manual and offline episodes.

The vehicle idles between orders; order arrivals follow the shift calendar. Every change a
real vehicle reports (charging, mode, connection; orders in ``orders.py``) is published
at the instant it happens and recorded in the truth with that same timestamp.
"""

from collections.abc import Iterator

from fleetscope.simulator.orders import OrderDriver, PlannedAction, PlannedOrder
from fleetscope.simulator.randomness import ErrorSampler, ShiftCalendar, log_uniform
from fleetscope.simulator.routing import Router
from fleetscope.simulator.scenario import Scenario, VehicleSpec
from fleetscope.simulator.vehicle_core import Emitted, SimulationEnd

_NEVER = 1 << 62
_DAY_MS = 86_400_000
_OFFLINE_AFTER_MS = 65_000


class VehicleProcess(OrderDriver):
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
        super().__init__(
            scenario=scenario,
            spec=spec,
            index=index,
            seed=seed,
            end_ms=end_ms,
            router=router,
            errors=errors,
        )
        self._calendar = calendar
        self._start_ms = start_ms
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
        scenario = self.scenario
        busy = {*scenario.chargers}
        for workflow in scenario.workflows:
            busy.update(workflow.sources, workflow.targets)
        nodes = [n.node_id for n in scenario.layout.nodes]
        # Start somewhere out of the way: any node that is no station nor charger.
        self.node = self.rng.choice([n for n in nodes if n not in busy] or nodes)
        self.x, self.y = self._router.point(self.node)
        self._schedule_episodes()
        self.online = True
        self.emit_connection("ONLINE")
        self.emit_factsheet()
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
        low_at = self._below_charging_threshold_at()
        if low_at < min(episode_at, order_at):
            # Standing drains the battery too: below the threshold it charges first (the next
            # step), and the order waiting for it goes to another vehicle.
            self.advance(low_at)
            return
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

    # -- charging and episodes ------------------------------------------------------------

    def _below_charging_threshold_at(self) -> int:
        """The first millisecond at which standing has drained the charge below the threshold."""
        above = self.charge - self.scenario.battery.go_charge_below
        if self._drain_per_ms <= 0:
            return _NEVER
        return self.t + int(above / self._drain_per_ms) + 1

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
        rebooted = rng.random() < self.scenario.incidents.reboot_share
        if rebooted:
            # A restart: headerIds begin again at 0 and the order memory is gone.
            self.state_header_id = self.connection_header_id = self.factsheet_header_id = 0
            self.order_id = ""
            self.replace_actions([], [])
            self.node_sequence = 0
        self.online = True
        self.emit_connection("ONLINE")
        if rebooted:
            self.emit_factsheet()
        self.emit_state()
