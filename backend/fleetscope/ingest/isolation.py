"""Finding what a failed write cannot store, so that it alone becomes a dead letter.

Decoding refuses every value known to be out of the fact store's reach (vda5050/limits.py),
so a batch whose write still fails holds a message nobody foresaw, or the store itself
fails (disk full, closed, out of memory). ``store_isolating`` tells the two apart:

- an infrastructure error (``is_infrastructural``) is raised at once: a retry can fix it,
  and nothing of the batch is stored or acknowledged;
- otherwise the group is split in halves, each derived again from the last committed
  deriver snapshots and written in a transaction of its own, and a half that fails is
  split again. The halves are written in order, so every vehicle's messages still arrive
  in order. A single message that fails on its own is refused (a dead letter naming the
  store's error); if even that write fails, the store fails and the error is raised.

With ``k`` such messages in a batch of ``n`` this costs about ``2 k log2(n / k)`` writes;
it runs only for a failure no validation foresaw, never for the usual dead letters.
"""

from collections.abc import Callable, Sequence
from typing import TypeVar

import duckdb

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
)


def is_infrastructural(error: BaseException) -> bool:
    return isinstance(error, _INFRASTRUCTURE)


def store_isolating(
    group: Sequence[Item],
    *,
    error: Exception,
    attempt: Callable[[Sequence[Item]], None],
    refuse: Callable[[Item, Exception], None],
) -> None:
    """``group`` failed as a whole with ``error`` (not infrastructural). Stores every part
    that can be stored and refuses the rest one by one.

    ``attempt(part)`` derives and writes a part in one transaction, or raises with nothing
    stored; ``refuse(item, error)`` stores ``item`` as a dead letter, raising if it cannot.
    """
    if len(group) == 1:
        refuse(group[0], error)
        return
    middle = len(group) // 2
    for part in (group[:middle], group[middle:]):
        try:
            attempt(part)
        except Exception as part_error:
            if is_infrastructural(part_error):
                raise
            store_isolating(part, error=part_error, attempt=attempt, refuse=refuse)
