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


def test_samples_on_one_point_change_each_whole_minute_and_flag_change() -> None:
    """``at(0)`` is a whole minute. The minute at 60 s passes between the reports at 50 s
    and 80 s: a sample there has the charge that holds then (78.7 %, reported at 50 s)."""
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, charge=80.0),
            v.state(10, charge=79.5),  # 0.5 points: no
            v.state(20, charge=79.0),  # 1 point from the last sample: yes
            v.state(50, charge=78.7),  # no
            v.state(80, charge=78.6),  # no (0.1 from the minute's sample)
            v.state(85, charge=78.6, charging=True),  # flag: yes
            v.state(86, charge=78.7, charging=True),  # no
            v.state(87, charge=78.7, charging=False),  # flag: yes
            v.state(120, charge=78.7),  # on a whole minute: yes
        ],
    )
    assert samples(facts) == [
        (0, 80.0, False),
        (20, 79.0, False),
        (60, 78.7, False),
        (85, 78.6, True),
        (87, 78.7, False),
        (120, 78.7, False),
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
            v.state(55, charge=20.1, charging=True),  # no
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
    10 s and 79.5 % for 10 s; the minute's at 60 s 79 % for 30 s, 78.7 % for 10 s; the one
    at 120 s 78.7 % for 20 s and 78.9 % for 40 s; a rise is no discharge. The lowest charge
    that held counts though no sample reported it (79.5 %)."""
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, charge=80.0),
            v.state(10, charge=79.5),
            v.state(20, charge=79.0),
            v.state(50, charge=78.7),
            v.state(80, charge=78.9),
            v.state(120, charge=78.9),
        ],
    )
    holds = [
        (sample.held_s, sample.held_charge_s, sample.discharged, sample.held_low)
        for sample in only(facts, BatterySample)
    ]
    assert holds == [
        (0.0, 0.0, 0.0, None),
        (20.0, 80.0 * 10 + 79.5 * 10, 1.0, 79.5),
        (40.0, 79.0 * 30 + 78.7 * 10, pytest.approx(0.3), 78.7),
        (60.0, 78.7 * 20 + 78.9 * 40, 0.0, 78.7),
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
    offline from 85 s (20 s + offline_after). The minute's sample at 60 s carries 50 % for
    10 s, 49.5 % for 10 s and 49.2 % for 40 s, the closing one at 85 s 49.2 % for 25 s; the
    first report after the gap is a sample although it moved less than a point."""
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
    assert closing[0].held_s == 25.0
    assert closing[0].held_charge_s == pytest.approx(49.2 * 25)
    minute = only(facts, BatterySample)[1]
    assert (minute.held_s, minute.discharged) == (60.0, pytest.approx(0.8))
    assert minute.held_charge_s == pytest.approx(50.0 * 10 + 49.5 * 10 + 49.2 * 40)
    assert samples(facts) == [
        (0, 50.0, False),
        (60, 49.2, False),
        (85, 49.2, False),
        (120, 49.0, False),
    ]


def test_a_sampled_last_report_at_the_offline_instant_closes_nothing() -> None:
    """The last report is itself a sample and the vehicle goes offline at its instant:
    nothing is held after it, so no closing sample."""
    v = Vehicle()
    facts = feed_all(deriver(), [v.state(0, charge=50.0), v.connection(0, "OFFLINE")])
    assert [sample.closes for sample in only(facts, BatterySample)] == [False]


def test_no_hold_crosses_a_whole_minute() -> None:
    """Reports at -1 s (70.5 %), 59 s (70 %) and 121 s (69.9 %, 62 s later, not offline
    yet): the minutes at 0, 60 and 120 s are sampled at the charge that holds then, each
    carrying the hold up to it; the hold from 120 s on is the next sample's. Whole minutes
    are UTC's, and every zone's midnight and shift bound is one."""
    v = Vehicle()
    target = deriver()
    facts = feed_all(
        target,
        [v.state(-1, charge=70.5), v.state(59, charge=70.0), v.state(121, charge=69.9)],
    )
    held = [
        ((sample.at - at(0)).total_seconds(), sample.charge, sample.held_s, sample.held_charge_s)
        for sample in only(facts, BatterySample)
    ]
    assert held == [
        (-1.0, 70.5, 0.0, 0.0),
        (0.0, 70.5, 1.0, 70.5),
        (60.0, 70.0, 60.0, pytest.approx(70.5 * 59 + 70.0 * 1)),
        (120.0, 70.0, 60.0, pytest.approx(70.0 * 60)),
    ]
    live = target.live()
    assert (live.held_until, live.held_s, live.held_discharged) == (
        at(121),
        1.0,
        pytest.approx(0.1),
    )


def test_a_report_on_a_whole_minute_is_its_sample_and_carries_its_own_fall() -> None:
    """The report at 60 s ends the hold of 50 % since 30 s and shows a fall of 0.5 points:
    the battery discharged while 50 % held, so the fall is carried with that hold (it counts
    in the minute before, ``facts.battery_hours``)."""
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [v.state(30, charge=50.0), v.state(60, charge=49.5), v.state(90, charge=49.4)],
    )
    held = [
        ((sample.at - at(0)).total_seconds(), sample.held_s, sample.discharged)
        for sample in only(facts, BatterySample)
    ]
    assert held == [(30.0, 0.0, 0.0), (60.0, 30.0, 0.5)]
