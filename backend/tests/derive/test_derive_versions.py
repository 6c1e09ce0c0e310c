"""Real 1.1, 2.0 and 3.0 payloads through decode and derivation."""

import json
from pathlib import Path
from typing import Any

from derive_builders import deriver, feed_all, only

from fleetscope.facts.model import (
    ActionRecord,
    ChargeSession,
    ErrorEpisode,
    OrderOutcome,
    OrderRun,
    StateInterval,
    VehicleState,
)
from fleetscope.vda5050.decode import decode

PAYLOADS = Path(__file__).parents[1] / "vda5050" / "payloads"


class Publisher:
    """Publishes edited copies of a real payload as successive messages of one vehicle."""

    def __init__(self, name: str, topic: str) -> None:
        self.base = json.loads((PAYLOADS / name).read_text())
        self.topic = topic
        self.header_id = 0

    def __call__(self, second: int, **fields: Any) -> Any:
        self.header_id += 1
        document = {**self.base, **fields}
        document["headerId"] = self.header_id
        document["timestamp"] = f"2026-03-02T08:00:{second:02d}.000Z"
        return decode(self.topic, json.dumps(document).encode(), validate_schema=True)


def test_1_1_order_with_lower_case_statuses() -> None:
    publish = Publisher("state_1.1.json", "uagv/v1/acme/legacy-01/state")
    nodes = publish.base["nodeStates"]
    edges = publish.base["edgeStates"]
    position = publish.base["agvPosition"]

    def actions(pick: str, drop: str) -> list[dict[str, str]]:
        return [
            {"actionId": "pick-42", "actionType": "pick", "actionStatus": pick},
            {"actionId": "drop-42", "actionType": "drop", "actionStatus": drop},
        ]

    messages = [
        publish(0, orderId="", nodeStates=[], edgeStates=[], actionStates=[], driving=False),
        publish(1, actionStates=actions("running", "waiting"), driving=False),
        publish(5, actionStates=actions("finished", "waiting")),
        publish(
            9,
            nodeStates=nodes[1:],
            edgeStates=edges[1:],
            lastNodeId="n8",
            lastNodeSequenceId=8,
            actionStates=actions("finished", "waiting"),
            agvPosition={**position, "x": position["x"] + 3.0},
        ),
        publish(
            14,
            nodeStates=[],
            edgeStates=[],
            lastNodeId="n9",
            lastNodeSequenceId=10,
            actionStates=actions("finished", "finished"),
            driving=False,
            agvPosition={**position, "x": position["x"] + 6.0, "y": position["y"] + 4.0},
            errors=[],
        ),
    ]
    facts = feed_all(deriver(), messages)
    [run] = only(facts, OrderRun)
    assert (run.order_id, run.workflow, run.outcome) == (
        "PICKING-000042",
        "PICKING",
        OrderOutcome.FINISHED,
    )
    assert (run.nodes_traversed, run.nodes_total, run.distance_m) == (2, 2, 8.0)
    assert sorted(record.status for record in only(facts, ActionRecord)) == [
        "FINISHED",
        "FINISHED",
    ]
    [episode] = only(facts, ErrorEpisode)  # 1.1's lower-case "warning"
    assert (episode.error_type, episode.level, episode.references) == (
        "batteryLow",
        "WARNING",
        '{"battery":"main"}',
    )
    assert (episode.start.second, episode.end.second) == (0, 14)


def test_3_0_retriable_critical_and_power_supply() -> None:
    publish = Publisher("state_3.0.json", "uagv/v3/acme/amr-30/state")
    base = publish.base
    retriable = [dict(base["actionStates"][0])]
    failed = [{**retriable[0], "actionStatus": "FAILED"}]
    critical = base["errors"][:1]
    messages = [
        publish(0, errors=[], operatingMode="AUTOMATIC", paused=False),
        publish(3, errors=critical, operatingMode="AUTOMATIC", paused=False),
        # RETRIABLE keeps the order open although the route is done (3.0 section 6.6.8).
        publish(
            6,
            nodeStates=[],
            edgeStates=[],
            lastNodeId="r2",
            lastNodeSequenceId=4,
            actionStates=retriable,
            errors=[],
            operatingMode="AUTOMATIC",
            paused=False,
        ),
        publish(
            9,
            nodeStates=[],
            edgeStates=[],
            lastNodeId="r2",
            lastNodeSequenceId=4,
            actionStates=failed,
            errors=[],
            operatingMode="AUTOMATIC",
            paused=False,
            powerSupply={**base["powerSupply"], "charging": True},
        ),
        publish(
            30,
            nodeStates=[],
            edgeStates=[],
            lastNodeId="r2",
            lastNodeSequenceId=4,
            actionStates=failed,
            errors=[],
            operatingMode="AUTOMATIC",
            paused=False,
            powerSupply={**base["powerSupply"], "stateOfCharge": 61.0, "charging": False},
        ),
    ]
    facts = feed_all(deriver(), messages)
    [run] = only(facts, OrderRun)
    assert (run.order_id, run.outcome, run.error_count) == ("REPLENISH-7", OrderOutcome.FAILED, 1)
    assert run.end.second == 9
    [episode] = only(facts, ErrorEpisode)
    assert (episode.level, episode.references) == ("CRITICAL", '{"nodeId":"r2"}')
    assert [(fact.state, fact.start.second) for fact in only(facts, StateInterval)] == [
        (VehicleState.WORKING, 0),
        (VehicleState.ERROR, 3),
        (VehicleState.WORKING, 6),
        (VehicleState.CHARGING, 9),
    ]
    [session] = only(facts, ChargeSession)
    assert (session.start_charge, session.end_charge, session.peak_before) == (55.5, 61.0, 55.5)
