"""Hand-made facts: how T selects rows on each path, paging order, time below 20 %, the
health line."""

import math
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import duckdb
import pytest

from fleetscope.analytics.battery.battery import battery
from fleetscope.analytics.core.facts import rows_in_periods, select_periods
from fleetscope.analytics.core.paging import PageRequest, page_ordering
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan, Shift, period_windows
from fleetscope.analytics.failures.failures import _pareto
from fleetscope.analytics.processes.orders import OrderSummary, figures
from fleetscope.facts.rawlog import to_micros

UTC_ZONE = ZoneInfo("UTC")
DAY = date(2026, 3, 10)
NOW = datetime(2026, 3, 20, tzinfo=UTC)


def _scope(shift: Shift | None, *, days: int = 6) -> AnalyticsScope:
    return AnalyticsScope(
        span=DaySpan(DAY, DAY + timedelta(days=days - 1)),
        combined=False,
        shift_id=shift.id if shift else "all",
        vehicles=[VehicleRef(1, "V1", 1), VehicleRef(2, "V2", 1)],
        sites=[SiteGroup(1, UTC_ZONE, shift, excluded=False, vehicle_ids=[1, 2])],
    )


def _orders_every_ten_minutes(cursor: duckdb.DuckDBPyConnection) -> list[datetime]:
    start = datetime.combine(DAY - timedelta(days=7), time(), UTC)
    ends = [start + timedelta(minutes=10 * i + 3) for i in range(14 * 24 * 6)]
    # One set-based insert: row-wise inserts manage about 500 rows/s in DuckDB.
    cursor.execute(
        "INSERT INTO orders SELECT 1 + i % 3, 'W-' || i, 'W', done - INTERVAL 90 SECOND, done, "
        "'finished', 0, 1, 1, 0, 0, 0 FROM (SELECT range AS i, "
        "?::TIMESTAMPTZ + to_minutes(10 * range + 3) AS done FROM range(?))",
        [start, len(ends)],
    )
    return ends


EARLY = Shift("early", time(6), time(14), frozenset(range(7)))
NIGHT = Shift("night", time(22), time(6), frozenset(range(7)))


@pytest.mark.parametrize(
    ("shift", "now"),
    [
        (None, NOW),  # one window per period, one stretch: told apart at the boundary
        (EARLY, NOW),  # whole hours: hourly join
        (Shift("odd", time(5, 30), time(6, 45), frozenset({0, 2, 4})), NOW),  # off the hour
        (NIGHT, NOW),  # across midnight
        # Now inside the last window: whole hours joined, the running hour's piece a CASE.
        (EARLY, datetime(2026, 3, 15, 9, 20, tzinfo=UTC)),
        (NIGHT, datetime(2026, 3, 15, 23, 20, tzinfo=UTC)),
    ],
)
def test_rows_are_tagged_with_the_window_they_lie_in(
    cursor: duckdb.DuckDBPyConnection, shift: Shift | None, now: datetime
) -> None:
    ends = _orders_every_ten_minutes(cursor)
    scope = _scope(shift)
    sql, parameters = rows_in_periods(
        select_periods(scope, now=now),
        table="orders",
        at="end_at",
        columns="f.vehicle_id, f.end_at",
    )
    found = sorted(cursor.execute(f"SELECT end_at, bucket FROM ({sql})", parameters).fetchall())  # noqa: S608 - test constants
    expected = []
    # Like for like: the previous period (the 6 days before) is clipped 6 days before now.
    previous_now = now - timedelta(days=scope.span.days)
    for bucket, (span, clip) in enumerate(
        [(scope.span, now), (scope.span.previous(), previous_now)]
    ):
        windows = period_windows(span=span, zone=UTC_ZONE, shift=shift, now=clip)
        for index, end in enumerate(ends):
            # Vehicle 3 is not selected.
            if 1 + index % 3 != 3 and any(w.start <= end < w.end for w in windows):
                expected.append((end, bucket))
    assert found == sorted(expected) and found


def test_two_sites_have_the_rows_of_each_in_its_own_time(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    ends = _orders_every_ten_minutes(cursor)
    tokyo = ZoneInfo("Asia/Tokyo")
    scope = AnalyticsScope(
        span=DaySpan(DAY, DAY + timedelta(days=2)),
        combined=False,
        shift_id="night",
        vehicles=[VehicleRef(1, "V1", 1), VehicleRef(2, "V2", 2)],
        sites=[
            SiteGroup(1, UTC_ZONE, NIGHT, excluded=False, vehicle_ids=[1]),
            SiteGroup(2, tokyo, NIGHT, excluded=False, vehicle_ids=[2]),
        ],
    )
    selection = select_periods(scope, now=NOW)
    sql, parameters = rows_in_periods(
        selection, table="orders", at="end_at", columns="f.vehicle_id, epoch_us(f.end_at) AS end_us"
    )
    query = f"SELECT vehicle_id, end_us, bucket FROM ({sql})"  # noqa: S608 - test constants
    found = cursor.execute(query, parameters).fetchall()
    expected = []
    for vehicle, zone in ((1, UTC_ZONE), (2, tokyo)):
        for bucket, span in enumerate([scope.span, scope.span.previous()]):
            windows = period_windows(span=span, zone=zone, shift=NIGHT, now=NOW)
            expected += [
                (vehicle, to_micros(end), bucket)
                for index, end in enumerate(ends)
                if 1 + index % 3 == vehicle and any(w.start <= end < w.end for w in windows)
            ]
    assert sorted(found) == sorted(expected)
    assert {vehicle for vehicle, _, _ in expected} == {1, 2}


@pytest.mark.parametrize("page", [1, 2, 3, 4])
def test_pages_read_backwards_give_the_forward_order(
    cursor: duckdb.DuckDBPyConnection, page: int
) -> None:
    cursor.execute("CREATE TABLE t AS SELECT range AS id, range % 4 AS v FROM range(10)")
    forward = [row[0] for row in cursor.execute("SELECT id FROM t ORDER BY v DESC, id").fetchall()]
    request = PageRequest(page=page, page_size=3)
    ordering = page_ordering(
        request, total=10, column_sql="v", descending=True, tie_breakers=["id"]
    )
    assert ordering.reversed_read == (page >= 3)
    rows = [
        row[0]
        for row in cursor.execute(
            f"SELECT id FROM t ORDER BY {ordering.sql} LIMIT ? OFFSET ?",  # noqa: S608 - test constants
            [ordering.limit, ordering.offset],
        ).fetchall()
    ]
    if ordering.reversed_read:
        rows.reverse()
    assert rows == forward[(page - 1) * 3 : page * 3]


def _instant(epoch_millis: int) -> datetime:
    """A chart point's instant."""
    return datetime.fromtimestamp(epoch_millis / 1000, UTC)


def test_time_below_twenty_percent_ends_where_the_vehicle_went_offline(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    start = datetime.combine(DAY, time(8), UTC)
    samples = [(0, 25.0), (60, 19.0), (120, 18.0), (720, 17.0), (780, 30.0)]
    cursor.executemany(
        "INSERT INTO battery_samples (vehicle_id, sampled_at, charge, charging, voltage, health) "
        "VALUES (1, ?, ?, false, 48.0, ?)",
        [(start + timedelta(seconds=s), c, 90.0 - s / 7800) for s, c in samples],
    )
    # Silent after the report at 120 s: offline 65 s later, where a closing sample lies.
    cursor.execute(
        "INSERT INTO battery_samples (vehicle_id, sampled_at, charge, charging, closes) "
        "VALUES (1, ?, 18.0, false, true)",
        [start + timedelta(seconds=185)],
    )
    result = battery(
        cursor,
        _scope(None, days=1),
        now=NOW,
        offline_after=timedelta(seconds=65),
        capacities={1: 2000.0, 2: None},
    )
    first = result.entries[0]["current"]
    # 60 s at 19 %, 18 % until the vehicle went offline 65 s later, 60 s at 17 %.
    assert first["below_low_seconds"] == 60 + 65 + 60
    assert first["health_latest"] == pytest.approx(90.0 - 780 / 7800)
    slope = -(30 * 86400) / 7800  # health falls 1 point per 7800 s
    assert first["health_slope_per_30_days"] == pytest.approx(slope)
    assert first["min_charge"] is None  # no rollups written by hand: productivity's measure
    # 250 buckets of 345.6 s: the lowest and highest of each (19 % lies between 25 and 18).
    points = result.series[0]["points"]
    assert [charge for _, charge in points] == [25.0, 18.0, 17.0, 30.0]
    assert _instant(points[1][0]) == start + timedelta(seconds=120)
    assert result.entries[1]["current"]["below_low_seconds"] == 0


def test_health_series_averages_each_slot_and_skips_samples_without_health(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    start = datetime.combine(DAY, time(8), UTC)
    # (vehicle, seconds after 08:00, health); inserted out of order. Vehicle 2 reports none.
    samples = [
        (1, 3600, 86.0),
        (1, 0, 90.0),
        (1, 780, 87.0),
        (1, 60, None),
        (1, 120, 89.0),
        (1, 400, None),
        (1, 720, 88.0),
        (2, 0, None),
        (2, 600, None),
    ]
    cursor.executemany(
        "INSERT INTO battery_samples (vehicle_id, sampled_at, charge, charging, voltage, health) "
        "VALUES (?, ?, 50.0, false, 48.0, ?)",
        [(v, start + timedelta(seconds=s), h) for v, s, h in samples],
    )
    result = battery(
        cursor, _scope(None, days=1), now=NOW, offline_after=timedelta(seconds=65), capacities={}
    )
    first, second = result.health_series
    # 250 slots of 345.6 s from midnight: 08:00 + 0..120 s lie in slot 83, 400 s (no health)
    # in 84, 720 and 780 s in 85, 3600 s in 93. Each point sits at its slot's middle.
    width = timedelta(seconds=86400 / 250)
    middle = {slot: datetime.combine(DAY, time(), UTC) + width * (slot + 0.5) for slot in (83, 93)}
    assert [(_instant(at), health) for at, health in first["points"]] == [
        (middle[83], 89.5),
        (datetime.combine(DAY, time(), UTC) + width * 85.5, 87.5),
        (middle[93], 86.0),
    ]
    # The trend: least squares over the five samples with health, at the first and last point.
    known = [(float(s), h) for v, s, h in samples if v == 1 and h is not None]
    mean_s = sum(s for s, _ in known) / len(known)
    mean_h = sum(h for _, h in known) / len(known)
    slope = sum((s - mean_s) * (h - mean_h) for s, h in known) / sum(
        (s - mean_s) ** 2 for s, _ in known
    )
    assert [_instant(at) for at, _ in first["trend"]] == [middle[83], middle[93]]
    for at, health in first["trend"]:
        offset = (_instant(at) - start).total_seconds()
        assert health == pytest.approx(mean_h + slope * (offset - mean_s), abs=1e-6)
    assert result.entries[0]["current"]["health_slope_per_30_days"] == pytest.approx(
        slope * 30 * 86400
    )
    assert second["vehicle_id"] == 2
    assert second["points"] == [] and second["trend"] == []
    assert [charge for _, charge in result.series[1]["points"]] == [
        50.0,
        50.0,
    ]  # its charge is drawn


def test_a_constant_health_has_a_slope_of_zero_every_time(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    """The health moments are summed in no fixed order; the slope of a constant SoH is 0
    (not ±1e-15, not -0.0) at every call."""
    start = datetime.combine(DAY, time(0), UTC)
    cursor.executemany(
        "INSERT INTO battery_samples (vehicle_id, sampled_at, charge, charging, voltage, health) "
        "VALUES (1, ?, 50.0, false, 48.0, 97.3)",
        [(start + timedelta(seconds=37 * i + 0.001 * (i % 7)),) for i in range(2000)],
    )
    for _ in range(5):
        result = battery(
            cursor,
            _scope(None, days=1),
            now=NOW,
            offline_after=timedelta(seconds=65),
            capacities={},
        )
        slope = result.entries[0]["current"]["health_slope_per_30_days"]
        assert slope == 0.0 and math.copysign(1.0, slope) == 1.0


def test_summed_durations_are_one_number_whatever_the_order_of_addition() -> None:
    """DuckDB adds durations in no fixed order: 0.1 + 0.2 + 0.3 s may come out as
    0.6000000000000001 or 0.6. Sums are given to the microsecond, so always 0.6."""
    added = 0.1 + 0.2 + 0.3
    assert added != 0.6  # the float sum in this order is off in its last bit
    summary = OrderSummary(outcomes={"finished": 2}, paused_s=added, waiting_s=added)
    times = figures(summary, exact=True).times
    assert (times.paused_seconds, times.waiting_seconds) == (0.6, 0.6)
    assert times.mean_paused_seconds == 0.3
    by_type = {"E1": Counter({"FATAL": 2}), "E2": Counter({"FATAL": 1})}
    (first, second) = _pareto(by_type, {"E1": added, "E2": 0.6}, by_count=False)
    assert first.downtime_seconds == second.downtime_seconds == 0.6
    assert first.share == second.share == 0.5
