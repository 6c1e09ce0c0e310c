"""ISO 8601 text of epoch microseconds in numpy, against Python's own formatting."""

import random
from datetime import UTC, datetime

import numpy as np

from fleetscope.analytics.instants import iso_instants
from fleetscope.facts.rawlog import from_micros, to_micros


def _reference(epoch_us: int) -> str:
    moment = from_micros(epoch_us)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}Z"


def test_instants_match_pythons_formatting_to_the_truncated_millisecond() -> None:
    rng = random.Random(3)
    edges = [
        datetime(1970, 1, 1, tzinfo=UTC),
        datetime(2024, 2, 29, 23, 59, 59, 999_999, tzinfo=UTC),  # leap day, last microsecond
        datetime(2025, 12, 31, 23, 59, 59, 999_500, tzinfo=UTC),
        datetime(2026, 3, 29, 1, 0, tzinfo=UTC),
    ]
    instants = [to_micros(moment) for moment in edges]
    instants += [rng.randrange(0, to_micros(datetime(2100, 1, 1, tzinfo=UTC))) for _ in range(5000)]
    expected = [_reference(us) for us in instants]
    assert iso_instants(np.array(instants, dtype=np.int64)) == expected
    # Microseconds as floats (the battery units' instants): exact below 2^53.
    assert iso_instants(np.array(instants, dtype=np.float64)) == expected
    assert iso_instants(np.array([], dtype=np.int64)) == []
