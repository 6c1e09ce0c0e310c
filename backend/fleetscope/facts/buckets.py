"""Logarithmic buckets of durations: the mergeable histograms behind long periods' percentiles.

A bucket ``b`` holds the microseconds ``(g^(b-1), g^b]`` with ``g = (1 + a) / (1 - a)``,
and its midpoint ``2 g^b / (g + 1)`` is within ``a`` of every value in it (DDSketch's
mapping), so a percentile read from bucket counts stays within ``a`` of the exact one
(analytics/core/percentiles.py). 0 and below have a bucket of their own, read as 0.

The mapping is part of the stored layout: actions keep the buckets of their run and wait
(facts/action_rows.py), so a year's percentiles count small integers instead of taking a
logarithm per fact. Changing it needs a migration that computes those columns again.
"""

import math

# Below the promised 0.5 %: a value on a bucket's edge may land on either side by rounding.
RELATIVE_ACCURACY = 0.0049
GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY)
ZERO_BUCKET = -32768  # the bucket of 0 (and of negative durations): SMALLINT's minimum
_LOG_GAMMA = math.log(GAMMA)


def bucket_sql(value: str) -> str:
    """SQL of the bucket (SMALLINT) of the integer microseconds ``value``; NULL stays NULL."""
    return (
        f"CASE WHEN {value} <= 0 THEN {ZERO_BUCKET} "
        f"ELSE ceil(ln({value}) / {_LOG_GAMMA!r})::SMALLINT END"
    )


def midpoint_sql(bucket: str) -> str:
    """SQL of the value (DOUBLE microseconds) a bucket stands for: its midpoint, 0 for 0."""
    midpoint = f"2 * pow({GAMMA!r}, {bucket}) / {GAMMA + 1!r}"
    return f"CASE WHEN {bucket} = {ZERO_BUCKET} THEN 0.0 ELSE {midpoint} END"
