"""SQL for durations between TIMESTAMPTZ columns (constant column expressions only), and
instants fetched as integer microseconds.

``epoch()`` of a TIMESTAMPTZ costs DuckDB 2.0 several times what ``epoch_us()`` does (a
query over a year of actions ran twice as fast with the latter), and integer microseconds
subtract exactly before the one division. Fetching a TIMESTAMPTZ into Python costs about
10 µs per value (a time zone lookup each); fetched as ``epoch_us`` and turned into an aware
UTC datetime here it costs a tenth of that.
"""

from datetime import datetime

from fleetscope.facts.rawlog import from_micros


def seconds_between(later: str, earlier: str) -> str:
    """Seconds from ``earlier`` to ``later`` as a DOUBLE expression."""
    return f"((epoch_us({later}) - epoch_us({earlier})) / 1000000.0)"


def utc_from_us(micros: int | None) -> datetime | None:
    """The UTC instant of an ``epoch_us(...)`` value fetched from DuckDB (``None`` stays)."""
    return None if micros is None else from_micros(micros)
