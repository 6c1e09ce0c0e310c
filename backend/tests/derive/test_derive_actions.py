"""Action records per actionId: first seen, first RUNNING, end, type, order."""

from collections.abc import Sequence
from typing import Any

from derive_builders import Vehicle, action, at, deriver, feed_all, only

from fleetscope.facts.model import ActionRecord, OrderOutcome, OrderRun

ORDER = "TRANSPORT_A-000001"
NEXT = "TRANSPORT_B-000002"


def records(facts: Sequence[object]) -> list[ActionRecord]:
    return only(facts, ActionRecord)


def test_first_seen_first_running_end_type_and_order() -> None:
    v = Vehicle()
    route: dict[str, Any] = {"order_id": ORDER, "nodes": [("n", 2)]}
    facts = feed_all(
        deriver(),
        [
            v.state(0, **route, actions=[action("a", "WAITING", "pick")]),
            v.state(3, **route, actions=[action("a", "INITIALIZING", "pick")]),
            v.state(5, **route, actions=[action("a", "RUNNING", "pick")]),
            v.state(6, **route, actions=[action("a", "PAUSED", "pick")]),
            v.state(7, **route, actions=[action("a", "RUNNING", "pick")]),
            v.state(9, **route, actions=[action("a", "FINISHED", "pick")]),
            v.state(12, **route, actions=[action("a", "FINISHED", "pick")]),
        ],
    )
    [record] = records(facts)
    assert (record.action_id, record.action_type, record.order_id) == ("a", "pick", ORDER)
    assert (record.first_seen, record.started, record.end) == (at(0), at(5), at(9))
    assert record.status == "FINISHED"


def test_instant_actions_belong_to_no_order() -> None:
    v = Vehicle()
    route: dict[str, Any] = {"order_id": ORDER, "nodes": [("n", 2)]}
    facts = feed_all(
        deriver(),
        [
            v.state(0, **route),
            v.state(1, **route, actions=[action("p1", "RUNNING", "startPause")]),
            v.state(2, **route, actions=[action("p1", "FINISHED", "startPause")]),
            v.state(3, **route, instant_actions=[action("s1", "FINISHED", "stateRequest")]),
        ],
    )
    assert [(record.action_id, record.order_id) for record in records(facts)] == [
        ("p1", ""),
        ("s1", ""),
    ]


def test_action_without_order_run() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, actions=[action("x", "RUNNING", "beep")]),
            v.state(1, actions=[action("x", "FINISHED", "beep")]),
        ],
    )
    [record] = records(facts)
    assert (record.order_id, record.status, record.end) == ("", "FINISHED", at(1))


def test_actions_abandoned_with_a_replaced_order_are_dropped() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=[("n", 2)], actions=[action("a", "WAITING")]),
            v.state(
                1,
                order_id=ORDER,
                nodes=[("n", 2)],
                actions=[action("a", "RUNNING"), action("b", "WAITING")],
            ),
            v.state(2, order_id="OTHER-000001", nodes=[("m", 2)], actions=[action("c", "WAITING")]),
            v.state(3, order_id="OTHER-000001", nodes=[("m", 2)], actions=[action("c", "FAILED")]),
        ],
    )
    [record] = records(facts)
    assert (record.action_id, record.order_id, record.status) == ("c", "OTHER-000001", "FAILED")


def test_finished_actions_of_the_first_message_are_history() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, actions=[action("old", "FINISHED")]),
            v.state(1, actions=[action("old", "FINISHED"), action("new", "FAILED")]),
        ],
    )
    [record] = records(facts)
    assert (record.action_id, record.first_seen, record.started, record.end) == (
        "new",
        at(1),
        None,
        at(1),
    )


def test_a_reused_action_id_is_a_new_action() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0),
            v.state(1, actions=[action("a", "FINISHED")]),
            v.state(2),
            v.state(3, actions=[action("a", "RUNNING")]),
            v.state(4, actions=[action("a", "FINISHED")]),
        ],
    )
    assert [(record.first_seen, record.end) for record in records(facts)] == [
        (at(1), at(1)),
        (at(3), at(4)),
    ]


def test_an_action_id_reused_in_the_next_order_is_that_order_s_action() -> None:
    # 'a' finished in the first order; the next order lists 'a' again and it fails there:
    # a record of its own, and that order fails (product.md 2: no FAILED action to finish).
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0),
            v.state(1, order_id=ORDER, nodes=[("n", 2)], actions=[action("a", "RUNNING")]),
            v.state(2, order_id=ORDER, last_node=("n", 2), actions=[action("a", "FINISHED")]),
            v.state(3, order_id=NEXT, nodes=[("m", 4)], actions=[action("a", "WAITING")]),
            v.state(4, order_id=NEXT, nodes=[("m", 4)], actions=[action("a", "RUNNING")]),
            v.state(5, order_id=NEXT, last_node=("m", 4), actions=[action("a", "FAILED")]),
        ],
    )
    assert [(r.order_id, r.first_seen, r.started, r.end, r.status) for r in records(facts)] == [
        (ORDER, at(1), at(1), at(2), "FINISHED"),
        (NEXT, at(3), at(4), at(5), "FAILED"),
    ]
    assert [(run.order_id, run.outcome) for run in only(facts, OrderRun)] == [
        (ORDER, OrderOutcome.FINISHED),
        (NEXT, OrderOutcome.FAILED),
    ]


def test_an_action_id_of_a_replaced_order_listed_by_the_next_order_is_the_next_order_s() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=[("n", 2)], actions=[action("a", "WAITING")]),
            v.state(1, order_id=NEXT, nodes=[("m", 2)], actions=[action("a", "WAITING")]),
            v.state(2, order_id=NEXT, last_node=("m", 2), actions=[action("a", "FAILED")]),
        ],
    )
    [record] = records(facts)
    assert (record.order_id, record.first_seen, record.status) == (NEXT, at(1), "FAILED")
    assert [(run.order_id, run.outcome) for run in only(facts, OrderRun)] == [
        (ORDER, OrderOutcome.CANCELLED),
        (NEXT, OrderOutcome.FAILED),
    ]


def test_a_finished_action_still_listed_by_the_next_order_is_not_counted_again() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=[("n", 2)], actions=[action("a", "RUNNING")]),
            v.state(1, order_id=ORDER, last_node=("n", 2), actions=[action("a", "FINISHED")]),
            v.state(2, order_id=NEXT, nodes=[("m", 2)], actions=[action("a", "FINISHED")]),
        ],
    )
    assert [(r.order_id, r.end) for r in records(facts)] == [(ORDER, at(1))]


def test_an_action_failed_before_the_first_message_fails_the_order_it_still_runs() -> None:
    v = Vehicle()
    listed = [action("a", "FAILED"), action("b", "WAITING", "drop")]
    done = [action("a", "FAILED"), action("b", "FINISHED", "drop")]
    facts = feed_all(
        deriver(),
        [
            v.state(0, order_id=ORDER, nodes=[("n", 2)], last_node=("s", 0), actions=listed),
            v.state(5, order_id=ORDER, last_node=("n", 2), actions=done),
        ],
    )
    # When 'a' failed is unknown: no record of it, but the order did not finish cleanly.
    assert [r.action_id for r in records(facts)] == ["b"]
    [run] = only(facts, OrderRun)
    assert run.outcome == OrderOutcome.FAILED
