"""Long offline intervals beside the rollups (``rollup_spans``): kept whole instead of a
row per hour, and read back exactly: every window read from rollup rows (local days in a
zone half an hour off UTC, UTC hours) gives the state times that the raw
facts give."""

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from fleetscope.analytics.core.collect import CollectRequest, Tagged, collect
from fleetscope.analytics.core.measure_table import COLUMN, MeasureTable
from fleetscope.analytics.core.periods import Window, midnight
from fleetscope.facts.model import BatterySample, Fact, LiveStatus, StateInterval, VehicleState
from fleetscope.facts.rollup import MEASURE_NAMES, RollupAccumulator
from fleetscope.facts.rollup_spans import LONG_OFFLINE
from fleetscope.facts.store import FactStore, StoreBatch

KOLKATA = ZoneInfo("Asia/Kolkata")  # UTC+5:30: local midnights are not on a UTC hour
OFFLINE_AFTER = timedelta(seconds=65)
STATE_TIMES = frozenset(f"{state.value}_s" for state in VehicleState)
START = datetime(2026, 3, 2, 6, 17, 11, tzinfo=UTC)
OFFLINE = VehicleState.OFFLINE


def test_an_offline_interval_longer_than_the_limit_is_kept_whole() -> None:
    accumulator = RollupAccumulator(zone_of=lambda _: KOLKATA)
    at_limit = StateInterval(1, OFFLINE, START, START + LONG_OFFLINE)
    longer = StateInterval(2, OFFLINE, START, START + timedelta(days=9000))
    idle = StateInterval(3, VehicleState.IDLE, START, START + timedelta(days=3))
    for interval in (at_limit, longer, idle):
        accumulator.add(interval)
    assert accumulator.spans == [(2, longer.start, longer.end)]
    hours = [vehicle for vehicle, _ in accumulator.hourly]
    # Two days from 06:17: 49 hours touched, 3 days; idle is rolled up whatever its length.
    assert (hours.count(1), hours.count(2), hours.count(3)) == (49, 0, 73)
    offline = MEASURE_NAMES.index("offline_s")
    total = sum(row[offline] for (vehicle, _), row in accumulator.hourly.items() if vehicle == 1)
    assert total == LONG_OFFLINE.total_seconds()


def _facts() -> list[Fact]:
    """Vehicle 1: working and idle hours between offline intervals of 3 days, 2 days (not
    long), 40 days and 1 hour, at odd minutes; a battery sample in each online stretch."""
    facts: list[Fact] = []
    at = START
    for offline in (
        timedelta(days=3),
        LONG_OFFLINE,
        timedelta(days=40, minutes=7),
        timedelta(hours=1),
    ):
        for state in (VehicleState.WORKING, VehicleState.IDLE):
            end = at + timedelta(hours=5, minutes=13)
            facts.append(StateInterval(1, state, at, end))
            facts.append(BatterySample(1, at, 60.0, False, None, None))
            at = end
        facts.append(StateInterval(1, OFFLINE, at, at + offline))
        at += offline
    facts.append(StateInterval(1, VehicleState.IDLE, at, at + timedelta(hours=2)))
    return facts


LAST = START + timedelta(days=46)


@pytest.fixture
def store() -> Iterator[FactStore]:
    with FactStore(":memory:") as fact_store:
        facts = _facts()
        last = max(fact.end for fact in facts if isinstance(fact, StateInterval))
        live = {
            1: LiveStatus(1, VehicleState.IDLE, last, last, "", "", 60.0, False, (), None, None, "")
        }
        # In two batches: the spans of both land.
        half = len(facts) // 2
        fact_store.write_batch(
            StoreBatch(facts=facts[:half], zones={1: (1, str(KOLKATA))}, live=live)
        )
        fact_store.write_batch(
            StoreBatch(facts=facts[half:], zones={1: (1, str(KOLKATA))}, live=live)
        )
        yield fact_store


def _states(table: MeasureTable, buckets: int) -> list[list[float]]:
    rows = table.rows([(1, bucket) for bucket in range(buckets)])
    return [[round(float(row[COLUMN[name]]), 3) for name in sorted(STATE_TIMES)] for row in rows]


def _read(store: FactStore, windows: list[Window], **options: object) -> list[list[float]]:
    request = CollectRequest(
        [1],
        [Tagged(window, bucket) for bucket, window in enumerate(windows)],
        by_vehicle=True,
        only=STATE_TIMES,
        **options,  # type: ignore[arg-type]
    )
    now = datetime(2026, 6, 1, tzinfo=UTC)
    cursor = store.cursor()
    try:
        return _states(collect(cursor, request, now=now, offline_after=OFFLINE_AFTER), len(windows))
    finally:
        cursor.close()


def test_rollup_readings_of_long_offline_intervals_equal_the_raw_facts(store: FactStore) -> None:
    spans = store.cursor().execute("SELECT count(*) FROM rollup_offline_spans").fetchone()
    assert spans == (2,)  # the 3 and the 40 days
    days = [date(2026, 3, 1) + timedelta(days=n) for n in range(48)]
    by_day = [
        Window(midnight(day, KOLKATA), midnight(day + timedelta(days=1), KOLKATA)) for day in days
    ]
    odd = [
        Window(START + timedelta(hours=h, minutes=23), START + timedelta(hours=h + 31, minutes=41))
        for h in range(0, 46 * 24, 37)
    ]
    whole = [Window(START - timedelta(days=1), LAST)]
    for windows in (by_day, odd, whole):
        raw = _read(store, windows, use_rollups=False)
        assert sum(sum(row) for row in raw) > 0
        assert _read(store, windows, daily_zone=KOLKATA) == raw
        assert _read(store, windows) == raw
