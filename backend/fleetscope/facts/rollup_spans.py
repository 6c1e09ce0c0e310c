"""Long offline intervals beside the rollups: one row each instead of a row per hour.

A vehicle whose first message is years old, a clock that jumped ahead, or a vehicle out of
service for months closes an offline interval of that length. Split at every UTC hour and
local midnight like any other interval, it would cost a rollup row per hour of the silence
in the vehicle's and the site's tables (2001 to 2026: 454,000 rows, 27 MB, 23 s of the
single ingest thread, during which no vehicle's status moved). An offline interval longer
than ``LONG_OFFLINE`` therefore adds nothing to the rollup rows; it is kept here whole,
and the readers of the rollups (``analytics.collect``) add its overlap with each window
they read from rollup rows to that window's offline time, as they add a vehicle's still
open state from ``live_status``. Per window that is exact to the microsecond, whatever the
alignment of the interval to hours or days; windows read from the raw facts (partial
hours) take the interval from ``state_intervals`` as always.

Hours fully inside such an interval hold no other fact of the vehicle (no message arrived,
and the derivation never goes back in time), so the rollup rows lose nothing else. Shorter
offline intervals (nights, weekends) are rolled up as before: at most
``LONG_OFFLINE`` of hours, a bounded cost.
"""

from datetime import datetime, timedelta

import duckdb

from fleetscope.facts.model import StateInterval, VehicleState

TABLE = "rollup_offline_spans"
LONG_OFFLINE = timedelta(days=2)
LONG_OFFLINE_US = LONG_OFFLINE // timedelta(microseconds=1)

CREATE_TABLE = f"""CREATE TABLE {TABLE} (
    vehicle_id INTEGER NOT NULL,
    start_at TIMESTAMPTZ NOT NULL,
    end_at TIMESTAMPTZ NOT NULL
)"""

# The same test in SQL over ``state_intervals`` columns (integer microseconds: exact).
SPANNED_SQL = f"(state = 'offline' AND epoch_us(end_at) - epoch_us(start_at) > {LONG_OFFLINE_US})"

Span = tuple[int, datetime, datetime]  # vehicle, start, end


def is_spanned(interval: StateInterval) -> bool:
    """Whether ``interval`` is kept here instead of in the rollup rows."""
    return interval.state is VehicleState.OFFLINE and interval.end - interval.start > LONG_OFFLINE


def append(connection: duckdb.DuckDBPyConnection, spans: list[Span]) -> None:
    """Store a batch's spans (in the caller's transaction)."""
    with connection.appender(TABLE) as appender:
        appender.append_rows(spans)
