"""Vehicle state intervals: precedence, merging, offline by silence and by connection,
duplicates, messages out of order, restarts, tick and live status."""

from collections.abc import Sequence
from datetime import timedelta

import pytest
from derive_builders import T0, VEHICLE_ID, Vehicle, action, at, deriver, error, feed_all, only

from fleetscope.facts.model import StateInterval, VehicleState
from fleetscope.vda5050.model import StateMessage

IDLE = VehicleState.IDLE
WORKING = VehicleState.WORKING
OFFLINE = VehicleState.OFFLINE


def intervals(facts: Sequence[object]) -> list[tuple[VehicleState, float, float]]:
    return [
        (fact.state, (fact.start - T0).total_seconds(), (fact.end - T0).total_seconds())
        for fact in only(facts, StateInterval)
    ]


def state_after(message: StateMessage) -> VehicleState:
    target = deriver()
    target.feed(message)
    return target.live().state


# --- precedence --------------------------------------------------------------------------


def test_precedence_error_manual_charging_working_idle() -> None:
    v = Vehicle()
    fatal = [error("laserBlocked", "FATAL")]
    assert state_after(v.state(0, errors=fatal, mode="MANUAL", charging=True, driving=True)) == (
        VehicleState.ERROR
    )
    assert state_after(v.state(0, mode="MANUAL", charging=True, driving=True)) == (
        VehicleState.MANUAL
    )
    assert state_after(v.state(0, charging=True, driving=True)) == VehicleState.CHARGING
    assert state_after(v.state(0, driving=True)) == WORKING
    assert state_after(v.state(0)) == IDLE


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        ("WARNING", IDLE),
        ("URGENT", IDLE),
        ("CRITICAL", VehicleState.ERROR),
        ("FATAL", VehicleState.ERROR),
    ],
)
def test_only_stopping_error_levels_make_error(level: str, expected: VehicleState) -> None:
    assert state_after(Vehicle().state(0, errors=[error("e", level)])) == expected


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("AUTOMATIC", IDLE),
        ("SEMIAUTOMATIC", IDLE),
        ("STARTUP", IDLE),
        ("MANUAL", VehicleState.MANUAL),
        ("SERVICE", VehicleState.MANUAL),
        ("TEACHIN", VehicleState.MANUAL),
        ("INTERVENED", VehicleState.MANUAL),
    ],
)
def test_manual_operating_modes(mode: str, expected: VehicleState) -> None:
    assert state_after(Vehicle().state(0, mode=mode)) == expected


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ("WAITING", WORKING),
        ("INITIALIZING", WORKING),
        ("RUNNING", WORKING),
        ("PAUSED", WORKING),
        ("RETRIABLE", WORKING),
        ("FINISHED", IDLE),
        ("FAILED", IDLE),
    ],
)
def test_action_statuses_that_keep_a_vehicle_working(status: str, expected: VehicleState) -> None:
    assert state_after(Vehicle().state(0, actions=[action("a", status)])) == expected


def test_nodes_or_edges_alone_mean_working() -> None:
    v = Vehicle()
    assert state_after(v.state(0, order_id="o-1", nodes=[("n", 2)])) == WORKING
    assert state_after(v.state(0, order_id="o-1", edges=[("e", 1)])) == WORKING


def test_no_battery_report_is_not_charging() -> None:
    assert state_after(Vehicle().state(0, charge=None)) == IDLE


# --- intervals -----------------------------------------------------------------------------


def test_one_interval_per_continuous_state() -> None:
    v = Vehicle()
    target = deriver()
    facts = feed_all(
        target,
        [
            v.state(0),
            v.state(10),
            v.state(20, driving=True),
            v.state(25, driving=True),
            v.state(30, driving=True),
            v.state(40),
            v.state(50, charging=True),
        ],
    )
    assert intervals(facts) == [(IDLE, 0, 20), (WORKING, 20, 40), (IDLE, 40, 50)]
    assert target.live().state == VehicleState.CHARGING
    assert target.live().since == at(50)


def test_silence_longer_than_offline_after_is_offline() -> None:
    v = Vehicle()
    facts = feed_all(deriver(), [v.state(0), v.state(30), v.state(200), v.state(210, driving=True)])
    assert intervals(facts) == [(IDLE, 0, 95), (OFFLINE, 95, 200), (IDLE, 200, 210)]


def test_silence_of_exactly_offline_after_is_not_offline() -> None:
    v = Vehicle()
    facts = feed_all(deriver(), [v.state(0), v.state(65), v.state(70, driving=True)])
    assert intervals(facts) == [(IDLE, 0, 70)]


def test_offline_after_is_configurable() -> None:
    v = Vehicle()
    target = deriver(offline_after=timedelta(seconds=10))
    facts = feed_all(target, [v.state(0), v.state(15, driving=True)])
    assert intervals(facts) == [(IDLE, 0, 10), (OFFLINE, 10, 15)]


def test_last_will_connectionbroken_is_offline_from_its_timestamp() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, driving=True),
            v.connection(12, "CONNECTIONBROKEN"),
            v.state(300, driving=True),  # no silence rule: offline already
            v.state(301),
        ],
    )
    assert intervals(facts) == [(WORKING, 0, 12), (OFFLINE, 12, 300), (WORKING, 300, 301)]


def test_last_will_stamped_at_connect_time_applies_at_the_last_message() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.connection(0, "ONLINE"),
            v.state(1),
            v.state(40, driving=True),
            v.connection(0, "CONNECTIONBROKEN"),  # the last will set at connect
            v.state(100),
        ],
    )
    assert intervals(facts) == [(IDLE, 0, 40), (OFFLINE, 40, 100)]


def test_orderly_offline_and_online_again() -> None:
    v = Vehicle()
    target = deriver()
    facts = feed_all(
        target,
        [
            v.state(0, charging=True),
            v.connection(5, "OFFLINE"),
            v.connection(500, "ONLINE"),
            v.state(501, charging=True),
            v.state(502),
        ],
    )
    # ONLINE restores the state of the last state message until the next one arrives.
    assert intervals(facts) == [
        (VehicleState.CHARGING, 0, 5),
        (OFFLINE, 5, 500),
        (VehicleState.CHARGING, 500, 502),
    ]


def test_hibernating_is_offline() -> None:
    v = Vehicle()
    facts = feed_all(deriver(), [v.state(0), v.connection(10, "HIBERNATING"), v.state(900)])
    assert intervals(facts) == [(IDLE, 0, 10), (OFFLINE, 10, 900)]


def test_a_repeated_connection_message_changes_nothing() -> None:
    v = Vehicle()
    broken = v.connection(10, "CONNECTIONBROKEN")
    target = deriver()
    facts = feed_all(target, [v.state(0), broken, v.state(20), broken, v.state(30, driving=True)])
    assert intervals(facts) == [(IDLE, 0, 10), (OFFLINE, 10, 20), (IDLE, 20, 30)]
    assert target.stats.out_of_order == 1


# --- duplicates, order, restarts -----------------------------------------------------------


def test_duplicates_are_ignored_and_counted() -> None:
    v = Vehicle()
    first = v.state(0)
    working = v.state(10, driving=True)
    target = deriver()
    facts = feed_all(target, [first, working, working, v.state(20), working])
    assert intervals(facts) == [(IDLE, 0, 10), (WORKING, 10, 20)]
    assert target.stats.duplicates == 1
    assert target.stats.out_of_order == 1  # the last copy arrived after a newer message
    assert target.stats.applied == 3


def test_same_timestamp_with_another_header_id_is_not_a_duplicate() -> None:
    v = Vehicle()
    target = deriver()
    facts = feed_all(target, [v.state(0), v.state(10), v.state(10, driving=True), v.state(20)])
    assert intervals(facts) == [(IDLE, 0, 10), (WORKING, 10, 20)]
    assert target.stats.duplicates == 0


def test_messages_out_of_order_do_not_corrupt_intervals() -> None:
    v = Vehicle()
    late = v.state(15, driving=True)
    target = deriver()
    facts = feed_all(target, [v.state(0), v.state(10), v.state(20), late, v.state(30)])
    assert intervals(facts) == []
    assert target.live().state == IDLE and target.live().since == at(0)
    assert target.stats.out_of_order == 1


def test_vehicle_restart_with_header_ids_from_one_again() -> None:
    v = Vehicle()
    target = deriver()
    before = [v.state(0, header_id=700), v.state(10, header_id=701, driving=True)]
    after = [v.state(30, header_id=1), v.state(40, header_id=2, driving=True)]
    facts = feed_all(target, [*before, *after])
    assert intervals(facts) == [(IDLE, 0, 10), (WORKING, 10, 30), (IDLE, 30, 40)]
    assert target.stats.duplicates == 0 and target.stats.out_of_order == 0


def test_factsheets_produce_nothing() -> None:
    from fleetscope.vda5050.model import FactsheetMessage

    v = Vehicle()
    target = deriver()
    target.feed(v.state(0))
    sheet = FactsheetMessage(v.header(500, None, topic="factsheet"), "Carrier")
    assert target.feed(sheet) == []
    assert target.stats.ignored == 1
    assert target.live().last_message_at == at(0)


# --- tick ----------------------------------------------------------------------------------


def test_tick_switches_to_offline_once_silence_exceeds_offline_after() -> None:
    v = Vehicle()
    target = deriver()
    target.feed(v.state(0, driving=True))
    assert target.tick(now=at(65)) == []
    assert intervals(target.tick(now=at(66))) == [(WORKING, 0, 65)]
    assert target.live().state == OFFLINE and target.live().since == at(65)
    assert target.tick(now=at(500)) == []
    assert intervals(target.feed(v.state(600))) == [(OFFLINE, 65, 600)]


def test_tick_gives_the_same_facts_as_feeding_alone() -> None:
    messages = [
        Vehicle().state(0, charging=True, charge=50),
        Vehicle().state(100, charge=60, header_id=2),
        Vehicle().state(110, charge=60, header_id=3, driving=True),
    ]
    fed = feed_all(deriver(), messages)
    ticked = deriver()
    with_ticks = []
    for message in messages:  # the live pipeline ticks every few seconds between messages
        for seconds_before in (40, 20, 1, 0):
            now = message.header.timestamp - timedelta(seconds=seconds_before)
            with_ticks += ticked.tick(now=now)
        with_ticks += ticked.feed(message)
    assert any(isinstance(fact, StateInterval) and fact.state == OFFLINE for fact in with_ticks)
    assert sorted(map(repr, with_ticks)) == sorted(map(repr, fed))


def test_a_message_older_than_a_tick_offline_does_not_go_back_in_time() -> None:
    v = Vehicle()
    target = deriver()
    target.feed(v.state(0, driving=True))
    target.tick(now=at(70))  # a receive clock ahead of the vehicle's
    facts = target.feed(v.state(60))
    assert intervals(facts) == []  # offline [65, 65] is empty; idle starts at 65
    assert target.live().state == IDLE and target.live().since == at(65)


# --- live and open facts -------------------------------------------------------------------


def test_live_status() -> None:
    v = Vehicle()
    target = deriver()
    empty = target.live()
    assert empty.state == OFFLINE and empty.last_message_at is None
    target.feed(
        v.state(
            5,
            order_id="TRANSPORT_A-000001",
            nodes=[("n2", 2)],
            charge=55.5,
            errors=[error("lidar", "WARNING", "dirty")],
            position=(3.0, 4.0, "hall"),
        )
    )
    live = target.live()
    assert live.vehicle_id == VEHICLE_ID
    assert (live.state, live.since, live.last_message_at) == (WORKING, at(5), at(5))
    assert (live.order_id, live.workflow) == ("TRANSPORT_A-000001", "TRANSPORT_A")
    assert (live.charge, live.charging) == (55.5, False)
    assert live.active_errors == (("lidar", "WARNING", "dirty"),)
    assert (live.x, live.y, live.map_id) == (3.0, 4.0, "hall")


def test_open_facts_close_the_current_state_without_changing_it() -> None:
    v = Vehicle()
    target = deriver()
    target.feed(v.state(0, driving=True))
    assert intervals(target.open_facts(at=at(50))) == [(WORKING, 0, 50)]
    assert intervals(target.open_facts(at=at(100))) == [(WORKING, 0, 65), (OFFLINE, 65, 100)]
    assert target.live().state == WORKING
    assert intervals(target.feed(v.state(60))) == [(WORKING, 0, 60)]
