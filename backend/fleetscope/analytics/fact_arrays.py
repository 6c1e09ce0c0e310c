"""Which of many instants lie in which of a few sorted windows, by binary search."""

from typing import Any

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Arrays = dict[str, npt.NDArray[Any]]


def in_windows(positions: Ints, *, starts: Ints, ends: Ints) -> tuple[npt.NDArray[np.bool_], Ints]:
    """Which positions lie in one of the disjoint windows ``[starts, ends)`` (sorted by
    start), and the index of that window (meaningless where outside)."""
    window = np.searchsorted(starts, positions, side="right") - 1
    inside = window >= 0
    inside[inside] = positions[inside] < ends[window[inside]]
    return inside, window
