"""snapshot()/restore(): feeding half, restoring from JSON and feeding the rest gives
exactly the facts of feeding everything at once."""

import json
from typing import Any

import pytest
from derive_builders import VEHICLE_ID, Vehicle, action, at, deriver, error, feed_all

from fleetscope.derive import DerivationConfig, VehicleDeriver


def scenario() -> list[Any]:
    """Every tracker busy: orders, actions, errors, charging, jumps, gaps, connection."""
    v = Vehicle()
    route = [("s1", 0), ("n2", 2), ("s3", 4)]
    warn = error("lidar", "WARNING", "dirty", {"sensor": "front"})
    running = [action("q", "RUNNING", "drop"), action("c", "RUNNING", "cancelOrder")]
    duplicate = v.state(
        31, order_id="B-2", nodes=route[1:], actions=running, driving=True, position=(81.5, 0, "h")
    )
    return [
        v.connection(0, "ONLINE"),
        v.state(1, charge=90.0, position=(0.0, 0.0, "h")),
        v.state(2, order_id="A-1", nodes=route, actions=[action("p", "WAITING")], charge=89.0),
        v.state(
            4,
            order_id="A-1",
            nodes=route[1:],
            last_node=("s1", 0),
            paused=True,
            actions=[action("p", "RUNNING")],
            position=(0.3, 0.0, "h"),
            errors=[warn],
        ),
        v.state(
            8,
            order_id="A-1",
            nodes=route[2:],
            last_node=("n2", 2),
            driving=True,
            actions=[action("p", "FINISHED")],
            position=(8.0, 0.0, "h"),
            errors=[warn],
        ),
        v.state(
            12,
            order_id="A-1",
            last_node=("s3", 4),
            actions=[action("p", "FINISHED")],
            position=(8.2, 0.0, "h"),
            charge=87.5,
        ),
        v.state(
            20,
            order_id="B-2",
            nodes=route,
            actions=[action("q", "WAITING", "drop")],
            position=(80.0, 0.0, "h"),
        ),  # relocalised
        v.state(
            30,
            order_id="B-2",
            nodes=route[1:],
            last_node=("s1", 0),
            actions=[action("q", "RUNNING", "drop"), action("c", "RUNNING", "cancelOrder")],
            position=(81.0, 0.0, "h"),
            errors=[error("drive", "FATAL")],
        ),
        duplicate,
        duplicate,
        v.state(29, order_id="B-2"),  # out of order
        v.state(
            32,
            order_id="B-2",
            actions=[action("q", "FAILED", "drop"), action("c", "FINISHED", "cancelOrder")],
            charging=True,
            charge=60.0,
        ),
        v.state(100, charging=True, charge=70.0, order_id="B-2"),
        v.connection(101, "CONNECTIONBROKEN"),
        v.state(300, charging=True, charge=95.0, mode="MANUAL", order_id="B-2", header_id=1),
        v.state(301, charge=95.0, order_id="C-3", nodes=[("x", 2)], position=(5.0, 5.0, "g")),
        v.state(305, charge=94.0, order_id="C-3", last_node=("x", 2), position=(6.0, 5.0, "g")),
    ]


def roundtrip(snapshot: dict[str, Any]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(snapshot))
    return loaded


def test_scenario_covers_every_fact_type() -> None:
    facts = feed_all(deriver(), scenario())
    kinds = {type(fact).__name__ for fact in facts}
    assert kinds == {
        "StateInterval",
        "OrderRun",
        "ActionRecord",
        "ErrorEpisode",
        "BatterySample",
        "ChargeSession",
        "TrackPoint",
    }


@pytest.mark.parametrize("split", range(len(scenario()) + 1))
def test_restore_continues_exactly(split: int) -> None:
    messages = scenario()
    whole = deriver()
    expected = feed_all(whole, messages)

    first = deriver()
    facts = feed_all(first, messages[:split])
    restored = VehicleDeriver.restore(roundtrip(first.snapshot()), config=DerivationConfig())
    facts += feed_all(restored, messages[split:])

    assert facts == expected
    assert restored.live() == whole.live()
    assert restored.stats == whole.stats
    assert restored.snapshot() == whole.snapshot()
    assert restored.open_facts(at=at(400)) == whole.open_facts(at=at(400))


def test_snapshot_is_compact_json() -> None:
    target = deriver()
    feed_all(target, scenario())
    snapshot = target.snapshot()
    assert snapshot["vehicle_id"] == VEHICLE_ID
    assert len(json.dumps(snapshot)) < 2_000


def test_restore_refuses_an_unknown_snapshot_version() -> None:
    snapshot = deriver().snapshot()
    snapshot["v"] = 99
    with pytest.raises(ValueError, match="snapshot version 99"):
        VehicleDeriver.restore(snapshot, config=DerivationConfig())
