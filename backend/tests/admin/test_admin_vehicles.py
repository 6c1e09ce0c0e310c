"""Vehicles through /v2/Admin: the list, display name, battery capacity, retirement, and the
move to another site of the same organization (a re-derivation of the vehicle), with audit
entries."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import Vehicle
from fleetscope.demo.seed import DEMO_MANUFACTURER, DemoData
from tests.admin.admin_kit import SUPERUSER, audit_entries, data, last_audit, refused
from tests.ingest.vda import T0, line, state

pytestmark = pytest.mark.sqlite_only
VEHICLES = "/v2/Admin/Vehicles"


def test_list_by_site_and_organization(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    everything = data(client.get(VEHICLES))
    assert len(everything) == 12  # 8 in Hamburg, 4 in Munich
    munich = data(client.get(VEHICLES, params={"siteId": seeded.site_ids["Munich Hub"]}))
    assert sorted(v["serialNumber"] for v in munich) == ["MUC-01", "MUC-02", "MUC-03", "MUC-04"]
    first = next(v for v in munich if v["serialNumber"] == "MUC-01")
    assert first["id"] == seeded.vehicle_ids["MUC-01"]
    assert (first["siteName"], first["organizationId"]) == (
        "Munich Hub",
        seeded.organization_ids["Alpenfracht AG"],
    )
    by_org = data(
        client.get(
            VEHICLES, params={"organizationId": seeded.organization_ids["Nordlicht Logistik"]}
        )
    )
    assert {v["siteName"] for v in by_org} == {"Hamburg DC"} and len(by_org) == 8
    assert "organizationId" in refused(client.get(VEHICLES, params={"organizationId": 0}), 422)


def test_name_and_battery_capacity(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    vehicle = seeded.vehicle_ids["MUC-02"]
    path = f"{VEHICLES}/{vehicle}"
    changed = data(client.patch(path, json={"name": " Tugger 2 ", "batteryCapacityWh": 3600}))
    assert changed["job"] is None
    assert (changed["vehicle"]["name"], changed["vehicle"]["batteryCapacityWh"]) == (
        "Tugger 2",
        3600.0,
    )
    entry = last_audit(session_factory)
    assert (entry.action, entry.entity_type, entry.entity_id) == (
        "vehicle.update",
        "vehicle",
        str(vehicle),
    )
    assert entry.after == {"id": vehicle, "name": "Tugger 2", "batteryCapacityWh": 3600.0}
    assert entry.before is not None and entry.before["name"] != "Tugger 2"
    # null removes the capacity; a missing field leaves it.
    assert data(client.patch(path, json={"name": "Tugger 2b"}))["vehicle"]["batteryCapacityWh"]
    assert (
        data(client.patch(path, json={"batteryCapacityWh": None}))["vehicle"]["batteryCapacityWh"]
        is None
    )
    count = len(audit_entries(session_factory))
    for body, field in (
        ({"batteryCapacityWh": 0}, "batteryCapacityWh"),
        ({"batteryCapacityWh": -5}, "batteryCapacityWh"),
        ({"name": ""}, "name"),
        ({"serialNumber": "X"}, "serialNumber"),
        # JSON's own types only: lax mode read these as 1000, true and site 1.
        ({"batteryCapacityWh": "1000"}, "batteryCapacityWh: Input should be a valid number"),
        ({"retired": "yes"}, "retired: Input should be a valid boolean"),
        ({"retired": 1}, "retired: Input should be a valid boolean"),
        ({"siteId": True}, "siteId: Input should be a valid integer"),
    ):
        assert field in refused(client.patch(path, json=body), 422)
    assert refused(client.patch(path, json={"name": "  "}), 422) == "name: must not be empty"
    # Not a number to keep: told as such, not as "less than or equal to 10000000".
    for number in ("NaN", "Infinity", "1e309"):
        body = f'{{"batteryCapacityWh": {number}}}'
        headers = {"Content-Type": "application/json"}
        assert refused(client.patch(path, content=body, headers=headers), 422) == (
            "batteryCapacityWh: Input should be a finite number"
        )
    assert refused(client.patch(f"{VEHICLES}/99999", json={"name": "x"}), 404) == (
        "vehicle 99999 not found"
    )
    assert len(audit_entries(session_factory)) == count


def _new_alpenfracht_site(client: TestClient, seeded: DemoData) -> int:
    """A second site of Alpenfracht AG (Munich Hub's organization), without vehicles."""
    alpen = seeded.organization_ids["Alpenfracht AG"]
    body = {"organizationId": alpen, "name": "Linz"}
    created: int = data(client.post("/v2/Admin/Sites", json=body), 201)["id"]
    return created


def test_move_to_another_site_of_the_organization_queues_its_rederivation(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    linz = _new_alpenfracht_site(client, seeded)
    vehicle = seeded.vehicle_ids["MUC-03"]
    path = f"{VEHICLES}/{vehicle}"
    # A site of another organization, and one that does not exist: the same 422.
    for site in (seeded.site_ids["Hamburg DC"], 99999):
        assert refused(client.patch(path, json={"siteId": site}), 422) == (
            f"siteId: site {site} is not a site of the vehicle's organization"
        )
    moved = data(client.patch(path, json={"siteId": linz}))
    assert (moved["vehicle"]["siteId"], moved["vehicle"]["siteName"]) == (linz, "Linz")
    job = moved["job"]
    assert (job["state"], job["reason"], job["siteId"], job["vehicleIds"]) == (
        "queued",
        "vehicleSite",
        linz,
        [vehicle],
    )
    entry = last_audit(session_factory)
    assert (entry.before, entry.after) == (
        {"id": vehicle, "siteId": seeded.site_ids["Munich Hub"]},
        {"id": vehicle, "siteId": linz},
    )
    sites = {s["name"]: s["vehicleCount"] for s in data(client.get("/v2/Admin/Sites"))}
    assert (sites["Linz"], sites["Munich Hub"]) == (1, 3)
    # Back to Munich, where another vehicle of the same identity appeared meanwhile: a 409.
    with session_factory() as session:
        session.add(
            Vehicle(
                site_id=seeded.site_ids["Munich Hub"],
                manufacturer=moved["vehicle"]["manufacturer"],
                serial_number="MUC-03",
                name="newcomer",
            )
        )
        session.commit()
    back = client.patch(path, json={"siteId": seeded.site_ids["Munich Hub"]})
    assert refused(back, 409) == (
        f"siteId: site 'Munich Hub' already has a vehicle {moved['vehicle']['manufacturer']}/MUC-03"
    )


def test_a_moved_vehicle_is_written_no_more_through_its_former_site(
    app: FastAPI, client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    """From the moment the move is saved, not when the look-up cache expires (30 s) or the
    move's job starts: what Munich's token still sends registers a newcomer at Munich."""
    login(client, SUPERUSER)
    app.state.ingestion.rederive.stop()  # the move's job, which also forgets it, stays queued
    linz = _new_alpenfracht_site(client, seeded)
    munich = seeded.site_ids["Munich Hub"]
    token = data(client.post(f"/v2/Admin/Sites/{munich}/Tokens", json={"name": "t"}), 201)["token"]
    vehicle = seeded.vehicle_ids["MUC-03"]

    def send(header_id: int) -> None:
        message = state("MUC-03", header_id, T0, manufacturer=DEMO_MANUFACTURER)
        sent = client.post(
            "/v2/Ingest/vda5050",
            content=line("MUC-03", "state", message, manufacturer=DEMO_MANUFACTURER) + b"\n",
            headers={"Authorization": f"Bearer {token}"},
        )
        assert data(sent)["accepted"] == 1

    send(1)  # the vehicle's look-up is cached now
    data(client.patch(f"{VEHICLES}/{vehicle}", json={"siteId": linz}))
    send(2)
    cursor = app.state.ingestion.store.cursor()
    writers = dict(cursor.execute("SELECT header_id, vehicle_id FROM raw_keys").fetchall())
    cursor.close()
    newcomer = next(
        v["id"]
        for v in data(client.get(VEHICLES, params={"siteId": munich}))
        if v["serialNumber"] == "MUC-03"
    )
    assert writers == {1: vehicle, 2: newcomer} and newcomer != vehicle


def test_a_name_another_vehicle_of_the_site_has_is_refused(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    """The name is a vehicle's only label in charts and the machine selector: trimmed and in
    any case, no two vehicles of a site share one once an administrator names them."""
    login(client, SUPERUSER)
    first = f"{VEHICLES}/{seeded.vehicle_ids['HAM-01']}"
    count = len(audit_entries(session_factory))
    for name in ("AGV 02", " agv 02 "):
        assert refused(client.patch(first, json={"name": name}), 409) == (
            "name: another vehicle of site 'Hamburg DC' is already called 'AGV 02'"
        )
    german = client.patch(first, json={"name": "AGV 02"}, headers={"Accept-Language": "de"})
    assert refused(german, 409) == (
        "name: ein anderes Fahrzeug des Standorts 'Hamburg DC' heißt bereits 'AGV 02'"
    )
    assert len(audit_entries(session_factory)) == count
    # Its own name in another case, and a name a vehicle of another site has, are fine.
    assert data(client.patch(first, json={"name": "agv 01"}))["vehicle"]["name"] == "agv 01"
    assert data(client.patch(first, json={"name": "MUC AGV 01"}))["vehicle"]["name"] == (
        "MUC AGV 01"
    )


def test_a_move_into_a_site_where_another_vehicle_has_the_name_is_refused(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    linz = _new_alpenfracht_site(client, seeded)
    first, second = (f"{VEHICLES}/{seeded.vehicle_ids[s]}" for s in ("MUC-01", "MUC-02"))
    data(client.patch(first, json={"siteId": linz}))
    count = len(audit_entries(session_factory))
    data(client.patch(second, json={"name": "Tugger"}))
    data(client.patch(first, json={"name": "TUGGER "}))  # in Linz: no other Tugger there
    back = client.patch(first, json={"siteId": seeded.site_ids["Munich Hub"]})
    assert refused(back, 409) == (
        "siteId: another vehicle of site 'Munich Hub' is already called 'Tugger'"
    )
    # A move together with a new name: the new name is what is taken.
    both = {"siteId": seeded.site_ids["Munich Hub"], "name": "muc agv 03"}
    assert refused(client.patch(first, json=both), 409) == (
        "name: another vehicle of site 'Munich Hub' is already called 'MUC AGV 03'"
    )
    assert len(audit_entries(session_factory)) == count + 2
    moved = data(client.patch(first, json={"siteId": seeded.site_ids["Munich Hub"], "name": "T2"}))
    assert (moved["vehicle"]["siteName"], moved["vehicle"]["name"]) == ("Munich Hub", "T2")


def test_a_vehicle_registered_from_messages_may_have_a_name_another_vehicle_has(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    """Registration names a new vehicle by its serial number, whatever the site's other
    vehicles are called: the rule is on what an administrator changes."""
    login(client, SUPERUSER)
    munich = seeded.site_ids["Munich Hub"]
    renamed = f"{VEHICLES}/{seeded.vehicle_ids['MUC-01']}"
    data(client.patch(renamed, json={"name": "NEW-7"}))
    token = data(client.post(f"/v2/Admin/Sites/{munich}/Tokens", json={"name": "t"}), 201)["token"]
    sent = client.post(
        "/v2/Ingest/vda5050",
        content=line("NEW-7", "state", state("NEW-7", 1, T0)) + b"\n",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert data(sent)["accepted"] == 1
    named = [
        v for v in data(client.get(VEHICLES, params={"siteId": munich})) if v["name"] == "NEW-7"
    ]
    assert sorted(v["serialNumber"] for v in named) == ["MUC-01", "NEW-7"]
    # Other changes of either stay possible; a rename into the shared name does not.
    registered = next(v["id"] for v in named if v["serialNumber"] == "NEW-7")
    data(client.patch(f"{VEHICLES}/{registered}", json={"batteryCapacityWh": 1000}))
    data(client.patch(renamed, json={"name": "new-7"}))
    third = f"{VEHICLES}/{seeded.vehicle_ids['MUC-02']}"
    assert refused(client.patch(third, json={"name": "New-7"}), 409) == (
        "name: another vehicle of site 'Munich Hub' is already called 'new-7'"
    )


def _entry_ids(client: TestClient, **params: Any) -> list[int]:
    """The vehicles of a per-vehicle Productivity answer (one entry per vehicle in scope)."""
    answer = data(client.get("/v2/Analytics/Productivity", params={"combined": "false", **params}))
    return [entry["vehicleId"] for entry in answer["entries"]]


def test_a_retired_vehicle_leaves_the_live_board_and_later_periods_keeping_its_history(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    retired_id, kept_id = seeded.vehicle_ids["MUC-02"], seeded.vehicle_ids["MUC-01"]
    path = f"{VEHICLES}/{retired_id}"
    retired = data(client.patch(path, json={"retired": True}))["vehicle"]
    assert retired["retiredAt"] is not None and retired["serialNumber"] == "MUC-02"
    entry = last_audit(session_factory)
    assert entry.action == "vehicle.update" and entry.before is not None
    assert (entry.before["retiredAt"], entry.after) == (
        None,
        {"id": retired_id, "retiredAt": retired["retiredAt"]},
    )
    # Retiring again changes nothing: the first date stays, no audit entry.
    count = len(audit_entries(session_factory))
    again = data(client.patch(path, json={"retired": True}))["vehicle"]
    assert again["retiredAt"] == retired["retiredAt"]
    assert len(audit_entries(session_factory)) == count
    assert "retired" in refused(client.patch(path, json={"retired": "soon"}), 422)

    login(client, "customer2@demo.fleetscope")  # Alpenfracht AG: the four Munich vehicles
    listed = {v["id"]: v["retiredAt"] for v in data(client.get("/v2/Vehicles"))}
    assert listed[retired_id] == retired["retiredAt"] and listed[kept_id] is None
    board = data(client.get("/v2/Analytics/Statusboard"))
    assert retired_id not in [tile["vehicleId"] for tile in board["vehicles"]]
    assert len(board["vehicles"]) == 3 and sum(board["counts"].values()) == 3
    # A month later "all machines" of this week (and of the week before, its comparison) are
    # those in service; the retired one is there when selected, and in periods it served in.
    with session_factory() as session:
        vehicle = session.get(Vehicle, retired_id)
        assert vehicle is not None and vehicle.retired_at is not None
        vehicle.retired_at -= timedelta(days=30)
        session.commit()
    today = datetime.now(UTC).date()  # the day of retirement is a UTC date
    this_week = {"from": str(today - timedelta(days=6)), "to": str(today)}
    assert _entry_ids(client, **this_week) == [v for v in listed if v != retired_id]
    assert _entry_ids(client, vehicles=str(retired_id), **this_week) == [retired_id]
    served = {"from": str(today - timedelta(days=35)), "to": str(today - timedelta(days=29))}
    assert retired_id in _entry_ids(client, **served)
    # T whose comparison period (the week before) began on its last day; then a day later.
    compared = {"from": str(today - timedelta(days=23)), "to": str(today - timedelta(days=17))}
    assert retired_id in _entry_ids(client, **compared)
    assert retired_id not in _entry_ids(
        client, **{"from": str(today - timedelta(days=22)), "to": str(today - timedelta(days=16))}
    )

    login(client, SUPERUSER)
    back = data(client.patch(path, json={"retired": False}))["vehicle"]
    assert back["retiredAt"] is None
    login(client, "customer2@demo.fleetscope")
    assert len(data(client.get("/v2/Analytics/Statusboard"))["vehicles"]) == 4
    assert retired_id in _entry_ids(client, **this_week)
