"""Analytics API against the simulator's ground truth (seeded fleet through the real pipeline)."""

import statistics
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fleetscope.simulator.truth import STATES
from tests.figures import assert_same_figures

from .conftest import BERLIN, END, START, World, first_vehicle_state_seconds

SHARE_TOLERANCE = 0.005  # 0.5 % of planned time


def _get(client: TestClient, resource: str, **params: Any) -> Any:
    response = client.get(f"/v2/Analytics/{resource}", params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def _ids(world: World, serials: list[str] | None = None) -> str:
    ids = world.ham_ids if serials is None else [world.vehicle_id(s) for s in serials]
    return ",".join(str(i) for i in ids)


def _shares(states: dict[str, float]) -> dict[str, float]:
    planned = sum(states.values()) - states["offline"]
    return {
        "availability": (planned - states["error"] - states["manual"]) / planned,
        "utilization": states["working"] / planned,
        "idleShare": states["idle"] / planned,
        "chargingShare": states["charging"] / planned,
    }


def _assert_shares(kpis: dict[str, Any], truth_states: dict[str, float]) -> None:
    for name, expected in _shares(truth_states).items():
        assert abs(kpis[name] - expected) <= SHARE_TOLERANCE, (name, kpis[name], expected)


def _finished(world: World, *, serials: set[str], start: datetime, end: datetime) -> int:
    return sum(
        1
        for order in world.truth.orders
        if order.serial_number in serials
        and order.outcome == "finished"
        and order.end is not None
        and start <= order.end < end
    )


def test_truth_windows_are_prefixes(world: World) -> None:
    """The premise of windowed truth: re-running HAM-01 alone reproduces its fleet truth."""
    alone = first_vehicle_state_seconds(world, START, END)
    in_fleet = next(v for v in world.truth.vehicles if v.serial_number == "HAM-01")
    assert alone == in_fleet.state_seconds


def test_whole_period_per_vehicle_matches_truth(world: World, customer: TestClient) -> None:
    data = _get(
        customer,
        "Productivity",
        **{"from": "2026-10-24", "to": "2026-10-26"},
        vehicles=_ids(world),
        combined="false",
        shift="all",
    )
    entries = {entry["vehicleId"]: entry for entry in data["entries"]}
    assert len(entries) == len(world.truth.vehicles)
    for vehicle in world.truth.vehicles:
        entry = entries[world.vehicle_id(vehicle.serial_number)]
        _assert_shares(entry["kpis"], vehicle.state_seconds)
        for state in STATES:
            # Each state within 0.5 % of the vehicle's time.
            span = sum(vehicle.state_seconds.values())
            assert abs(entry["states"][state] - vehicle.state_seconds[state]) <= 0.005 * span
        finished = _finished(world, serials={vehicle.serial_number}, start=START, end=END)
        kpis = entry["kpis"]
        assert kpis["ordersFinished"] == finished
        assert kpis["throughputPerHour"] == finished / (kpis["plannedSeconds"] / 3600)
        assert kpis["loadsHandled"] == vehicle.loads_handled
        assert (
            abs(kpis["distanceKm"] - vehicle.distance_m / 1000) <= 0.01 * vehicle.distance_m / 1000
        )


def test_combined_is_the_sum_of_the_vehicles(world: World, customer: TestClient) -> None:
    common = {"from": "2026-10-24", "to": "2026-10-26", "vehicles": _ids(world), "shift": "all"}
    combined = _get(customer, "Productivity", combined="true", **common)
    per_vehicle = _get(customer, "Productivity", combined="false", **common)
    assert len(combined["entries"]) == 1 and combined["entries"][0]["vehicleId"] is None
    entry = combined["entries"][0]
    for state in STATES:
        total = sum(e["states"][state] for e in per_vehicle["entries"])
        assert abs(entry["states"][state] - total) < 1e-6
    truth_states = {s: sum(v.state_seconds[s] for v in world.truth.vehicles) for s in STATES}
    _assert_shares(entry["kpis"], truth_states)
    serials = {v.serial_number for v in world.truth.vehicles}
    finished = _finished(world, serials=serials, start=START, end=END)
    assert entry["kpis"]["ordersFinished"] == finished
    calendar_hours = (END - START).total_seconds() / 3600  # 73: the 25th has 25 hours
    assert calendar_hours == 73
    assert entry["kpis"]["throughputPerHour"] == finished / calendar_hours
    assert entry == combined["fleet"]
    assert_same_figures(combined["fleet"], per_vehicle["fleet"])
    assert sum(sum(row) for row in combined["heatmap"]) == finished


def test_dst_day_has_25_hours_of_states(world: World, customer: TestClient) -> None:
    data = _get(
        customer,
        "Productivity",
        **{"from": "2026-10-25", "to": "2026-10-25"},
        vehicles=_ids(world),
        shift="all",
        combined="false",
    )
    for entry in data["entries"]:
        assert abs(sum(entry["states"].values()) - 25 * 3600) < 1e-3
        assert entry["kpis"]["periodSeconds"] == 25 * 3600
        assert entry["kpis"]["noDataSeconds"] == 0
    day_start = datetime(2026, 10, 25, tzinfo=BERLIN)
    day_end = datetime(2026, 10, 26, tzinfo=BERLIN)
    first = next(e for e in data["entries"] if e["vehicleId"] == world.vehicle_id("HAM-01"))
    _assert_shares(first["kpis"], first_vehicle_state_seconds(world, day_start, day_end))
    assert first["kpis"]["ordersFinished"] == _finished(
        world, serials={"HAM-01"}, start=day_start, end=day_end
    )


def test_night_shift_crosses_midnight(world: World, customer: TestClient) -> None:
    """Night 22:00-06:00 on the 24th: a shift belongs to the day it starts on, so the 24th
    holds its night whole, 22:00 to 06:00 on the 25th, 9 hours as the clock goes back (and
    not the morning of the night that began on the 23rd)."""
    data = _get(
        customer,
        "Productivity",
        **{"from": "2026-10-24", "to": "2026-10-24"},
        vehicles=_ids(world, ["HAM-01"]),
        shift="night",
        combined="false",
    )
    entry = data["entries"][0]
    assert data["period"]["shift"] == "night"
    windows = [
        (datetime(2026, 10, 24, 22, tzinfo=BERLIN), datetime(2026, 10, 25, 6, tzinfo=BERLIN))
    ]
    assert entry["kpis"]["periodSeconds"] == 9 * 3600
    truth = dict.fromkeys(STATES, 0.0)
    for start, end in windows:
        for state, seconds in first_vehicle_state_seconds(world, start, end).items():
            truth[state] += seconds
    assert abs(sum(entry["states"].values()) - sum(truth.values())) < 1e-3
    _assert_shares(entry["kpis"], truth)
    finished = sum(_finished(world, serials={"HAM-01"}, start=s, end=e) for s, e in windows)
    assert entry["kpis"]["ordersFinished"] == finished
    # The heatmap counts the night's orders on its Saturday, also those ending on Sunday
    # morning, at the local hour they ended.
    saturday = [0] * 24
    night_start, night_end = windows[0]
    for order in world.truth.orders:
        ended = order.end
        if order.serial_number == "HAM-01" and order.outcome == "finished" and ended is not None:
            saturday[ended.astimezone(BERLIN).hour] += night_start <= ended < night_end
    assert finished > 0 and sum(saturday[:6]) > 0
    assert data["heatmap"] == [[0] * 24] * 5 + [saturday, [0] * 24]


def test_previous_period_is_the_days_before(world: World, customer: TestClient) -> None:
    common = {"vehicles": _ids(world), "shift": "late", "combined": "true"}
    last_day = _get(
        customer, "Productivity", **{"from": "2026-10-26", "to": "2026-10-26"}, **common
    )
    day_before = _get(
        customer, "Productivity", **{"from": "2026-10-25", "to": "2026-10-25"}, **common
    )
    assert last_day["period"]["previousFrom"] == last_day["period"]["previousTo"] == "2026-10-25"
    assert last_day["fleet"]["previous"] == day_before["fleet"]["kpis"]
    assert last_day["fleet"]["previousStates"] == day_before["fleet"]["states"]
    late_start = datetime(2026, 10, 25, 14, tzinfo=BERLIN)
    late_end = datetime(2026, 10, 25, 22, tzinfo=BERLIN)
    serials = {v.serial_number for v in world.truth.vehicles}
    expected = _finished(world, serials=serials, start=late_start, end=late_end)
    assert last_day["fleet"]["previous"]["ordersFinished"] == expected
    assert last_day["fleet"]["previous"]["throughputPerHour"] == expected / 8


def test_history_days_add_up_to_the_period(world: World, customer: TestClient) -> None:
    common = {"from": "2026-10-24", "to": "2026-10-26", "vehicles": _ids(world), "shift": "all"}
    history = _get(customer, "ProductivityHistory", combined="true", **common)
    total = _get(customer, "Productivity", combined="true", **common)
    assert history["granularity"] == "day"
    assert [b["from"] for b in history["buckets"]] == ["2026-10-24", "2026-10-25", "2026-10-26"]
    assert [b["to"] for b in history["previousBuckets"]] == [
        "2026-10-21",
        "2026-10-22",
        "2026-10-23",
    ]
    assert history["series"] == [{"vehicleId": None, "name": None}]
    vehicles = len(world.ham_ids)
    hours = [seconds / 3600 for seconds in history["kpis"]["periodSeconds"][0]]
    assert hours == [24 * vehicles, 25 * vehicles, 24 * vehicles]
    assert sum(history["kpis"]["ordersFinished"][0]) == total["fleet"]["kpis"]["ordersFinished"]
    # The simulation starts on 24 October: the previous days have no data, in any figure
    # (no 0 orders drawn where nothing was recorded), only their length is known.
    assert history["previous"]["ordersFinished"] == [[None, None, None]]
    assert history["previous"]["availability"] == [[None, None, None]]
    assert history["previous"]["noDataSeconds"] == history["previous"]["periodSeconds"]


def test_history_per_vehicle_is_productivity_per_day(world: World, customer: TestClient) -> None:
    common = {"vehicles": _ids(world), "shift": "all", "combined": "false"}
    history = _get(
        customer, "ProductivityHistory", **{"from": "2026-10-24", "to": "2026-10-26"}, **common
    )
    assert [s["vehicleId"] for s in history["series"]] == [int(v) for v in _ids(world).split(",")]
    for bucket, day in enumerate(("2026-10-24", "2026-10-25", "2026-10-26")):
        entries = _get(customer, "Productivity", **{"from": day, "to": day}, **common)["entries"]
        for index, entry in enumerate(entries):
            assert history["series"][index]["vehicleId"] == entry["vehicleId"]
            assert set(history["kpis"]) <= set(entry["kpis"])
            for name, values in history["kpis"].items():
                actual, expected = values[index][bucket], entry["kpis"][name]
                if expected is None:
                    assert actual is None, name
                else:  # sums over hours may add up in another order: float noise only
                    assert actual == pytest.approx(expected, rel=1e-9, abs=1e-6), name


def test_dashboard_tiles_match_productivity(world: World, customer: TestClient) -> None:
    common = {"from": "2026-10-25", "to": "2026-10-26", "vehicles": _ids(world), "shift": "all"}
    tiles = {t["key"]: t for t in _get(customer, "Dashboard", **common)["tiles"]}
    fleet = _get(customer, "Productivity", **common)["fleet"]
    assert abs(tiles["availability"]["value"] - fleet["kpis"]["availability"]) < 1e-9
    assert tiles["orders"]["value"] == fleet["kpis"]["ordersFinished"]
    assert tiles["orders"]["previous"] == fleet["previous"]["ordersFinished"]
    assert abs(tiles["throughput"]["value"] - fleet["kpis"]["throughputPerHour"]) < 1e-9
    # The histogram estimate of the median cycle time is within 10 % of the truth's.
    start = datetime(2026, 10, 25, tzinfo=BERLIN)
    cycles = sorted(
        (order.end - order.start).total_seconds()
        for order in world.truth.orders
        if order.outcome == "finished" and order.end is not None and start <= order.end < END
    )
    median = statistics.median(cycles)
    assert abs(tiles["cycleTimeP50"]["value"] - median) <= 0.1 * median
    assert fleet["kpis"]["cycleTimeP50Seconds"] is None  # Productivity leaves percentiles out
    assert [p["from"] for p in tiles["orders"]["series"]] == ["2026-10-25", "2026-10-26"]
    assert sum(p["value"] for p in tiles["orders"]["series"]) == tiles["orders"]["value"]
    stops = [e for e in world.truth.error_episodes if e.level in ("FATAL", "CRITICAL")]
    assert stops and tiles["mttr"]["value"] is not None


def test_a_previous_period_before_the_first_message_is_no_comparison(
    world: World, customer: TestClient
) -> None:
    """The simulation starts on 24 October: the two days before it hold no data. The
    dashboard compares with nothing (as the Productivity tiles do), not with 0 orders."""
    common = {"from": "2026-10-24", "to": "2026-10-25", "vehicles": _ids(world), "shift": "all"}
    tiles = {t["key"]: t for t in _get(customer, "Dashboard", **common)["tiles"]}
    assert tiles["orders"]["value"] > 0
    assert {key: tile["previous"] for key, tile in tiles.items()} == dict.fromkeys(tiles)
    # One day back the previous day (the 24th) has data again: compared as before.
    later = {**common, "from": "2026-10-25", "to": "2026-10-25"}
    tiles = {t["key"]: t for t in _get(customer, "Dashboard", **later)["tiles"]}
    fleet = _get(customer, "Productivity", **later)["fleet"]
    assert tiles["orders"]["previous"] == fleet["previous"]["ordersFinished"] > 0


def test_period_is_clipped_to_now_and_future_days_are_empty(
    customer: TestClient, world: World
) -> None:
    today = datetime.now(BERLIN).date()
    data = _get(
        customer,
        "Productivity",
        **{
            "from": (today + timedelta(days=1)).isoformat(),
            "to": (today + timedelta(days=2)).isoformat(),
        },
        vehicles=_ids(world),
    )
    assert data["fleet"]["kpis"]["periodSeconds"] == 0
    assert data["fleet"]["kpis"]["availability"] is None


@pytest.mark.parametrize("resource", ["Dashboard", "ProductivityHistory", "Productivity"])
def test_a_day_before_any_data_answers_empty(
    customer: TestClient, world: World, resource: str
) -> None:
    """The whole site selected: the fleet figures come from the site rollups, which have no
    row for that day."""
    data = _get(customer, resource, **{"from": "2024-01-15", "to": "2024-01-15"}, combined="true")
    assert data["period"]["from"] == "2024-01-15"
    if resource == "Dashboard":
        tiles = {tile["key"]: tile for tile in data["tiles"]}
        assert tiles["orders"]["value"] == 0
        assert tiles["availability"]["value"] is None
