"""The ground truth is consistent with itself and with the messages that reveal it."""

import itertools
from collections import defaultdict
from datetime import timedelta
from pathlib import Path

import orjson

from fleetscope.simulator import load_truth, write_truth
from fleetscope.simulator.truth import STATES

from .conftest import Run

_HEARTBEAT_MS = 30_000


def test_state_seconds_cover_each_vehicle_span_exactly(stress_run: Run) -> None:
    truth = stress_run.truth
    assert len(truth.vehicles) == 6
    for vehicle in truth.vehicles:
        assert set(vehicle.state_seconds) == set(STATES)
        span = (truth.end - vehicle.first_message).total_seconds()
        assert abs(sum(vehicle.state_seconds.values()) - span) < 0.001
    totals = {state: sum(v.state_seconds[state] for v in truth.vehicles) for state in STATES}
    assert all(seconds > 0 for seconds in totals.values()), totals


def test_orders_do_not_overlap_and_have_every_outcome(stress_run: Run) -> None:
    truth = stress_run.truth
    by_vehicle = defaultdict(list)
    for order in truth.orders:
        assert order.end is not None and order.start <= order.end
        by_vehicle[order.serial_number].append(order)
    for orders in by_vehicle.values():
        orders.sort(key=lambda o: o.start)
        for before, after in itertools.pairwise(orders):
            assert before.end is not None and before.end <= after.start
    outcomes = {order.outcome for order in truth.orders}
    assert outcomes == {"finished", "failed", "cancelled"}
    workflows = {order.workflow for order in truth.orders}
    assert {"TRANSPORT_A", "REPLENISH", "PICK_TO_LINE", "EMPTY_RETURN", "CHARGE"} <= workflows
    assert all(order.order_id.startswith(order.workflow + "-") for order in truth.orders)
    ids = [order.order_id for order in truth.orders if order.serial_number == "AGV-01"]
    assert len(ids) == len(set(ids))


def test_errors_charges_and_loads_are_recorded(stress_run: Run) -> None:
    truth = stress_run.truth
    levels = {episode.level for episode in truth.error_episodes}
    assert {"WARNING", "FATAL"} <= levels
    for episode in truth.error_episodes:
        assert episode.end is None or episode.start < episode.end
    assert truth.charge_sessions
    for session in truth.charge_sessions:
        assert session.start_charge < 30.0
        if session.end is not None:
            assert session.end_charge is not None and session.end_charge >= 89.5
    for vehicle in truth.vehicles:
        finished = sum(vehicle.actions.get(t, {}).get("finished", 0) for t in ("pick", "drop"))
        assert vehicle.loads_handled == finished > 0
        assert vehicle.distance_m > 100


def test_only_a_charge_order_starts_below_the_charging_threshold(stress_run: Run) -> None:
    """Standing drains the battery too: a vehicle that drained below the threshold while it
    waited goes to charge, and the order that arrives meanwhile is not its. (An order that
    replaces the one it is driving is no new start.)"""
    threshold = stress_run.scenario.battery.go_charge_below
    charge_prefix = f"{stress_run.scenario.charge_workflow}-"
    idle: dict[str, bool] = {}
    started = 0
    for _at, topic, payload in stress_run.messages:
        serial, kind = topic.split("/")[3:5]
        if kind != "state":
            continue
        state = orjson.loads(payload)
        working = bool(state["nodeStates"]) or state["driving"]
        if working and idle.get(serial) and not state["orderId"].startswith(charge_prefix):
            # VDA 5050 3.0 names it powerSupply.stateOfCharge.
            battery = state.get("batteryState") or state["powerSupply"]
            charge = battery.get("batteryCharge", battery.get("stateOfCharge"))
            assert charge >= threshold, (serial, state["orderId"], charge)
            started += 1
        idle[serial] = not working
    assert started > 100


def test_a_state_at_least_every_30_s_while_online(stress_run: Run) -> None:
    last_state: dict[str, int] = {}
    reconnected: set[str] = set()
    gaps_bridged = 0
    for at, topic, payload in stress_run.messages:
        serial, kind = topic.split("/")[3:5]
        if kind == "factsheet":
            continue
        if kind == "connection":
            if orjson.loads(payload)["connectionState"] == "ONLINE":
                reconnected.add(serial)
            continue
        previous = last_state.get(serial)
        if previous is not None and at - previous > _HEARTBEAT_MS:
            # Only an offline episode may interrupt the heartbeat; it ends with ONLINE.
            assert serial in reconnected, (serial, previous, at)
            gaps_bridged += 1
        reconnected.discard(serial)
        last_state[serial] = at
    assert gaps_bridged > 0


def test_connection_states_cover_broken_offline_and_restart(stress_run: Run) -> None:
    states = set()
    restarts = 0
    last_header: dict[str, int] = {}
    for _at, topic, payload in stress_run.messages:
        document = orjson.loads(payload)
        if topic.endswith("/connection"):
            states.add(document["connectionState"])
            continue
        previous = last_header.get(topic)
        if previous is not None and document["headerId"] != previous + 1:
            assert document["headerId"] == 0
            restarts += 1
        last_header[topic] = document["headerId"]
    assert {"ONLINE", "OFFLINE"} <= states
    assert states & {"CONNECTIONBROKEN", "CONNECTION_BROKEN"}
    assert restarts > 0


def test_truth_file_round_trips(stress_run: Run, tmp_path: Path) -> None:
    path = tmp_path / "truth.json"
    write_truth(stress_run.truth, path)
    loaded = load_truth(path)
    assert loaded == stress_run.truth
    assert loaded.end - loaded.start == timedelta(days=1)
