"""Charge sessions per vehicle and bucket against a brute-force reading of hand-made sessions:
counts, means, depth histogram (a depth of 100 and a negative one at the edges), energy
only where the capacity is known, a vehicle without sessions, a session outside T; and the
list of those sessions (the drill-down behind the figures), its filters and sorts."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import duckdb
import pytest

from fleetscope.analytics.battery.sessions import (
    DOD_BINS,
    ChargeSession,
    SessionFigures,
    charge_sessions,
    session_figures,
    session_sums,
)
from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, select_periods
from fleetscope.analytics.core.paging import PageRequest
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan

FIRST_DAY = date(2026, 3, 10)
NOW = datetime(2026, 3, 20, tzinfo=UTC)
VEHICLES = [1, 2, 3]
CAPACITIES: list[float | None] = [1000.0, None, 500.0]
# vehicle, hours after the period's first midnight, minutes, start, end charge, peak before
Session = tuple[int, int, int, float, float, float]
SESSIONS: list[Session] = [
    (1, 2, 45, 30.0, 90.0, 80.0),
    (1, 30, 30, 12.5, 100.0, 90.0),
    (1, -10, 60, 40.0, 85.0, 95.0),  # previous period
    (2, 5, 20, 0.0, 60.0, 100.0),  # depth 100: the last bin
    (2, 40, 15, 50.0, 70.0, 45.0),  # peak below the start: depth 0
    (2, -30, 90, 20.0, 80.0, 60.0),  # previous period
    (2, 200, 30, 20.0, 80.0, 60.0),  # after T
]


def _insert(cursor: duckdb.DuckDBPyConnection) -> None:
    first = datetime(FIRST_DAY.year, FIRST_DAY.month, FIRST_DAY.day, tzinfo=UTC)
    rows = []
    for vehicle, hours, minutes, start_charge, end_charge, peak in SESSIONS:
        start = first + timedelta(hours=hours)
        rows.append(
            (vehicle, start, start + timedelta(minutes=minutes), start_charge, end_charge, peak)
        )
    cursor.executemany("INSERT INTO charge_sessions VALUES (?, ?, ?, ?, ?, ?)", rows)


def _expected(vehicles: list[int], bucket: int) -> dict[str, object]:
    chosen = [s for s in SESSIONS if s[0] in vehicles and (s[1] < 0) == (bucket == PREVIOUS)]
    chosen = [s for s in chosen if s[1] < 48]  # the period is two days
    depths = [max(0.0, peak - start) for _, _, _, start, _, peak in chosen]
    added = [end - start for _, _, _, start, end, _ in chosen]
    histogram = [0] * DOD_BINS
    for depth in depths:
        histogram[min(DOD_BINS - 1, int(depth // 10))] += 1
    count = len(chosen)
    return {
        "count": count,
        "mean_duration_seconds": sum(s[2] * 60 for s in chosen) / count if count else None,
        "added_charge": sum(added),
        "discharged": sum(depths),
        "depth_histogram": histogram,
    }


def _check(figures: SessionFigures, expected: dict[str, object]) -> None:
    got: dict[str, object] = {name: figures[name] for name in expected}  # type: ignore[literal-required]
    assert got.pop("count") == expected["count"]
    assert got.pop("depth_histogram") == expected["depth_histogram"]
    assert got == pytest.approx({k: v for k, v in expected.items() if k in got})


def _scope(vehicle_ids: list[int], *, combined: bool) -> AnalyticsScope:
    return AnalyticsScope(
        span=DaySpan(FIRST_DAY, FIRST_DAY + timedelta(days=1)),
        combined=combined,
        shift_id="all",
        vehicles=[VehicleRef(v, f"V{v}", 1) for v in vehicle_ids],
        sites=[SiteGroup(1, ZoneInfo("UTC"), None, excluded=False, vehicle_ids=vehicle_ids)],
    )


def test_figures_per_vehicle_and_together(cursor: duckdb.DuckDBPyConnection) -> None:
    _insert(cursor)
    scope = _scope(VEHICLES, combined=False)
    sums = session_sums(cursor, select_periods(scope, now=NOW))
    for bucket in (CURRENT, PREVIOUS):
        each = [
            session_figures(sums, bucket, capacities={vehicle: capacity}, cycles=1.5)
            for vehicle, capacity in zip(VEHICLES, CAPACITIES, strict=True)
        ]
        for vehicle, capacity, figures in zip(VEHICLES, CAPACITIES, each, strict=True):
            expected = _expected([vehicle], bucket)
            _check(figures, expected)
            assert figures["equivalent_full_cycles"] == 1.5  # from the samples, as given
            if capacity is None:
                assert figures["added_energy_wh"] is None
            else:
                assert figures["added_energy_wh"] == pytest.approx(
                    figures["added_charge"] / 100 * capacity
                )
        capacities = dict(zip(VEHICLES, CAPACITIES, strict=True))
        together = session_figures(sums, bucket, capacities=capacities, cycles=0.0)
        expected = _expected(VEHICLES, bucket)
        _check(together, expected)
        # Energy only over the vehicles with a known capacity (1 and 3).
        known = [f["added_energy_wh"] for f in each if f["added_energy_wh"] is not None]
        assert together["added_energy_wh"] == pytest.approx(sum(known))
    assert each[2]["count"] == 0 and each[2]["mean_depth_of_discharge"] is None


def test_energy_is_null_without_any_known_capacity(cursor: duckdb.DuckDBPyConnection) -> None:
    _insert(cursor)
    scope = _scope([2], combined=True)
    sums = session_sums(cursor, select_periods(scope, now=NOW))
    together = session_figures(sums, CURRENT, capacities={2: None}, cycles=0.0)
    assert together["count"] == 2
    histogram = together["depth_histogram"]
    assert histogram[DOD_BINS - 1] == 1 and histogram[0] == 1
    assert together["added_energy_wh"] is None and together["discharged_energy_wh"] is None


def test_sums_of_charges_carry_no_float_noise(cursor: duckdb.DuckDBPyConnection) -> None:
    # Charges with a decimal: 10.1 - 10.0 is 0.0999999999999996 in floats, and the three
    # sessions' added charge adds up to 0.5999999999999979 unrounded.
    start = datetime(FIRST_DAY.year, FIRST_DAY.month, FIRST_DAY.day, 1, tzinfo=UTC)
    rows = [
        (4, start + timedelta(hours=h), start + timedelta(hours=h, minutes=10), s, s + d, s + d)
        for h, s, d in ((0, 10.0, 0.1), (2, 20.0, 0.2), (4, 30.0, 0.3))
    ]
    cursor.executemany("INSERT INTO charge_sessions VALUES (?, ?, ?, ?, ?, ?)", rows)
    scope = _scope([4], combined=True)
    sums = session_sums(cursor, select_periods(scope, now=NOW))
    figures = session_figures(sums, CURRENT, capacities={4: 1000.0}, cycles=(0.1 + 0.2) / 100)
    assert figures["added_charge"] == 0.6
    assert figures["added_energy_wh"] == 6.0
    assert figures["equivalent_full_cycles"] == 0.003


# --- the session list (GET /v2/Analytics/Battery/Sessions) ---------------------------------


def _listed(
    cursor: duckdb.DuckDBPyConnection, *, sort: str | None = None, **filters: int
) -> list[ChargeSession]:
    page = charge_sessions(
        cursor,
        _scope(VEHICLES, combined=False),
        now=NOW,
        page=PageRequest(page=1, page_size=50, sort=sort),
        capacities=dict(zip(VEHICLES, CAPACITIES, strict=True)),
        **filters,  # type: ignore[arg-type]
    )
    assert page.total == len(page.items)
    return page.items


def test_list_holds_the_sessions_the_figures_count(cursor: duckdb.DuckDBPyConnection) -> None:
    _insert(cursor)
    listed = _listed(cursor)
    # The four sessions starting in the two days of T, newest first.
    first = datetime(FIRST_DAY.year, FIRST_DAY.month, FIRST_DAY.day, tzinfo=UTC)
    assert [(s.vehicle_id, s.start - first) for s in listed] == [
        (2, timedelta(hours=40)),
        (1, timedelta(hours=30)),
        (2, timedelta(hours=5)),
        (1, timedelta(hours=2)),
    ]
    assert len(listed) == _expected(VEHICLES, CURRENT)["count"]
    newest = listed[0]
    assert (newest.vehicle_name, newest.duration_seconds) == ("V2", 15 * 60)
    assert (newest.start_charge, newest.end_charge, newest.added_charge) == (50.0, 70.0, 20.0)
    assert newest.depth_of_discharge == 0.0  # its peak (45) lies below its start
    assert newest.added_energy_wh is None  # vehicle 2's capacity is unknown
    oldest = listed[-1]
    assert (oldest.depth_of_discharge, oldest.added_charge) == (50.0, 60.0)
    assert oldest.added_energy_wh == 600.0  # 60 points of 1,000 Wh


def test_list_keeps_one_histogram_bin_and_one_vehicle(cursor: duckdb.DuckDBPyConnection) -> None:
    _insert(cursor)
    # Depths in T: 50 (bin 5), 77.5 (bin 7), 100 (the last bin), 0 (bin 0).
    assert [s.depth_of_discharge for s in _listed(cursor, depth_bin=DOD_BINS - 1)] == [100.0]
    assert [s.depth_of_discharge for s in _listed(cursor, depth_bin=7)] == [77.5]
    assert [s.depth_of_discharge for s in _listed(cursor, depth_bin=0)] == [0.0]
    assert _listed(cursor, depth_bin=3) == []
    assert {s.vehicle_id for s in _listed(cursor, vehicle_id=1)} == {1}
    assert len(_listed(cursor, vehicle_id=1)) == 2


def test_list_sorts_by_each_column(cursor: duckdb.DuckDBPyConnection) -> None:
    _insert(cursor)
    by_added = [s.added_charge for s in _listed(cursor, sort="added")]
    assert by_added == [20.0, 60.0, 60.0, 87.5]
    by_duration = [s.duration_seconds for s in _listed(cursor, sort="-duration")]
    assert by_duration == [45 * 60, 30 * 60, 20 * 60, 15 * 60]
    assert [s.depth_of_discharge for s in _listed(cursor, sort="depth")] == [0, 50, 77.5, 100]
    assert [s.vehicle_id for s in _listed(cursor, sort="vehicle")] == [1, 1, 2, 2]
