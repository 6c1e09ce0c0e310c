"""The order in which a batch's messages are derived: per vehicle, states by timestamp.

product.md section 2 derives each vehicle's messages in timestamp order. Messages of one
batch (an HTTP batch, a file import's chunk, what MQTT delivered together) may arrive out of
order: each vehicle's state messages are put in timestamp order among the places they take
in the batch (a stable sort, so equal timestamps keep their arrival order). Connection
messages keep their places: the MQTT last will carries the time of the connect, older than
the states sent since, and applies where it arrived (``machine``). A state older than one a
previous batch derived is still ignored and counted (``DeriverStats.out_of_order``).
"""

from collections.abc import Callable, Sequence
from typing import TypeVar

from fleetscope.vda5050.model import Message, StateMessage

Item = TypeVar("Item")


def in_derivation_order(
    batch: Sequence[Item], *, vehicle_and_message: Callable[[Item], tuple[int, Message]]
) -> list[Item]:
    """``batch`` with each vehicle's state messages in timestamp order, everything else in
    its place."""
    places: dict[int, list[int]] = {}
    times = []
    for index, item in enumerate(batch):
        vehicle, message = vehicle_and_message(item)
        times.append(message.header.timestamp)
        if type(message) is StateMessage:
            places.setdefault(vehicle, []).append(index)
    ordered = list(batch)
    for indices in places.values():
        by_time = sorted(indices, key=times.__getitem__)  # linear when already in order
        if by_time != indices:
            for place, index in zip(indices, by_time, strict=True):
                ordered[place] = batch[index]
    return ordered
