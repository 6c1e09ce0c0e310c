"""Battery samples and charge sessions."""

from collections.abc import Sequence
from datetime import timedelta

import pytest
from derive_builders import Vehicle, at, deriver, feed_all, only
from msgspec.structs import replace

from fleetscope.facts.model import BatterySample, ChargeSession
from fleetscope.vda5050.model import Battery


def samples(facts: Sequence[object]) -> list[tuple[float, float, bool]]:
    return [
        ((sample.at - at(0)).total_seconds(), sample.charge, sample.charging)
        for sample in only(facts, BatterySample)
    ]


def sessions(facts: Sequence[object]) -> list[tuple[float, float, float, float, float]]:
    return [
        (
            (session.start - at(0)).total_seconds(),
            (session.end - at(0)).total_seconds(),
            session.start_charge,
            session.end_charge,
            session.peak_before,
        )
        for session in only(facts, ChargeSession)
    ]


def test_samples_on_one_point_change_every_60_s_and_flag_change() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, charge=80.0),
            v.state(10, charge=79.5),  # 0.5 points: no
            v.state(20, charge=79.0),  # 1 point from the last sample: yes
            v.state(50, charge=78.7),  # no
            v.state(80, charge=78.6),  # 60 s since the last sample: yes
            v.state(85, charge=78.6, charging=True),  # flag: yes
            v.state(86, charge=78.7, charging=True),  # no
            v.state(87, charge=78.7, charging=False),  # flag: yes
        ],
    )
    assert samples(facts) == [
        (0, 80.0, False),
        (20, 79.0, False),
        (80, 78.6, False),
        (85, 78.6, True),
        (87, 78.7, False),
    ]


def test_a_step_of_exactly_one_point_is_sampled_whatever_its_binary_float() -> None:
    # 64.6 - 63.6 is 0.99999... in binary floating point.
    v = Vehicle()
    reports = [(0, 64.6), (10, 63.6), (20, 8.2), (30, 7.2), (40, 32.3), (50, 31.3)]
    facts = feed_all(deriver(), [v.state(t, charge=charge) for t, charge in reports])
    assert samples(facts) == [(t, charge, False) for t, charge in reports]


def test_samples_keep_voltage_and_health() -> None:
    message = Vehicle().state(0)
    message = replace(message, battery=Battery(70.0, False, voltage=47.9, health=93.0))
    [sample] = only(deriver().feed(message), BatterySample)
    assert (sample.charge, sample.voltage, sample.health) == (70.0, 47.9, 93.0)


def test_a_state_of_health_reported_now_and_then_is_sampled_when_it_changes() -> None:
    """Health on some reports only, between samples of an unchanged charge: each new value
    is sampled; the same value again, or a report without it, adds no sample."""
    v = Vehicle()

    def report(second: int, health: float | None) -> object:
        return replace(v.state(second), battery=Battery(70.0, False, health=health))

    facts = feed_all(
        deriver(),
        [
            report(0, None),
            report(30, 96.0),  # the first health: sampled
            report(45, None),
            report(50, 96.0),  # the same again: no
            report(55, 95.5),  # changed: sampled
        ],
    )
    assert [
        ((sample.at - at(0)).total_seconds(), sample.health)
        for sample in only(facts, BatterySample)
    ] == [(0, None), (30, 96.0), (55, 95.5)]


def test_charge_sessions_with_peak_before() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, charge=70.0),
            v.state(10, charge=90.0),  # the highest charge before the first session
            v.state(20, charge=40.0),
            v.state(30, charge=35.0, charging=True),
            v.state(40, charge=60.0, charging=True),
            v.state(50, charge=80.0),
            v.state(60, charge=75.0),
            v.state(70, charge=50.0, charging=True),
            v.state(80, charge=55.0),
        ],
    )
    assert sessions(facts) == [
        (30, 50, 35.0, 80.0, 90.0),
        (70, 80, 50.0, 55.0, 80.0),  # highest since the previous session ended
    ]


def test_charge_session_continues_through_error_and_manual() -> None:
    from derive_builders import error

    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, charge=30.0, charging=True),
            v.state(10, charge=40.0, charging=True, errors=[error("x", "FATAL")]),
            v.state(20, charge=50.0, charging=True, mode="MANUAL"),
            v.state(30, charge=60.0),
        ],
    )
    assert sessions(facts) == [(0, 30, 30.0, 60.0, 30.0)]


def test_going_offline_ends_a_charge_session() -> None:
    v = Vehicle()
    target = deriver()
    facts = feed_all(
        target,
        [
            v.state(0, charge=30.0, charging=True),
            v.state(20, charge=35.0, charging=True),
            v.state(500, charge=80.0, charging=True),  # back, still charging: a new session
            v.state(510, charge=81.0),
        ],
    )
    assert sessions(facts) == [(0, 85, 30.0, 35.0, 30.0), (500, 510, 80.0, 81.0, 80.0)]


def test_tick_ends_a_charge_session_like_feeding() -> None:
    v = Vehicle()
    target = deriver()
    target.feed(v.state(0, charge=30.0, charging=True))
    facts = target.tick(now=at(0) + timedelta(seconds=100))
    assert sessions(facts) == [(0, 65, 30.0, 30.0, 30.0)]


def test_open_session_in_open_facts() -> None:
    v = Vehicle()
    target = deriver()
    feed_all(
        target, [v.state(0, charge=30.0, charging=True), v.state(10, charge=33.0, charging=True)]
    )
    assert sessions(target.open_facts(at=at(20))) == [(0, 20, 30.0, 33.0, 30.0)]


def test_every_crossing_of_20_percent_is_sampled() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, charge=20.4),
            v.state(10, charge=20.0),  # 0.4 points, not under 20 %: no
            v.state(20, charge=19.9),  # under 20 %: yes, though 0.5 points from the sample
            v.state(30, charge=19.5),  # no
            v.state(40, charge=19.9, charging=True),  # flag: yes
            v.state(50, charge=20.0, charging=True),  # back at 20 %: yes
            v.state(60, charge=20.1, charging=True),  # no
        ],
    )
    assert samples(facts) == [
        (0, 20.4, False),
        (20, 19.9, False),
        (40, 19.9, True),
        (50, 20.0, True),
    ]


def test_samples_carry_the_reports_hold_and_discharge() -> None:
    """Each reported charge holds until the next report: the sample at 20 s closes 80 % for
    10 s and 79.5 % for 10 s; the one at 80 s 79 % for 30 s, 78.7 % for 30 s; a rise is
    no discharge."""
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, charge=80.0),
            v.state(10, charge=79.5),
            v.state(20, charge=79.0),
            v.state(50, charge=78.7),
            v.state(80, charge=78.9),
        ],
    )
    holds = [
        (sample.held_s, sample.held_charge_s, sample.discharged)
        for sample in only(facts, BatterySample)
    ]
    assert holds == [
        (0.0, 0.0, 0.0),
        (20.0, 80.0 * 10 + 79.5 * 10, 1.0),
        (60.0, 79.0 * 30 + 78.7 * 30, pytest.approx(0.3)),
    ]


def test_no_charge_holds_across_an_offline_gap() -> None:
    """Offline from 20 s (connection OFFLINE) to 600 s: 70 % holds the 20 s before, carried
    by a closing sample at 20 s; the fall of 5 points while offline is still discharge."""
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, charge=70.0),
            v.connection(20, "OFFLINE"),
            v.state(600, charge=65.0),
            v.state(630, charge=64.8),
            v.state(660, charge=64.8),
        ],
    )
    holds = [
        ((sample.at - at(0)).total_seconds(), sample.held_s, sample.discharged, sample.closes)
        for sample in only(facts, BatterySample)
    ]
    # The report at 600 s closes nothing (nothing held across the gap); 660 s: 60 s after it.
    assert holds == [
        (0, 0.0, 0.0, False),
        (20, 20.0, 0.0, True),
        (600, 0.0, 5.0, False),
        (660, 60.0, pytest.approx(0.2), False),
    ]


def test_the_last_reports_hold_until_silence_turns_offline() -> None:
    """Reports at 0 s (50 %), 10 s (49.5 %, not sampled) and 20 s (49.2 %), then silence:
    offline from 85 s (20 s + offline_after). The closing sample at 85 s carries 50 % for
    10 s, 49.5 % for 10 s and 49.2 % for 65 s; the first report after the gap is a sample
    although it moved less than a point and came less than 60 s after the closing one."""
    v = Vehicle()
    target = deriver()
    facts = feed_all(
        target, [v.state(0, charge=50.0), v.state(10, charge=49.5), v.state(20, charge=49.2)]
    )
    facts += target.tick(now=at(0) + timedelta(seconds=100))
    facts += feed_all(target, [v.state(120, charge=49.0), v.state(130, charge=48.9)])
    closing = [sample for sample in only(facts, BatterySample) if sample.closes]
    assert [(s.at - at(0)).total_seconds() for s in closing] == [85.0]
    assert closing[0].charge == 49.2
    assert closing[0].held_s == 85.0
    assert closing[0].held_charge_s == pytest.approx(50.0 * 10 + 49.5 * 10 + 49.2 * 65)
    assert closing[0].discharged == pytest.approx(0.8)
    assert samples(facts) == [(0, 50.0, False), (85, 49.2, False), (120, 49.0, False)]


def test_a_sampled_last_report_at_the_offline_instant_closes_nothing() -> None:
    """The last report is itself a sample and the vehicle goes offline at its instant:
    nothing is held after it, so no closing sample."""
    v = Vehicle()
    facts = feed_all(deriver(), [v.state(0, charge=50.0), v.connection(0, "OFFLINE")])
    assert [sample.closes for sample in only(facts, BatterySample)] == [False]
