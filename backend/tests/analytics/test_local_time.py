"""Site-local weekday and hour in NumPy equal Python's zoneinfo at every hour of a year."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from fleetscope.analytics.core.local_time import HOUR_US, local_weekday_hour


@pytest.mark.parametrize(
    "zone",
    [
        "Europe/Berlin",
        "Asia/Kolkata",  # +05:30, no daylight saving
        "America/St_Johns",  # -03:30 with daylight saving
        "Australia/Lord_Howe",  # daylight saving of half an hour
        "UTC",
    ],
)
def test_every_hour_of_two_years_matches_zoneinfo(zone: str) -> None:
    tz = ZoneInfo(zone)
    first = int(datetime(2025, 6, 3, 17, tzinfo=UTC).timestamp()) * 1_000_000
    hours = first + HOUR_US * np.arange(2 * 366 * 24, dtype=np.int64)
    shuffled = np.random.default_rng(5).permutation(hours)  # any order
    weekdays, clock_hours = local_weekday_hour(tz, shuffled)
    for at, weekday, hour in zip(
        shuffled.tolist(), weekdays.tolist(), clock_hours.tolist(), strict=True
    ):
        local = datetime.fromtimestamp(at / 1_000_000, UTC).astimezone(tz)
        assert (weekday, hour) == (local.weekday(), local.hour), local


def test_no_instants() -> None:
    weekdays, hours = local_weekday_hour(ZoneInfo("Europe/Berlin"), np.zeros(0, np.int64))
    assert len(weekdays) == len(hours) == 0
