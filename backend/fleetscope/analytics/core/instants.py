"""Instants for JSON answers that carry thousands of them: ISO 8601 text in UTC to the
millisecond (map points, formatted by DuckDB), or epoch milliseconds (chart lines). As
datetimes, each would cost a conversion, a validation and a serialisation."""

from typing import Annotated

import numpy as np
import numpy.typing as npt
from pydantic import Field

Instant = Annotated[
    str,
    Field(
        description="UTC, ISO 8601 to the millisecond", json_schema_extra={"format": "date-time"}
    ),
]

# What a chart's time axis takes as it is (ECharts, ``Date``): a number to read, where ISO
# text would be formatted here and parsed again in the browser.
EpochMillis = Annotated[
    int, Field(description="UTC instant in milliseconds since 1970-01-01T00:00:00Z")
]


def epoch_millis(epoch_us: npt.NDArray[np.float64] | npt.NDArray[np.int64]) -> list[int]:
    """Instants as epoch milliseconds, truncated."""
    millis: list[int] = (epoch_us.astype(np.int64) // 1000).tolist()
    return millis
