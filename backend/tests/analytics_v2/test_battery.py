"""Battery against the simulator's ground truth: sessions, depth of discharge, cycles, and
the charge and health lines over time."""

from datetime import UTC, datetime

from fastapi.testclient import TestClient

from fleetscope.analytics.battery.battery import (
    MIN_SERIES_BUCKETS,
    SERIES_BUCKETS,
    SERIES_POINT_BUDGET,
    series_buckets,
)
from fleetscope.simulator.truth import ChargeSessionTruth

from .conftest import PERIOD, World, close, get_data, ham_ids


def _sessions(world: World, serial: str) -> list[ChargeSessionTruth]:
    return sorted(
        (s for s in world.truth.charge_sessions if s.serial_number == serial),
        key=lambda s: s.start,
    )


def _depths(world: World, serial: str) -> list[float]:
    """Charge only falls outside charging, so the peak before a session is the previous
    session's end charge (the initial charge before the first)."""
    initial = next(
        v.initial_charge for v in world.ham_scenario.vehicles if v.serial_number == serial
    )
    depths, peak = [], initial
    for session in _sessions(world, serial):
        depths.append(max(0.0, peak - session.start_charge))
        assert session.end_charge is not None
        peak = session.end_charge
    return depths


def test_sessions_depth_and_cycles_match_truth(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Battery", **PERIOD, vehicles=ham_ids(world), combined="false")
    entries = {entry["vehicleId"]: entry["current"] for entry in data["entries"]}
    all_depths = []
    for vehicle in world.truth.vehicles:
        figures = entries[world.vehicle_id(vehicle.serial_number)]
        truth = _sessions(world, vehicle.serial_number)
        sessions = figures["sessions"]
        assert sessions["count"] == len(truth)
        durations = [(s.end - s.start).total_seconds() for s in truth if s.end]
        assert close(sessions["meanDurationSeconds"], sum(durations) / len(durations))
        added = [s.end_charge - s.start_charge for s in truth if s.end_charge is not None]
        assert abs(sessions["meanAddedCharge"] - sum(added) / len(added)) < 1e-6
        depths = _depths(world, vehicle.serial_number)
        all_depths += depths
        assert abs(sessions["discharged"] - sum(depths)) < 1e-6
        # Discharge inside T (the whole run): every fall from report to report, the one
        # after the last session too.
        assert abs(sessions["equivalentFullCycles"] - vehicle.discharged_pct / 100) < 1e-8
        histogram = [0] * 10
        for depth in depths:
            histogram[min(9, int(depth // 10))] += 1
        assert sessions["depthHistogram"] == histogram
        assert 0 < figures["chargingShare"] < 1
        assert figures["healthLatest"] is not None
        assert figures["minCharge"] <= figures["meanCharge"]
    fleet = data["fleet"]["current"]["sessions"]
    assert fleet["count"] == len(world.truth.charge_sessions)
    discharged = sum(vehicle.discharged_pct for vehicle in world.truth.vehicles)
    assert abs(fleet["equivalentFullCycles"] - discharged / 100) < 1e-8


def test_session_list_is_the_truths_sessions(world: World, customer: TestClient) -> None:
    """The list behind the session figures: every simulated session, with its times, charges
    and depth; a histogram bar's list holds the sessions the bar counts."""
    common = {**PERIOD, "vehicles": ham_ids(world), "pageSize": 500}
    listed = get_data(customer, "Battery/Sessions", **common, sort="start")
    serial_of = {world.vehicle_id(v.serial_number): v.serial_number for v in world.truth.vehicles}
    expected = sorted(
        (
            s.serial_number,
            round(s.start.timestamp()),
            round(s.end.timestamp()),
            s.start_charge,
            s.end_charge,
            depth,
        )
        for v in world.truth.vehicles
        for s, depth in zip(
            _sessions(world, v.serial_number), _depths(world, v.serial_number), strict=True
        )
        if s.end is not None
    )
    got = sorted(
        (
            serial_of[row["vehicleId"]],
            round(datetime.fromisoformat(row["start"]).timestamp()),
            round(datetime.fromisoformat(row["end"]).timestamp()),
            row["startCharge"],
            row["endCharge"],
            row["depthOfDischarge"],
        )
        for row in listed["items"]
    )
    assert listed["total"] == len(world.truth.charge_sessions) == len(got) == len(expected)
    assert [g[:5] for g in got] == [e[:5] for e in expected]
    assert all(abs(g[5] - e[5]) < 1e-6 for g, e in zip(got, expected, strict=True))
    starts = [row["start"] for row in listed["items"]]
    assert starts == sorted(starts)
    histogram = get_data(customer, "Battery", **PERIOD, vehicles=ham_ids(world))["fleet"]
    for index, count in enumerate(histogram["current"]["sessions"]["depthHistogram"]):
        bar = get_data(customer, "Battery/Sessions", **common, depth=index * 10)
        assert bar["total"] == count
        assert all(
            index <= row["depthOfDischarge"] / 10 < index + 1 or index == 9 for row in bar["items"]
        )


def _instant(epoch_millis: int) -> datetime:
    return datetime.fromtimestamp(epoch_millis / 1000, UTC)


def test_charge_series_is_downsampled_and_keeps_extremes(
    world: World, customer: TestClient
) -> None:
    data = get_data(customer, "Battery", **PERIOD, vehicles=ham_ids(world), combined="false")
    assert [s["vehicleId"] for s in data["series"]] == world.ham_ids
    for series in data["series"]:
        times = [at for at, _ in series["points"]]
        charges = [charge for _, charge in series["points"]]
        assert 0 < len(times) <= 500
        assert times == sorted(times)
        # Epoch milliseconds within the period (site-local days in Europe/Berlin).
        assert all(isinstance(at, int) for at in times)
        assert datetime(2026, 10, 23, 22, tzinfo=UTC) <= _instant(times[0])
        assert _instant(times[-1]) < datetime(2026, 10, 26, 23, tzinfo=UTC)
        # Charging below 30 % and up to 90 %: the extremes survive downsampling.
        assert min(charges) < 31 and max(charges) >= 89


def test_combined_lines_are_one_each_between_the_vehicles_lines(
    world: World, customer: TestClient
) -> None:
    """Combined: one charge line, the fleet's mean charge (between the lowest and the highest
    of the vehicles' lines), and one health line whose trend has the fleet tile's slope."""
    query = {**PERIOD, "vehicles": ham_ids(world)}
    per_vehicle = get_data(customer, "Battery", **query, combined="false")
    data = get_data(customer, "Battery", **query, combined="true")
    assert [entry["vehicleId"] for entry in data["entries"]] == [None]
    [charge], [health] = data["series"], data["healthSeries"]
    assert (charge["vehicleId"], charge["name"], health["vehicleId"]) == (None, None, None)
    charges = [value for s in per_vehicle["series"] for _, value in s["points"]]
    times = [at for at, _ in charge["points"]]
    # Beyond a day one point per hour: 24 October to 26 October has 73 (clocks go back).
    assert len(times) == 73 and times == sorted(times)
    assert datetime(2026, 10, 23, 22, tzinfo=UTC) <= _instant(times[0])
    assert _instant(times[-1]) < datetime(2026, 10, 26, 23, tzinfo=UTC)
    assert all(min(charges) <= value <= max(charges) for _, value in charge["points"])
    (first_at, first), (last_at, last) = health["trend"]
    assert [first_at, last_at] == [health["points"][0][0], health["points"][-1][0]]
    slope = (last - first) / ((last_at - first_at) / 86_400_000) * 30
    assert abs(slope - data["fleet"]["current"]["healthSlopePer30Days"]) < 1e-6


def test_health_series_follows_the_reported_health_and_its_fitted_line(
    world: World, customer: TestClient
) -> None:
    data = get_data(customer, "Battery", **PERIOD, vehicles=ham_ids(world), combined="false")
    entries = {entry["vehicleId"]: entry["current"] for entry in data["entries"]}
    initial = {
        world.vehicle_id(v.serial_number): v.initial_health for v in world.ham_scenario.vehicles
    }
    assert [s["vehicleId"] for s in data["healthSeries"]] == world.ham_ids
    for series in data["healthSeries"]:
        figures = entries[series["vehicleId"]]
        times = [_instant(at) for at, _ in series["points"]]
        health = [value for _, value in series["points"]]
        # One point per slot of the charge series, each slot at most once.
        assert 0 < len(times) <= 250
        assert times == sorted(set(times))
        # Health falls by age and cycles from the initial value (some report whole percent).
        assert all(
            initial[series["vehicleId"]] - 1 <= h <= initial[series["vehicleId"]] + 0.5
            for h in health
        )
        assert abs(health[-1] - figures["healthLatest"]) <= 0.5
        # The trend is the least-squares line of the KPI: its slope is healthSlopePer30Days.
        (first_at, first), (last_at, last) = series["trend"]
        assert [first_at, last_at] == [series["points"][0][0], series["points"][-1][0]]
        days = (times[-1] - times[0]).total_seconds() / 86400
        slope = (last - first) / days * 30
        assert abs(slope - figures["healthSlopePer30Days"]) < 1e-6


def test_energy_needs_a_known_capacity(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Battery", **PERIOD, vehicles=ham_ids(world), combined="false")
    assert {entry["batteryCapacityWh"] is None for entry in data["entries"]} == {True, False}
    for entry in data["entries"]:
        sessions = entry["current"]["sessions"]
        if entry["batteryCapacityWh"] is None:
            assert sessions["addedEnergyWh"] is None
        else:
            expected = sessions["addedCharge"] / 100 * entry["batteryCapacityWh"]
            assert abs(sessions["addedEnergyWh"] - expected) < 1e-6


def test_many_lines_share_the_point_budget_of_one_chart() -> None:
    assert series_buckets(1) == SERIES_BUCKETS
    assert series_buckets(20) == SERIES_BUCKETS  # 20 lines x 500 points fit the budget
    assert series_buckets(40) == SERIES_POINT_BUDGET // 80
    assert series_buckets(100) == MIN_SERIES_BUCKETS
    assert series_buckets(5_000) == MIN_SERIES_BUCKETS
