"""Reading measures: rollup hours + raw partial pieces + the open state equal the raw facts."""

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from fleetscope.analytics.core.collect import CollectRequest, Tagged, collect, open_intervals
from fleetscope.analytics.core.periods import DaySpan, Shift, Window, period_windows
from fleetscope.facts.model import (
    ActionRecord,
    ErrorEpisode,
    Fact,
    LiveStatus,
    OrderOutcome,
    OrderRun,
    StateInterval,
    TrackPoint,
    VehicleState,
)
from fleetscope.facts.store import FactStore, StoreBatch

from .named_measures import Measures, compute_kpis, named

BERLIN = ZoneInfo("Europe/Berlin")
KOLKATA = ZoneInfo("Asia/Kolkata")
T0 = datetime(2026, 6, 1, 22, 0, tzinfo=UTC)  # Tuesday 00:00 in Berlin
OFFLINE_AFTER = timedelta(seconds=65)
STATE_COUNT = 2 * 24 * 60 // 7
LAST_STATE_END = T0 + timedelta(minutes=7 * STATE_COUNT)
STATE_CYCLE = (VehicleState.WORKING, VehicleState.IDLE, VehicleState.CHARGING, VehicleState.ERROR)


def _facts(vehicle_id: int) -> list[Fact]:
    """Two days of 7-minute states, an order every 20 minutes, errors and track points."""
    facts: list[Fact] = []
    cursor = T0
    for index in range(STATE_COUNT):
        end = cursor + timedelta(minutes=7)
        facts.append(StateInterval(vehicle_id, STATE_CYCLE[index % 4], cursor, end))
        cursor = end
    for index in range(2 * 24 * 3):
        start = T0 + timedelta(minutes=20 * index + 3)
        end = start + timedelta(seconds=300 + 7 * index)
        outcome = OrderOutcome.FAILED if index % 5 == 0 else OrderOutcome.FINISHED
        facts.append(
            OrderRun(vehicle_id, f"T-{index}", "T", start, end, outcome, 40.0, 3, 3, 0, 0, 0)
        )
        facts.append(
            ActionRecord(
                vehicle_id, f"a{index}", "pick", f"T-{index}", start, start, end, "FINISHED"
            )
        )
        facts.append(TrackPoint(vehicle_id, end, 1.0, 2.0, "m", 40.0))
        if index % 7 == 0:
            facts.append(
                ErrorEpisode(
                    vehicle_id,
                    "e",
                    "FATAL",
                    "",
                    "{}",
                    start,
                    start + timedelta(seconds=90),
                    None,
                    None,
                    "m",
                    "",
                )
            )
    return facts


@pytest.fixture(scope="module")
def store() -> Iterator[FactStore]:
    with FactStore(":memory:") as fact_store:
        last = LAST_STATE_END
        live = {
            vehicle: LiveStatus(
                vehicle, VehicleState.IDLE, last, last, "", "", 50.0, False, (), None, None, ""
            )
            for vehicle in (1, 2)
        }
        fact_store.write_batch(
            StoreBatch(
                facts=_facts(1) + _facts(2),
                zones={1: (1, "Europe/Berlin"), 2: (2, "Asia/Kolkata")},
                live=live,
            )
        )
        yield fact_store


def _measures(
    store: FactStore,
    vehicle_id: int,
    zone: ZoneInfo,
    shift: Shift | None,
    now: datetime,
    *,
    rollups: bool,
    daily_zone: ZoneInfo | None = None,
    only: frozenset[str] | None = None,
) -> tuple[Measures, list[Window]]:
    span = DaySpan(date(2026, 6, 2), date(2026, 6, 3))
    windows = period_windows(span=span, zone=zone, shift=shift, now=now)
    request = CollectRequest(
        [vehicle_id],
        [Tagged(w, 0) for w in windows],
        by_vehicle=True,
        use_rollups=rollups,
        daily_zone=daily_zone,
        only=only,
    )
    cursor = store.cursor()
    try:
        table = collect(cursor, request, now=now, offline_after=OFFLINE_AFTER)
        return named(table, (vehicle_id, 0)), windows
    finally:
        cursor.close()


SHIFTS = [
    None,
    Shift("night", time(22), time(6), frozenset(range(7))),
    Shift("odd", time(6, 45), time(13, 10), frozenset(range(7))),
]


# Mid-period and mid-hour: facts lie after now, so the hour up to now is read raw. Just after
# the last message: the current hour's rollup row holds exactly the facts so far.
NOWS = [T0 + timedelta(days=1, hours=15, minutes=23), LAST_STATE_END + timedelta(minutes=1)]


@pytest.mark.parametrize("now", NOWS, ids=["mid-period", "after-last-message"])
@pytest.mark.parametrize("shift", SHIFTS, ids=["all", "night", "odd"])
@pytest.mark.parametrize(
    ("vehicle_id", "zone"), [(1, BERLIN), (2, KOLKATA)], ids=["berlin", "kolkata"]
)
def test_rollups_with_raw_edges_equal_the_raw_facts(
    store: FactStore, vehicle_id: int, zone: ZoneInfo, shift: Shift | None, now: datetime
) -> None:
    assert now.minute != 0
    # Without a shift, whole local days come from rollup_daily, the rest from the hours.
    daily_zone = zone if shift is None else None
    fast, windows = _measures(
        store, vehicle_id, zone, shift, now, rollups=True, daily_zone=daily_zone
    )
    slow, _ = _measures(store, vehicle_id, zone, shift, now, rollups=False)
    assert fast is not None and slow is not None
    for state, seconds in slow.states.items():
        assert fast.states[state] == pytest.approx(seconds, abs=1e-6)
    assert (fast.orders_finished, fast.orders_failed, fast.loads_handled, fast.stop_errors) == (
        slow.orders_finished,
        slow.orders_failed,
        slow.loads_handled,
        slow.stop_errors,
    )
    assert fast.distance_m == pytest.approx(slow.distance_m)
    assert fast.orders_finished > 0
    # Every moment of T after the first fact has a state (Kolkata's day starts 3.5 h earlier).
    with_data = sum(max(0.0, (w.end - max(w.start, T0)).total_seconds()) for w in windows)
    assert fast.covered_s == pytest.approx(with_data)


def test_days_cut_in_another_zone_are_read_from_the_hours(store: FactStore) -> None:
    """Vehicle 2's daily rollups were cut at Kolkata's midnights: a Berlin period must not
    use them (they would cover the wrong hours)."""
    now = T0 + timedelta(days=2)
    fast, _ = _measures(store, 2, BERLIN, None, now, rollups=True, daily_zone=BERLIN)
    slow, _ = _measures(store, 2, BERLIN, None, now, rollups=False)
    assert fast is not None and slow is not None
    assert fast.states == pytest.approx(slow.states)
    assert fast.orders_finished == slow.orders_finished > 0


@pytest.mark.parametrize("now", [NOWS[0], T0 + timedelta(days=2)], ids=["mid-hour", "later"])
@pytest.mark.parametrize("shift", SHIFTS, ids=["all", "night", "odd"])
def test_a_read_of_some_measures_reads_those_alike_and_leaves_the_rest(
    store: FactStore, shift: Shift | None, now: datetime
) -> None:
    """Days, hours and the raw pieces (the odd shift's edges, the hour up to a now in the
    middle of it) read only the measures asked for (the states here), exactly as a full
    read; the others come back as nothing."""
    states = frozenset(f"{state.value}_s" for state in VehicleState)
    daily_zone = BERLIN if shift is None else None
    full, _ = _measures(store, 1, BERLIN, shift, now, rollups=True, daily_zone=daily_zone)
    some, _ = _measures(
        store, 1, BERLIN, shift, now, rollups=True, daily_zone=daily_zone, only=states
    )
    assert full is not None and some is not None
    assert some.states == full.states
    assert full.orders_finished > 0 and some.orders_finished == 0
    assert full.distance_m > 0 and some.distance_m == 0


def test_the_open_state_runs_up_to_now_then_offline_after_silence(store: FactStore) -> None:
    now = LAST_STATE_END + timedelta(minutes=10)  # ten minutes after the last message
    span = DaySpan(date(2026, 6, 2), date(2026, 6, 4))
    windows = period_windows(span=span, zone=BERLIN, shift=None, now=now)
    request = CollectRequest([1], [Tagged(w, 0) for w in windows], by_vehicle=True)
    cursor = store.cursor()
    measures = named(collect(cursor, request, now=now, offline_after=OFFLINE_AFTER), (1, 0))
    cursor.close()
    data_s = (LAST_STATE_END - T0).total_seconds()
    assert measures.covered_s == pytest.approx(data_s + 600)
    kpis = compute_kpis(measures, period_s=sum(w.seconds for w in windows))
    assert kpis.no_data_seconds == 0
    assert measures.states["offline"] == pytest.approx(600 - 65)
    assert kpis.planned_seconds == pytest.approx(data_s + 65)


def test_open_intervals() -> None:
    since = T0
    assert open_intervals(
        state="working",
        since=since,
        last_message_at=since + timedelta(seconds=30),
        now=since + timedelta(seconds=60),
        offline_after=OFFLINE_AFTER,
    ) == [("working", since, since + timedelta(seconds=60))]
    assert open_intervals(
        state="working",
        since=since,
        last_message_at=since,
        now=since + timedelta(seconds=100),
        offline_after=OFFLINE_AFTER,
    ) == [
        ("working", since, since + timedelta(seconds=65)),
        ("offline", since + timedelta(seconds=65), since + timedelta(seconds=100)),
    ]
    assert (
        open_intervals(
            state="offline",
            since=since,
            last_message_at=None,
            now=since,
            offline_after=OFFLINE_AFTER,
        )
        == []
    )
