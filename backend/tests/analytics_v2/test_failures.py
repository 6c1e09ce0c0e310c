"""Failures (analysis, matrix, map, history, CSV) against the simulator's ground truth."""

import csv
import io
from collections import Counter
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from fleetscope.analytics.failures.error_history import CsvConvention, csv_header
from fleetscope.api.deps import CSRF_COOKIE, CSRF_HEADER
from fleetscope.simulator.truth import ErrorEpisodeTruth
from tests.figures import assert_same_figures

from .conftest import PERIOD, World, close, get_data, ham_ids

STOP = ("CRITICAL", "FATAL")


def _seconds(episode: ErrorEpisodeTruth) -> float:
    assert episode.end is not None
    return (episode.end - episode.start).total_seconds()


def _planned_uptime(states: dict[str, float]) -> float:
    planned = sum(states.values()) - states["offline"]
    return planned - states["error"] - states["manual"]


def test_pareto_counts_and_downtime_match_truth(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Failures", **PERIOD, vehicles=ham_ids(world), combined="false")
    episodes = world.truth.error_episodes
    by_type = Counter(e.error_type for e in episodes)
    pareto = {item["errorType"]: item for item in data["paretoByCount"]}
    assert {t: item["count"] for t, item in pareto.items()} == dict(by_type)
    counts = [item["count"] for item in data["paretoByCount"]]
    assert counts == sorted(counts, reverse=True)
    assert data["paretoByCount"][-1]["cumulativeShare"] == 1.0
    for error_type, item in pareto.items():
        stops = [e for e in episodes if e.error_type == error_type and e.level in STOP]
        assert close(item["downtimeSeconds"], sum(_seconds(e) for e in stops)), error_type
        levels = Counter(e.level for e in episodes if e.error_type == error_type)
        assert item["levels"] == {
            level.lower(): levels[level] for level in ("WARNING", "URGENT", "CRITICAL", "FATAL")
        }
    downtime = [item["downtimeSeconds"] for item in data["paretoByDowntime"]]
    assert downtime == sorted(downtime, reverse=True) and all(d > 0 for d in downtime)
    levels = Counter(e.level for e in episodes)
    assert data["levels"]["fatal"] == levels["FATAL"]
    assert data["levels"]["warning"] == levels["WARNING"]


def test_mtbf_mttr_and_rates_per_vehicle_and_fleet(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Failures", **PERIOD, vehicles=ham_ids(world), combined="false")
    entries = {entry["vehicleId"]: entry["current"] for entry in data["entries"]}
    for vehicle in world.truth.vehicles:
        figures = entries[world.vehicle_id(vehicle.serial_number)]
        mine = [e for e in world.truth.error_episodes if e.serial_number == vehicle.serial_number]
        stops = [e for e in mine if e.level in STOP]
        orders = sum(1 for o in world.truth.orders if o.serial_number == vehicle.serial_number)
        assert figures["episodes"] == len(mine)
        assert figures["stopEpisodes"] == len(stops)
        assert figures["orders"] == orders
        assert abs(figures["errorsPer1000Orders"] - len(mine) * 1000 / orders) < 1e-9
        warnings = sum(1 for e in mine if e.level == "WARNING")
        assert abs(figures["warningsPer1000Orders"] - warnings * 1000 / orders) < 1e-9
        if stops:
            expected_mtbf = _planned_uptime(vehicle.state_seconds) / len(stops)
            assert abs(figures["mtbfSeconds"] - expected_mtbf) <= 0.005 * expected_mtbf
            assert close(figures["mttrSeconds"], sum(map(_seconds, stops)) / len(stops))
    fleet = data["fleet"]["current"]
    stops = [e for e in world.truth.error_episodes if e.level in STOP]
    uptime = sum(_planned_uptime(v.state_seconds) for v in world.truth.vehicles)
    assert fleet["stopEpisodes"] == len(stops)
    assert abs(fleet["mtbfSeconds"] - uptime / len(stops)) <= 0.005 * uptime / len(stops)
    assert close(fleet["mttrSeconds"], sum(map(_seconds, stops)) / len(stops))
    assert fleet["stopErrorsPer1000Orders"] == len(stops) * 1000 / len(world.truth.orders)
    assert data["fleet"]["previous"]["episodes"] == 0


def test_combined_entry_is_the_fleet_of_the_per_vehicle_answer(
    world: World, customer: TestClient
) -> None:
    common = {**PERIOD, "vehicles": ham_ids(world)}
    combined = get_data(customer, "Failures", **common, combined="true")
    per_vehicle = get_data(customer, "Failures", **common, combined="false")
    assert combined["entries"] == [combined["fleet"]]
    assert_same_figures(combined["fleet"], per_vehicle["fleet"])
    current = [entry["current"] for entry in per_vehicle["entries"]]
    assert combined["fleet"]["current"]["episodes"] == sum(c["episodes"] for c in current)
    assert combined["fleet"]["current"]["orders"] == sum(c["orders"] for c in current)


def test_level_filter_narrows_the_pareto(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Failures", **PERIOD, vehicles=ham_ids(world), level="FATAL")
    fatal = Counter(e.error_type for e in world.truth.error_episodes if e.level == "FATAL")
    assert {i["errorType"]: i["count"] for i in data["paretoByCount"]} == dict(fatal)
    # MTBF and the rates still describe every episode.
    assert data["fleet"]["current"]["episodes"] == len(world.truth.error_episodes)


def test_matrix_matches_truth(world: World, customer: TestClient) -> None:
    data = get_data(customer, "FailureMatrix", **PERIOD, vehicles=ham_ids(world))
    cells = {(c["errorType"], c["vehicleId"]): c for c in data["cells"]}
    expected = Counter(
        (e.error_type, world.vehicle_id(e.serial_number)) for e in world.truth.error_episodes
    )
    assert {key: cell["count"] for key, cell in cells.items()} == dict(expected)
    assert data["maxCount"] == max(expected.values())
    assert [v["vehicleId"] for v in data["vehicles"]] == world.ham_ids
    for row in data["errorTypes"]:
        starts = [e.start for e in world.truth.error_episodes if e.error_type == row["errorType"]]
        assert row["firstSeen"].replace("Z", "+00:00") == min(starts).isoformat()
        assert row["lastSeen"].replace("Z", "+00:00") == max(starts).isoformat()


def test_failure_map_is_bounded_and_consistent(world: World, customer: TestClient) -> None:
    data = get_data(customer, "FailureMap", **PERIOD, vehicles=ham_ids(world))
    (layer,) = data["maps"]
    assert layer["mapId"] == "hall-1"
    assert 0 < layer["pointsTotal"] <= len(world.truth.error_episodes)
    assert len(layer["points"]) == min(layer["pointsTotal"], 2000)
    assert sum(cell[2] for cell in layer["density"]["cells"]) == layer["pointsTotal"]
    track = layer["track"]
    assert track["cells"] and len(track["cells"]) <= track["columns"] * track["rows"]
    assert max(track["columns"], track["rows"]) <= 120
    box = layer["bounds"]
    for point in layer["points"]:
        assert box["minX"] <= point["x"] <= box["maxX"]
        assert box["minY"] <= point["y"] <= box["maxY"]
    fatal = get_data(customer, "FailureMap", **PERIOD, vehicles=ham_ids(world), level="FATAL")
    assert {p["level"] for p in fatal["maps"][0]["points"]} == {"FATAL"}


def test_a_density_cell_leads_to_the_episodes_it_counts(world: World, customer: TestClient) -> None:
    """The history (and its CSV) filtered to each of the densest cells of the map lists as
    many episodes as the cell counts, all on that map."""
    (layer,) = get_data(customer, "FailureMap", **PERIOD, vehicles=ham_ids(world))["maps"]
    density = layer["density"]
    grid = ",".join(
        str(density[key]) for key in ("originX", "originY", "cellSize", "columns", "rows")
    )
    for column, row, count in sorted(density["cells"], key=lambda cell: -cell[2])[:3]:
        cell = {"mapId": layer["mapId"], "cell": f"{column},{row}", "grid": grid}
        page = get_data(customer, "ErrorHistory", **PERIOD, vehicles=ham_ids(world), **cell)
        assert page["total"] == count
        assert {item["mapId"] for item in page["items"]} == {layer["mapId"]}
        csv_text = customer.get(
            "/v2/Analytics/ErrorHistory.csv", params={**PERIOD, "vehicles": ham_ids(world), **cell}
        ).text
        assert len(csv_text.strip().splitlines()) == 1 + count


def test_history_pages_and_csv_match_truth(world: World, customer: TestClient) -> None:
    common = {**PERIOD, "vehicles": ham_ids(world), "sort": "start"}
    first = get_data(customer, "ErrorHistory", **common, pageSize=100)
    assert first["total"] == len(world.truth.error_episodes)
    rows = []
    for page in range(1, first["pages"] + 1):
        rows += get_data(customer, "ErrorHistory", **common, pageSize=100, page=page)["items"]
    truth = sorted(world.truth.error_episodes, key=lambda e: e.start)
    assert [r["start"].replace("Z", "+00:00") for r in rows] == [e.start.isoformat() for e in truth]
    assert Counter((r["errorType"], r["level"]) for r in rows) == Counter(
        (e.error_type, e.level) for e in truth
    )
    response = customer.get("/v2/Analytics/ErrorHistory.csv", params=common)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert table[0][:3] == ["vehicle id", "vehicle", "error type"]
    assert [(int(r[0]), r[2], r[3]) for r in table[1:]] == [
        (r["vehicleId"], r["errorType"], r["level"]) for r in rows
    ]


def test_history_filters_and_sorting(world: World, customer: TestClient) -> None:
    common = {**PERIOD, "vehicles": ham_ids(world)}
    fatal = get_data(customer, "ErrorHistory", **common, level="FATAL", pageSize=500)
    assert fatal["total"] == sum(1 for e in world.truth.error_episodes if e.level == "FATAL")
    assert {r["level"] for r in fatal["items"]} == {"FATAL"}
    # The fatal errors' tiles lead to the stop levels: as many rows as the tile counts.
    stops = get_data(customer, "ErrorHistory", **common, level=list(STOP), pageSize=500)
    assert stops["total"] == sum(1 for e in world.truth.error_episodes if e.level in STOP)
    assert stops["total"] > fatal["total"]  # the world's 3.0 vehicles report CRITICAL too
    tile = get_data(customer, "Failures", **common, combined="true")["fleet"]["current"]
    assert tile["stopEpisodes"] == stops["total"]
    assert {r["level"] for r in stops["items"]} == set(STOP)
    one = world.vehicle_id("HAM-03")
    mine = get_data(customer, "ErrorHistory", **common, vehicle=one, sort="-duration")
    assert mine["total"] == sum(
        1 for e in world.truth.error_episodes if e.serial_number == "HAM-03"
    )
    durations = [r["durationSeconds"] for r in mine["items"]]
    assert durations == sorted(durations, reverse=True) and mine["sort"] == "-duration"
    typed = get_data(customer, "ErrorHistory", **common, errorType="obstacleDetected")
    assert {r["errorType"] for r in typed["items"]} == {"obstacleDetected"}


def test_history_last_page_equals_the_tail(world: World, customer: TestClient) -> None:
    common = {**PERIOD, "vehicles": ham_ids(world), "sort": "-level"}
    everything = get_data(customer, "ErrorHistory", **common, pageSize=500)["items"]
    page_size = 13
    pages = (len(everything) + page_size - 1) // page_size
    last = get_data(customer, "ErrorHistory", **common, pageSize=page_size, page=pages)
    assert last["items"] == everything[(pages - 1) * page_size :]
    middle = get_data(customer, "ErrorHistory", **common, pageSize=page_size, page=pages - 2)
    assert middle["items"] == everything[(pages - 3) * page_size : (pages - 2) * page_size]


def test_history_csv_is_in_the_users_language(world: World, customer: TestClient) -> None:
    """The CSV's header follows the language saved for the user (who comes with the scope)."""
    common = {**PERIOD, "vehicles": ham_ids(world)}

    def set_language(language: str) -> None:
        response = customer.patch(
            "/v2/User/me",
            json={"language": language},
            headers={CSRF_HEADER: customer.cookies[CSRF_COOKIE]},
        )
        assert response.status_code == 200

    set_language("de")
    try:
        response = customer.get("/v2/Analytics/ErrorHistory.csv", params=common)
        header = next(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
        assert header[:3] == ["Fahrzeug-ID", "Fahrzeug", "Fehlertyp"]
    finally:
        set_language("en")


def test_history_csv_follows_the_browser_for_a_user_who_chose_no_language(
    customer2: TestClient,
) -> None:
    """The demo users have chosen no language: the CSV is in the request's (Accept-Language,
    as the app's pages are in the browser's)."""

    def header(language: str, separator: str) -> list[str]:
        response = customer2.get(
            "/v2/Analytics/ErrorHistory.csv", params=PERIOD, headers={"Accept-Language": language}
        )
        assert response.status_code == 200, response.text
        text = response.content.decode("utf-8-sig")
        return next(csv.reader(io.StringIO(text), delimiter=separator))

    assert customer2.get("/v2/User/me").json()["data"]["language"] is None
    assert header("de-DE,de;q=0.9", ";")[:3] == ["Fahrzeug-ID", "Fahrzeug", "Fehlertyp"]
    assert header("en-US", ",")[:3] == ["vehicle id", "vehicle", "error type"]


def _csv_rows(customer: TestClient, params: dict[str, str], separator: str) -> list[list[str]]:
    response = customer.get("/v2/Analytics/ErrorHistory.csv", params=params)
    assert response.status_code == 200
    assert response.content.startswith("\ufeff".encode())  # Excel reads UTF-8 by the BOM
    text = response.content.decode("utf-8-sig")
    assert "\r\n" in text
    return list(csv.reader(io.StringIO(text), delimiter=separator))


def test_history_csv_separators_and_site_times_per_language(
    world: World, customer: TestClient
) -> None:
    """German: ";" and the decimal comma; English: "," and the point (as the chart CSVs);
    both with times in the site's zone (Europe/Berlin), which the header names."""
    common = {**PERIOD, "vehicles": ham_ids(world), "sort": "-duration"}
    items = get_data(customer, "ErrorHistory", **common, pageSize=500)["items"]
    longest = items[0]
    # Hand-computed: the API's UTC start, in Berlin (CEST +2 before 2026-10-25 03:00, CET +1).
    start = datetime.fromisoformat(longest["start"].replace("Z", "+00:00"))
    offset = timedelta(hours=2 if start < datetime(2026, 10, 25, 1, tzinfo=UTC) else 1)
    berlin = (start + offset).strftime("%Y-%m-%d %H:%M:%S")
    seconds = f"{longest['durationSeconds']:.3f}".rstrip("0").rstrip(".")

    english = _csv_rows(customer, common, ",")
    assert english[0][5:8] == ["start (Europe/Berlin)", "end (Europe/Berlin)", "duration (s)"]
    assert english[1][5] == berlin and english[1][7] == seconds
    assert len(english) == len(items) + 1 and all(len(row) == 12 for row in english)

    customer.patch(
        "/v2/User/me", json={"language": "de"}, headers={CSRF_HEADER: customer.cookies[CSRF_COOKIE]}
    )
    try:
        german = _csv_rows(customer, common, ";")
    finally:
        customer.patch(
            "/v2/User/me",
            json={"language": "en"},
            headers={CSRF_HEADER: customer.cookies[CSRF_COOKIE]},
        )
    assert german[0][5:8] == ["Beginn (Europe/Berlin)", "Ende (Europe/Berlin)", "Dauer (s)"]
    # The levels as the German pages name them (English keeps VDA 5050's words).
    german_levels = {
        "WARNING": "Warnung",
        "URGENT": "Dringend",
        "CRITICAL": "Kritisch",
        "FATAL": "Fatal",
    }
    assert [row[3] for row in german[1:]] == [
        german_levels.get(item["level"], item["level"]) for item in items
    ]
    assert {row[3] for row in german[1:]} >= {"Warnung", "Fatal"}
    assert german[1][5] == berlin and german[1][7] == seconds.replace(".", ",")
    assert all(len(row) == 12 for row in german)
    # Every number in the German file with the decimal comma, none with a point.
    durations = [f"{item['durationSeconds']:.3f}".rstrip("0").rstrip(".") for item in items]
    assert [row[7] for row in german[1:]] == [value.replace(".", ",") for value in durations]
    assert not any("." in row[column] for row in german[1:] for column in (7, 9, 10))


def test_history_csv_header_and_numbers_for_sites_in_several_zones() -> None:
    """Sites in different zones: the header says "site time" and a last column names each
    row's zone; numbers keep at most three decimals, with the language's decimal mark."""
    german = csv_header("de", {"Europe/Berlin", "Europe/London"})
    assert german[5:7] == ["Beginn (Ortszeit)", "Ende (Ortszeit)"] and german[-1] == "Zeitzone"
    english = csv_header("en", {"Europe/Berlin"})
    assert english[5] == "start (Europe/Berlin)" and len(english) == 12
    assert CsvConvention.of("de").number(1234.5678) == "1234,568"
    assert CsvConvention.of("en").number(1234.5) == "1234.5"
    assert CsvConvention.of("en").number(-0.0001) == "0"
    assert CsvConvention.of("de").separator == ";" and CsvConvention.of("en").separator == ","
