"""Comparing two API answers that hold the same figures summed in different orders."""

from typing import Any

import pytest


def assert_same_figures(ours: Any, theirs: Any, *, path: str = "") -> None:
    """Equal structure and values; floats equal up to rounding (relative 1e-9): the fleet
    summed at once (a site's rollups) and summed over its vehicles add the same numbers in
    another order."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        assert ours.keys() == theirs.keys(), path
        for key, value in ours.items():
            assert_same_figures(value, theirs[key], path=f"{path}.{key}")
    elif isinstance(ours, list) and isinstance(theirs, list):
        assert len(ours) == len(theirs), path
        for index, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            assert_same_figures(mine, other, path=f"{path}[{index}]")
    elif isinstance(ours, float) or isinstance(theirs, float):
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-9), path
    else:
        assert ours == theirs, path
