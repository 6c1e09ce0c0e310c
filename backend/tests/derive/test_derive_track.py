"""Thinned track and distance, relocalisation jumps and map changes."""

from collections.abc import Sequence
from typing import Any

import pytest
from derive_builders import Vehicle, deriver, feed_all, only

from fleetscope.facts.model import TrackPoint


def points(facts: Sequence[object]) -> list[tuple[float, float, float, str, float]]:
    return [
        (
            point.at.second + point.at.minute * 60,
            point.x,
            point.y,
            point.map_id,
            round(point.distance_m, 6),
        )
        for point in only(facts, TrackPoint)
    ]


def drive(
    v: Vehicle, path: Sequence[tuple[float, float, float]], map_id: str = "hall"
) -> list[Any]:
    return [v.state(t, position=(x, y, map_id), driving=True) for t, x, y in path]


def test_one_point_per_half_metre() -> None:
    path = [(0, 0.0, 0.0), (1, 0.2, 0.0), (2, 0.4, 0.0), (3, 0.6, 0.0), (4, 1.6, 0.0)]
    assert points(feed_all(deriver(), drive(Vehicle(), path))) == [
        (0, 0.0, 0.0, "hall", 0.0),
        (3, 0.6, 0.0, "hall", 0.6),
        (4, 1.6, 0.0, "hall", 1.0),
    ]


def test_one_point_per_five_seconds_when_creeping() -> None:
    path = [(0, 0.0, 0.0), (2, 0.1, 0.0), (4, 0.2, 0.0), (6, 0.3, 0.0), (8, 0.3, 0.0)]
    assert points(feed_all(deriver(), drive(Vehicle(), path))) == [
        (0, 0.0, 0.0, "hall", 0.0),
        (6, 0.3, 0.0, "hall", 0.3),
    ]


def test_pending_distance_is_flushed_when_the_vehicle_stops() -> None:
    path = [(0, 0.0, 0.0), (1, 0.3, 0.0), (2, 0.3, 0.0), (7, 0.3, 0.0)]
    assert points(feed_all(deriver(), drive(Vehicle(), path))) == [
        (0, 0.0, 0.0, "hall", 0.0),
        (7, 0.3, 0.0, "hall", 0.3),
    ]


def test_stationary_vehicle_adds_no_points() -> None:
    path = [(t, 5.0, 5.0) for t in range(0, 60, 10)]
    assert len(points(feed_all(deriver(), drive(Vehicle(), path)))) == 1


def test_jump_faster_than_5_m_per_s_is_a_relocalisation() -> None:
    path = [(0, 0.0, 0.0), (1, 0.3, 0.0), (2, 40.0, 0.0), (3, 41.0, 0.0)]
    assert points(feed_all(deriver(), drive(Vehicle(), path))) == [
        (0, 0.0, 0.0, "hall", 0.0),
        (1, 0.3, 0.0, "hall", 0.3),  # distance before the jump is kept
        (2, 40.0, 0.0, "hall", 0.0),  # the jump adds nothing
        (3, 41.0, 0.0, "hall", 1.0),
    ]


def test_just_below_5_m_per_s_is_driving() -> None:
    path = [(0, 0.0, 0.0), (2, 9.9, 0.0)]
    assert points(feed_all(deriver(), drive(Vehicle(), path)))[-1][-1] == pytest.approx(9.9)


def test_map_change_starts_a_new_segment() -> None:
    v = Vehicle()
    messages = [*drive(v, [(0, 0.0, 0.0), (1, 1.0, 0.0)]), *drive(v, [(2, 1.0, 0.0)], "floor2")]
    assert points(feed_all(deriver(), messages)) == [
        (0, 0.0, 0.0, "hall", 0.0),
        (1, 1.0, 0.0, "hall", 1.0),
        (2, 1.0, 0.0, "floor2", 0.0),
    ]


def test_uninitialized_positions_are_ignored() -> None:
    v = Vehicle()
    messages = [
        v.state(0, position=(0.0, 0.0, "hall")),
        v.state(1, position=(300.0, 0.0, "hall"), initialized=False),
        v.state(2, position=(1.0, 0.0, "hall")),
    ]
    assert points(feed_all(deriver(), messages)) == [
        (0, 0.0, 0.0, "hall", 0.0),
        (2, 1.0, 0.0, "hall", 1.0),
    ]


def test_points_sum_to_the_distance_driven() -> None:
    v = Vehicle()
    path = [(t, 0.37 * t, 0.11 * t) for t in range(0, 120)]
    path.append((125, 0.37 * 119, 0.11 * 119))  # standing still flushes the last metres
    total: float = sum(point[-1] for point in points(feed_all(deriver(), drive(v, path))))
    assert total == pytest.approx(119 * (0.37**2 + 0.11**2) ** 0.5)
