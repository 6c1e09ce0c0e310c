"""Error episodes: identity, start and end, description as at the start, offline."""

import json
from collections.abc import Sequence

from derive_builders import Vehicle, at, deriver, error, feed_all, only

from fleetscope.facts.model import ErrorEpisode
from fleetscope.vda5050.model import ErrorLevel, ErrorReference, VehicleError

ORDER = "TRANSPORT_A-000001"


def episodes(facts: Sequence[object]) -> list[ErrorEpisode]:
    return only(facts, ErrorEpisode)


def test_episode_from_appearance_to_disappearance_with_position_and_order() -> None:
    v = Vehicle()
    blocked = error("pathBlocked", "WARNING", "obstacle ahead", {"nodeId": "n7", "edgeId": "e6"})
    facts = feed_all(
        deriver(),
        [
            v.state(0),
            v.state(
                5, order_id=ORDER, nodes=[("n", 2)], errors=[blocked], position=(3.0, 4.0, "hall")
            ),
            v.state(
                9, order_id=ORDER, nodes=[("n", 2)], errors=[blocked], position=(9.0, 9.0, "h")
            ),
            v.state(12, order_id=ORDER, nodes=[("n", 2)]),
        ],
    )
    [episode] = episodes(facts)
    assert (episode.error_type, episode.level, episode.description) == (
        "pathBlocked",
        "WARNING",
        "obstacle ahead",
    )
    assert (episode.start, episode.end) == (at(5), at(12))
    assert (episode.x, episode.y, episode.map_id, episode.order_id) == (3.0, 4.0, "hall", ORDER)
    assert json.loads(episode.references) == {"edgeId": "e6", "nodeId": "n7"}
    assert episode.references == '{"edgeId":"e6","nodeId":"n7"}'  # keys sorted


def test_an_episode_keeps_the_last_initialized_position() -> None:
    v = Vehicle()
    lost = [error("localizationLost", "WARNING")]
    target = deriver()
    facts = feed_all(
        target,
        [
            v.state(0, position=(1.0, 1.0, "hall")),
            v.state(1, errors=lost, position=(99.0, 99.0, "hall"), initialized=False),
        ],
    )
    assert (target.live().x, target.live().y) == (1.0, 1.0)
    facts += feed_all(target, [v.state(2)])
    [episode] = episodes(facts)
    assert (episode.x, episode.y) == (1.0, 1.0)


def test_changed_description_keeps_the_episode_and_its_first_description() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, errors=[error("batteryLow", "WARNING", "charge 19 %")]),
            v.state(60, errors=[error("batteryLow", "WARNING", "charge 18 %")]),
            v.state(90),
        ],
    )
    [episode] = episodes(facts)
    assert (episode.description, episode.start, episode.end) == ("charge 19 %", at(0), at(90))


def test_level_and_references_are_part_of_the_identity() -> None:
    v = Vehicle()
    facts = feed_all(
        deriver(),
        [
            v.state(0, errors=[error("e", "WARNING", references={"k": "1"})]),
            v.state(1, errors=[error("e", "FATAL", references={"k": "1"})]),
            v.state(2, errors=[error("e", "FATAL", references={"k": "2"})]),
            v.state(3, errors=[error("e", "FATAL", references={"k": "2"})]),
            v.state(4),
        ],
    )
    assert [(e.level, e.references, e.start, e.end) for e in episodes(facts)] == [
        ("WARNING", '{"k":"1"}', at(0), at(1)),
        ("FATAL", '{"k":"1"}', at(1), at(2)),
        ("FATAL", '{"k":"2"}', at(2), at(4)),
    ]


def test_reference_order_does_not_matter() -> None:
    v = Vehicle()
    first = error("e", references={"a": "1", "b": "2"})
    reordered = error("e", references={"b": "2", "a": "1"})
    facts = feed_all(deriver(), [v.state(0, errors=[first]), v.state(1, errors=[reordered])])
    assert episodes(facts) == []


def test_several_errors_at_once() -> None:
    v = Vehicle()
    a, b = error("a"), error("b", "FATAL")
    facts = feed_all(
        deriver(),
        [v.state(0, errors=[a, b]), v.state(1, errors=[b]), v.state(2, errors=[b, a]), v.state(3)],
    )
    assert sorted((e.error_type, e.start, e.end) for e in episodes(facts)) == [
        ("a", at(0), at(1)),
        ("a", at(2), at(3)),
        ("b", at(0), at(3)),
    ]


def test_open_episodes_stay_open_while_offline() -> None:
    v = Vehicle()
    target = deriver()
    fatal = error("driveFault", "FATAL")
    facts = feed_all(
        target,
        [
            v.state(0, errors=[fatal]),
            v.connection(10, "CONNECTIONBROKEN"),
            v.state(400, errors=[fatal]),
            v.state(500),
        ],
    )
    [episode] = episodes(facts)
    assert (episode.start, episode.end) == (at(0), at(500))


def test_open_episodes_in_open_facts() -> None:
    v = Vehicle()
    target = deriver()
    target.feed(v.state(0, errors=[error("e")]))
    [episode] = episodes(target.open_facts(at=at(30)))
    assert (episode.start, episode.end) == (at(0), at(30))


def test_a_repeated_reference_key_keeps_all_its_values() -> None:
    # Two episodes told apart by their references ([loadId L1, loadId L2] and [loadId L2])
    # are stored apart too.
    v = Vehicle()
    both = VehicleError(
        "loadFault",
        ErrorLevel.WARNING,
        "",
        (ErrorReference("loadId", "L2"), ErrorReference("loadId", "L1")),
    )
    one = VehicleError("loadFault", ErrorLevel.WARNING, "", (ErrorReference("loadId", "L2"),))
    facts = feed_all(deriver(), [v.state(0, errors=[both]), v.state(1, errors=[one]), v.state(2)])
    assert [(e.references, e.start, e.end) for e in episodes(facts)] == [
        ('{"loadId":["L1","L2"]}', at(0), at(1)),
        ('{"loadId":"L2"}', at(1), at(2)),
    ]
