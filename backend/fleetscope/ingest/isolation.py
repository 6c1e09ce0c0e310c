"""Finding what a failed write cannot store, so that it alone becomes a dead letter.

Decoding refuses every value known to be out of the fact store's reach (vda5050/limits.py),
so a batch whose write still fails holds a message nobody foresaw, or the store itself
fails (disk full, closed, out of memory). ``store_isolating`` tells the two apart:

- an infrastructure error (``is_infrastructural``) is raised at once: a retry can fix it,
  and nothing of the batch is stored or acknowledged;
- otherwise the group is split in two and each part is derived again from the last
  committed deriver snapshots and written in a transaction of its own; a part that fails
  is split again. A group of several vehicles is split between vehicles (each part holds
  all messages of its vehicles, in order: derivation is per vehicle), so a misbehaving
  vehicle is found in about 2 log2(vehicles) writes however many bad messages it sent; a
  single vehicle's messages are split into halves in order, so they still arrive in order.
  A single message that fails on its own is refused: the caller makes it a dead letter
  naming the store's error (if even that write fails, the store fails: it raises).

Measured (one 10,000-message batch of 50 vehicles, refused by the store for messages of one
vehicle; ``benchmarks/bench_isolation.py``): see docs/ingestion.md "Dead letters". It runs
only for a failure no validation foresaw, never for the usual dead letters.
"""

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

import duckdb
import sqlalchemy.exc

Item = TypeVar("Item")

# Failures of the store or the machine rather than of a message: the whole batch fails.
_INFRASTRUCTURE = (
    duckdb.OperationalError,  # I/O (disk full), connection closed, out of memory, conflicts
    duckdb.FatalException,  # the database is invalidated until restart
    duckdb.InterruptException,
    duckdb.PermissionException,
    duckdb.InternalException,
    MemoryError,
    OSError,
    # The app store (vehicles, their details) locked or away: a retry can fix it too.
    sqlalchemy.exc.OperationalError,
)


def is_infrastructural(error: BaseException) -> bool:
    return isinstance(error, _INFRASTRUCTURE)


def store_isolating(
    group: Sequence[Item],
    *,
    error: Exception,
    attempt: Callable[[Sequence[Item]], None],
    vehicle_of: Callable[[Item], Hashable],
) -> list[tuple[Item, Exception]]:
    """``group`` failed as a whole with ``error`` (not infrastructural). Stores every part
    that can be stored; returns the items that fail on their own, with their errors.

    ``attempt(part)`` derives and writes a part in one transaction, or raises with nothing
    stored; ``vehicle_of(item)`` names the deriver an item feeds.
    """
    if len(group) == 1:
        return [(group[0], error)]
    refused: list[tuple[Item, Exception]] = []
    for part in _split(group, vehicle_of=vehicle_of):
        try:
            attempt(part)
        except Exception as part_error:
            if is_infrastructural(part_error):
                raise
            refused += store_isolating(
                part, error=part_error, attempt=attempt, vehicle_of=vehicle_of
            )
    return refused


def _split(group: Sequence[Item], *, vehicle_of: Callable[[Item], Hashable]) -> list[list[Item]]:
    """Two parts: by vehicle while the group holds several, else by position."""
    vehicles = list(dict.fromkeys(vehicle_of(item) for item in group))
    if len(vehicles) > 1:
        first = set(vehicles[: len(vehicles) // 2])
        return [
            [item for item in group if vehicle_of(item) in first],
            [item for item in group if vehicle_of(item) not in first],
        ]
    middle = len(group) // 2
    return [list(group[:middle]), list(group[middle:])]
