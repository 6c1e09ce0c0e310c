"""The order a batch is derived in: each vehicle's states by timestamp, the rest in place."""

from derive_builders import Vehicle

from fleetscope.derive import in_derivation_order
from fleetscope.vda5050.model import Message


def _seconds(batch: list[tuple[int, Message]]) -> list[tuple[int, str, float]]:
    return [
        (vehicle, type(message).__name__, message.header.timestamp.second)
        for vehicle, message in batch
    ]


def test_each_vehicle_s_states_take_their_places_in_timestamp_order() -> None:
    a, b = Vehicle(), Vehicle()
    batch = [
        (1, a.state(3)),
        (2, b.state(9)),
        (1, a.connection(0, "CONNECTIONBROKEN")),  # a last will: the connect's time
        (1, a.state(1)),
        (2, b.state(5)),
        (1, a.state(2)),
    ]
    ordered = in_derivation_order(batch, vehicle_and_message=lambda item: item)
    assert _seconds(ordered) == [
        (1, "StateMessage", 1),
        (2, "StateMessage", 5),
        (1, "ConnectionMessage", 0),  # stays where it arrived
        (1, "StateMessage", 2),
        (2, "StateMessage", 9),
        (1, "StateMessage", 3),
    ]


def test_equal_timestamps_keep_their_arrival_order() -> None:
    a = Vehicle()
    first, second, earlier = a.state(4), a.state(4), a.state(2)
    batch = [(1, first), (1, second), (1, earlier)]
    ordered = in_derivation_order(batch, vehicle_and_message=lambda item: item)
    assert [message for _, message in ordered] == [earlier, first, second]
