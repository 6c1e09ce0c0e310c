"""Order runs: start, outcome (finished, failed, cancelled), nodes, distance, paused and
waiting time, errors during the order, workflow."""

from collections.abc import Sequence
from typing import Any

import msgspec
from derive_builders import Vehicle, action, at, deriver, error, feed_all, only

from fleetscope.derive import DerivationConfig, VehicleDeriver, WorkflowRule
from fleetscope.facts.model import (
    ErrorEpisode,
    OrderOutcome,
    OrderRun,
    StateInterval,
    VehicleState,
)
from fleetscope.vda5050.model import NodeState, StateMessage

ORDER = "TRANSPORT_A-000123"
ROUTE = [("s1", 0), ("n2", 2), ("s3", 4)]
EDGES = [("e1", 1), ("e2", 3)]


def runs(facts: Sequence[object]) -> list[OrderRun]:
    return only(facts, OrderRun)


def drive_route(v: Vehicle, *, pick: str = "FINISHED", drop: str = "FINISHED") -> Sequence[object]:
    """Order on three nodes: accept at s1, pick, drive 10 m to n2 and 10 m to s3, drop."""
    return [
        v.state(0),
        v.state(
            10,
            order_id=ORDER,
            nodes=ROUTE,
            edges=EDGES,
            last_node=("x9", 7),  # still the previous order's last node
            actions=[action("pick", "WAITING"), action("drop", "WAITING", "drop")],
        ),
        v.state(
            11,
            order_id=ORDER,
            nodes=ROUTE[1:],
            edges=EDGES,
            last_node=("s1", 0),
            actions=[action("pick", "RUNNING"), action("drop", "WAITING", "drop")],
        ),
        v.state(
            15,
            order_id=ORDER,
            nodes=ROUTE[1:],
            edges=EDGES,
            last_node=("s1", 0),
            actions=[action("pick", pick), action("drop", "WAITING", "drop")],
            driving=True,
        ),
        v.state(
            20,
            order_id=ORDER,
            nodes=ROUTE[2:],
            edges=EDGES[1:],
            last_node=("n2", 2),
            actions=[action("pick", pick), action("drop", "WAITING", "drop")],
            driving=True,
            position=(10.0, 0.0, "hall"),
        ),
        v.state(
            25,
            order_id=ORDER,
            last_node=("s3", 4),
            actions=[action("pick", pick), action("drop", drop, "drop")],
            position=(20.0, 0.0, "hall"),
        ),
        v.state(40, order_id=ORDER, last_node=("s3", 4), position=(20.0, 0.0, "hall")),
    ]


def test_finished_order_with_every_field() -> None:
    facts = feed_all(deriver(), drive_route(Vehicle()))
    [run] = runs(facts)
    assert (run.order_id, run.workflow, run.outcome) == (
        ORDER,
        "TRANSPORT_A",
        OrderOutcome.FINISHED,
    )
    assert (run.start, run.end) == (at(10), at(25))
    assert (run.nodes_traversed, run.nodes_total) == (3, 3)
    assert run.distance_m == 20.0
    assert run.paused_s == 0.0
    assert run.waiting_s == 15.0  # the drop action waited from 10 s to 25 s
    assert run.error_count == 0
    assert run.vehicle_id == 7


def test_failed_action_fails_the_order() -> None:
    [run] = runs(feed_all(deriver(), drive_route(Vehicle(), pick="FAILED")))
    assert run.outcome == OrderOutcome.FAILED
    assert (run.nodes_traversed, run.nodes_total) == (3, 3)


def test_failed_last_action_fails_the_order() -> None:
    [run] = runs(feed_all(deriver(), drive_route(Vehicle(), drop="FAILED")))
    assert run.outcome == OrderOutcome.FAILED


def test_untraversed_nodes_when_idle_fail_the_order() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE, edges=EDGES, last_node=("s1", 0)),
            v.state(5, order_id=ORDER, nodes=ROUTE[2:], edges=EDGES[1:], last_node=("n2", 2)),
            v.state(9, order_id=ORDER, last_node=("n2", 2)),  # route dropped before s3
        ],
    )
    [run] = runs(facts)
    assert run.outcome == OrderOutcome.FAILED
    assert (run.nodes_traversed, run.nodes_total, run.end) == (2, 3, at(9))


def test_lost_messages_do_not_lose_traversed_nodes() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE, edges=EDGES, last_node=("s1", 0)),
            v.state(30, order_id=ORDER, last_node=("s3", 4)),  # the n2 message was lost
        ],
    )
    [run] = runs(facts)
    assert (run.outcome, run.nodes_traversed, run.nodes_total) == (OrderOutcome.FINISHED, 3, 3)


def test_fatal_error_that_ends_the_order_fails_it() -> None:
    v = Vehicle()
    fatal = [error("driveFault", "FATAL", "motor overheated")]
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE[1:], edges=EDGES, last_node=("s1", 0)),
            v.state(5, order_id=ORDER, nodes=ROUTE[1:], last_node=("s1", 0), errors=fatal),
            # the vehicle drops its route while the error is active
            v.state(8, order_id=ORDER, last_node=("s1", 0), errors=fatal),
        ],
    )
    [run] = runs(facts)
    assert (run.outcome, run.end, run.error_count) == (OrderOutcome.FAILED, at(8), 1)


def test_fatal_error_active_when_every_node_is_reached_still_fails() -> None:
    v = Vehicle()
    fatal = [error("driveFault", "FATAL")]
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=[("n2", 2)], edges=[("e1", 1)], last_node=("s1", 0)),
            v.state(5, order_id=ORDER, last_node=("n2", 2), errors=fatal),
        ],
    )
    assert runs(facts)[0].outcome == OrderOutcome.FAILED


def test_fatal_error_cleared_before_the_order_ends_does_not_fail_it() -> None:
    v = Vehicle()
    fatal = [error("driveFault", "FATAL")]
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=[("n2", 2)], edges=[("e1", 1)], last_node=("s1", 0)),
            v.state(5, order_id=ORDER, nodes=[("n2", 2)], last_node=("s1", 0), errors=fatal),
            v.state(50, order_id=ORDER, nodes=[("n2", 2)], last_node=("s1", 0), driving=True),
            v.state(60, order_id=ORDER, last_node=("n2", 2)),
        ],
    )
    [run] = runs(facts)
    assert (run.outcome, run.error_count) == (OrderOutcome.FINISHED, 1)


def test_cancel_order_instant_action_cancels() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE, edges=EDGES, actions=[action("p", "WAITING")]),
            v.state(
                5,
                order_id=ORDER,
                nodes=ROUTE,
                edges=EDGES,
                actions=[action("p", "WAITING"), action("c1", "RUNNING", "cancelOrder")],
                driving=True,
            ),
            # Route cleared, cancelOrder still running: not over yet.
            v.state(
                6,
                order_id=ORDER,
                actions=[action("p", "FAILED"), action("c1", "RUNNING", "cancelOrder")],
            ),
            v.state(
                7,
                order_id=ORDER,
                actions=[action("p", "FAILED"), action("c1", "FINISHED", "cancelOrder")],
            ),
        ],
    )
    [run] = runs(facts)
    assert (run.outcome, run.end) == (OrderOutcome.CANCELLED, at(7))


def test_cancel_order_in_3_0_instant_action_states() -> None:
    v = Vehicle()
    cancel = action("c1", "FINISHED", "cancelOrder")
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE, edges=EDGES),
            v.state(4, order_id=ORDER, instant_actions=[cancel]),
            v.state(5, order_id=ORDER, instant_actions=[cancel]),
        ],
    )
    [run] = runs(facts)
    assert (run.outcome, run.end) == (OrderOutcome.CANCELLED, at(4))


def test_a_cancel_finishing_with_the_next_orders_start_ends_only_the_previous_order() -> None:
    """The message between them was lost: the cancelOrder (3.0 keeps it listed until
    cleared) finished and the next order was accepted. A cancelled order leaves the vehicle
    idle, so the cancel was the previous order's."""
    v = Vehicle()
    running = [action("c1", "RUNNING", "cancelOrder")]
    done = [action("c1", "FINISHED", "cancelOrder")]
    route = [("x", 0), ("y", 2)]
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id="A-1", nodes=ROUTE, edges=EDGES),
            v.state(2, order_id="A-1", nodes=ROUTE, edges=EDGES, instant_actions=running),
            v.state(30, order_id="B-2", nodes=route, edges=[("e", 1)], instant_actions=done),
            v.state(40, order_id="B-2", last_node=("y", 2), instant_actions=done),
        ],
    )
    assert [(run.order_id, run.outcome, run.end) for run in runs(facts)] == [
        ("A-1", OrderOutcome.CANCELLED, at(30)),
        ("B-2", OrderOutcome.FINISHED, at(40)),
    ]


def test_a_cancel_first_seen_finished_with_the_next_order_ends_only_the_previous_one() -> None:
    v = Vehicle()
    done = action("c1", "FINISHED", "cancelOrder")
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id="A-1", nodes=ROUTE, edges=EDGES),
            v.state(30, order_id="B-2", nodes=[("x", 0)], actions=[done, action("p", "WAITING")]),
            v.state(
                40, order_id="B-2", last_node=("x", 0), actions=[done, action("p", "FINISHED")]
            ),
        ],
    )
    assert [(run.order_id, run.outcome, run.end) for run in runs(facts)] == [
        ("A-1", OrderOutcome.CANCELLED, at(30)),
        ("B-2", OrderOutcome.FINISHED, at(40)),
    ]


def test_failed_cancel_order_without_an_order_changes_nothing() -> None:
    v = Vehicle()
    target = deriver()
    facts = feed_all(
        target,
        [
            v.state(0, actions=[action("c1", "RUNNING", "cancelOrder")]),
            v.state(1, actions=[action("c1", "FAILED", "cancelOrder")]),
        ],
    )
    assert runs(facts) == []


def test_order_replaced_before_idle_is_cancelled_and_the_new_one_starts() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE, edges=EDGES, driving=True),
            v.state(8, order_id="RETURN-000001", nodes=[("n2", 0), ("p", 2)], edges=[("e", 1)]),
            v.state(20, order_id="RETURN-000001", last_node=("p", 2)),
        ],
    )
    first, second = runs(facts)
    assert (first.order_id, first.outcome, first.end) == (ORDER, OrderOutcome.CANCELLED, at(8))
    assert (second.order_id, second.workflow) == ("RETURN-000001", "RETURN")
    assert (second.start, second.end, second.outcome) == (at(8), at(20), OrderOutcome.FINISHED)


def test_order_first_seen_already_idle_is_not_a_run() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id="OLD-000001", last_node=("s3", 4)),
            v.state(10, order_id="OLD-000001"),
        ],
    )
    assert runs(facts) == []


def test_order_in_progress_at_the_first_message_starts_there() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE[2:], edges=EDGES[1:], last_node=("n2", 2)),
            v.state(5, order_id=ORDER, last_node=("s3", 4)),
        ],
    )
    [run] = runs(facts)
    assert (run.start, run.outcome, run.nodes_traversed, run.nodes_total) == (
        at(0),
        OrderOutcome.FINISHED,
        1,
        1,
    )


def test_order_id_lost_by_a_restarting_vehicle_is_judged_like_idle() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE, edges=EDGES, last_node=("s1", 0)),
            v.state(30, header_id=1),  # restarted: headerId from 1, no order
        ],
    )
    [run] = runs(facts)
    assert (run.outcome, run.end) == (OrderOutcome.FAILED, at(30))


def test_same_order_id_after_its_end_is_not_a_new_run() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=[("n2", 2)], last_node=("s1", 0)),
            v.state(5, order_id=ORDER, last_node=("n2", 2)),
            v.state(9, order_id=ORDER, nodes=[("s3", 4)], last_node=("n2", 2)),  # late update
            v.state(15, order_id=ORDER, last_node=("s3", 4)),
        ],
    )
    assert [run.end for run in runs(facts)] == [at(5)]


def test_paused_and_waiting_time() -> None:
    v = Vehicle()
    route: dict[str, Any] = {
        "order_id": ORDER,
        "nodes": ROUTE[1:],
        "edges": EDGES,
        "last_node": ("s1", 0),
    }
    waiting = [action("drop", "WAITING", "drop")]
    running = [action("drop", "RUNNING", "drop")]
    facts = feed_all(
        deriver(),
        [
            v.state(0, **route, actions=running),
            v.state(10, **route, actions=running, paused=True),
            v.state(15, **route, actions=waiting, paused=True),
            v.state(18, **route, actions=waiting),
            v.state(30, **route, actions=running),
            v.state(40, order_id=ORDER, last_node=("s3", 4), actions=[action("drop", "FINISHED")]),
        ],
    )
    [run] = runs(facts)
    assert run.paused_s == 8.0  # 10..18
    assert run.waiting_s == 15.0  # 15..30


def test_paused_time_stops_while_offline() -> None:
    v = Vehicle()
    route: dict[str, Any] = {
        "order_id": ORDER,
        "nodes": ROUTE[1:],
        "edges": EDGES,
        "last_node": ("s1", 0),
    }
    facts = feed_all(
        deriver(),
        [
            v.state(0, **route, paused=True),
            v.state(200, **route, paused=True),  # offline from 65 to 200
            v.state(210, order_id=ORDER, last_node=("s3", 4)),
        ],
    )
    assert runs(facts)[0].paused_s == 75.0  # 0..65 and 200..210


def test_errors_during_the_order_are_counted() -> None:
    v = Vehicle()
    route: dict[str, Any] = {
        "order_id": ORDER,
        "nodes": ROUTE[1:],
        "edges": EDGES,
        "last_node": ("s1", 0),
    }
    warn = error("lidar", "WARNING")
    facts = feed_all(
        deriver(),
        [
            v.state(0, errors=[error("before")]),
            v.state(1, **route),
            v.state(2, **route, errors=[warn]),
            v.state(3, **route, errors=[warn, error("slip", "WARNING")]),
            v.state(4, **route),
            v.state(5, **route, errors=[warn]),
            v.state(6, order_id=ORDER, last_node=("s3", 4)),
            v.state(7, order_id=ORDER, errors=[error("after")]),
        ],
    )
    assert runs(facts)[0].error_count == 3


def test_distance_counts_only_while_the_order_runs() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, position=(0.0, 0.0, "hall")),
            v.state(10, order_id=ORDER, nodes=[("n2", 2)], position=(4.0, 0.0, "hall")),
            v.state(20, order_id=ORDER, nodes=[("n2", 2)], position=(4.0, 30.0, "hall")),
            v.state(30, order_id=ORDER, last_node=("n2", 2), position=(4.0, 33.0, "hall")),
            v.state(40, order_id=ORDER, last_node=("n2", 2), position=(4.0, 40.0, "hall")),
        ],
    )
    assert runs(facts)[0].distance_m == 33.0  # 4 m before the order and 7 m after are not in it


def test_site_workflow_rules_in_order() -> None:
    rules = (
        WorkflowRule(r"^(?P<workflow>KITTING)"),
        WorkflowRule(r"^(?:[A-Z]+)/(?P<workflow>[a-z]+)/"),
    )
    target = VehicleDeriver(vehicle_id=1, config=DerivationConfig(workflow_rules=rules))
    v = Vehicle()
    facts = feed_all(
        target,
        [
            v.state(0, order_id="KITTING-7", nodes=[("n", 2)]),
            v.state(1, order_id="WH/replenish/9", nodes=[("n", 2)]),
            v.state(2, order_id="no-rule-for-this", nodes=[("n", 2)]),
            v.state(3, order_id="END-1", nodes=[("n", 2)]),
        ],
    )
    assert [run.workflow for run in runs(facts)] == ["KITTING", "replenish", "unassigned"]


def test_a_rule_that_would_backtrack_for_ages_costs_one_pass_over_the_order_id() -> None:
    # A plausible rule, but nested repetition: Python's backtracking ``re`` needs about 2^n
    # steps for an id of n word characters without the dash (minutes at 30 characters), and
    # the derivation of every site would wait for it. Rules run on RE2, linear in the id.
    rules = (WorkflowRule(r"^(?P<workflow>(\w+)+)-\d+$"),)
    target = VehicleDeriver(vehicle_id=1, config=DerivationConfig(workflow_rules=rules))
    v = Vehicle()
    stuck = "TRANSPORT" * 1_000
    facts = feed_all(
        target,
        [
            v.state(0, order_id=stuck, nodes=[("n", 2)]),
            v.state(1, order_id=f"{stuck}-7", nodes=[("n", 2)]),
            v.state(2, order_id="END-1", nodes=[("n", 2)]),
        ],
    )
    assert [run.workflow for run in runs(facts)] == ["unassigned", stuck]


def test_order_completing_after_its_fatal_error_was_cleared_is_finished() -> None:
    """Product.md section 3, "Orders and FATAL errors": a FATAL error during the order stops
    the vehicle (error state) with its route kept; once cleared, the vehicle drives on, drops
    and reaches the last node: the order is finished, and the error counts on it."""
    v = Vehicle()
    fatal = [error("laserScannerFault", "FATAL")]
    picked = [action("pick", "FINISHED"), action("drop", "WAITING", "drop")]
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE, edges=EDGES, last_node=("x9", 7)),
            v.state(
                10,
                order_id=ORDER,
                nodes=ROUTE[1:],
                edges=EDGES,
                last_node=("s1", 0),
                actions=picked,
                driving=True,
            ),
            # FATAL: the vehicle stops where it is, its route kept.
            v.state(
                20,
                order_id=ORDER,
                nodes=ROUTE[1:],
                edges=EDGES,
                last_node=("s1", 0),
                actions=picked,
                errors=fatal,
            ),
            v.state(
                80,
                order_id=ORDER,
                nodes=ROUTE[1:],
                edges=EDGES,
                last_node=("s1", 0),
                actions=picked,
                errors=fatal,
            ),
            # Cleared at 90 s: on to n2 and s3, drop there.
            v.state(
                90,
                order_id=ORDER,
                nodes=ROUTE[1:],
                edges=EDGES,
                last_node=("s1", 0),
                actions=picked,
                driving=True,
            ),
            v.state(
                100,
                order_id=ORDER,
                nodes=ROUTE[2:],
                edges=EDGES[1:],
                last_node=("n2", 2),
                actions=picked,
                driving=True,
            ),
            v.state(
                110,
                order_id=ORDER,
                nodes=ROUTE[2:],
                last_node=("s3", 4),
                actions=[action("pick", "FINISHED"), action("drop", "RUNNING", "drop")],
            ),
            v.state(
                120,
                order_id=ORDER,
                last_node=("s3", 4),
                actions=[action("pick", "FINISHED"), action("drop", "FINISHED", "drop")],
            ),
        ],
    )
    [run] = runs(facts)
    assert (run.outcome, run.start, run.end) == (OrderOutcome.FINISHED, at(0), at(120))
    assert (run.nodes_traversed, run.nodes_total, run.error_count) == (3, 3, 1)
    [episode] = only(facts, ErrorEpisode)
    assert (episode.level, episode.start, episode.end) == ("FATAL", at(20), at(90))
    assert episode.order_id == ORDER
    error_time = [s for s in only(facts, StateInterval) if s.state is VehicleState.ERROR]
    assert [(s.start, s.end) for s in error_time] == [(at(20), at(90))]


def test_order_replaced_after_a_fatal_error_is_failed() -> None:
    # product.md 3: an order the vehicle abandons (replaced) after a FATAL error is failed,
    # whether the error is still active or was cleared before the next order came.
    for cleared in (False, True):
        v = Vehicle()
        fatal = [error("driveFault", "FATAL")]
        facts = feed_all(
            deriver(),
            [
                v.state(0, order_id=ORDER, nodes=ROUTE[1:], edges=EDGES, last_node=("s1", 0)),
                v.state(5, order_id=ORDER, nodes=ROUTE[1:], last_node=("s1", 0), errors=fatal),
                v.state(20, order_id=ORDER, nodes=ROUTE[1:], last_node=("s1", 0), errors=fatal),
                v.state(
                    30,
                    order_id="RETURN-000001",
                    nodes=[("p", 2)],
                    errors=[] if cleared else fatal,
                ),
            ],
        )
        first = runs(facts)[0]
        assert (first.order_id, first.outcome, first.end, first.error_count) == (
            ORDER,
            OrderOutcome.FAILED,
            at(30),
            1,
        )


def test_order_replaced_after_a_critical_error_in_3_0_is_failed() -> None:
    # VDA 5050 3.0: CRITICAL is "unable to continue the active order, can accept a new one".
    v = Vehicle()
    critical = [error("laserFault", "CRITICAL")]
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE[1:], edges=EDGES, last_node=("s1", 0)),
            v.state(5, order_id=ORDER, nodes=ROUTE[1:], last_node=("s1", 0), errors=critical),
            v.state(30, order_id="RETURN-000001", nodes=[("p", 2)], errors=critical),
        ],
    )
    assert runs(facts)[0].outcome == OrderOutcome.FAILED


def test_order_replaced_after_a_warning_is_cancelled() -> None:
    v = Vehicle()
    warning = [error("batteryLow", "WARNING")]
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=ROUTE[1:], edges=EDGES, errors=warning),
            v.state(30, order_id="RETURN-000001", nodes=[("p", 2)], errors=warning),
        ],
    )
    assert runs(facts)[0].outcome == OrderOutcome.CANCELLED


def _route_with_s3_on_the_horizon(v: Vehicle, seconds: float) -> StateMessage:
    """The route's state with its last node, s3, not yet released (the order's horizon)."""
    state = v.state(seconds, order_id=ORDER, nodes=ROUTE, edges=EDGES, last_node=("s1", 0))
    nodes = tuple(
        NodeState(node.node_id, node.sequence_id, released=node.node_id != "s3")
        for node in state.node_states
    )
    return msgspec.structs.replace(state, node_states=nodes)


def test_a_horizon_node_dropped_by_an_order_update_is_not_part_of_the_order() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0),
            _route_with_s3_on_the_horizon(v, 1),
            # the update drops the horizon node s3; the vehicle reaches n2 and is done
            v.state(5, order_id=ORDER, nodes=ROUTE[1:2], last_node=("s1", 0), driving=True),
            v.state(9, order_id=ORDER, last_node=("n2", 2)),
        ],
    )
    [run] = runs(facts)
    assert (run.outcome, run.nodes_traversed, run.nodes_total) == (OrderOutcome.FINISHED, 2, 2)


def test_a_horizon_node_counts_once_released() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            _route_with_s3_on_the_horizon(v, 0),
            v.state(5, order_id=ORDER, nodes=ROUTE[1:], last_node=("s1", 0), driving=True),
            v.state(9, order_id=ORDER, nodes=ROUTE[2:], last_node=("n2", 2), driving=True),
            v.state(12, order_id=ORDER, last_node=("n2", 2)),  # stopped before s3
        ],
    )
    [run] = runs(facts)
    assert (run.outcome, run.nodes_traversed, run.nodes_total) == (OrderOutcome.FAILED, 2, 3)
