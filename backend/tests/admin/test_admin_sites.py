"""Sites through /v2/Admin: time zones, create, change field by field (shifts without
overlaps, workflow rules that compile and have the ``workflow`` group), the workflow preview
against the site's recent order ids (ingested for real, as derivation assigns them), the
re-derivation a change of rules queues, and the audit entries."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import duckdb
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.appstore.models import Organization, RederiveJob, Site
from fleetscope.appstore.organizations import create_site
from fleetscope.appstore.shifts import default_shifts
from fleetscope.demo.seed import DemoData
from fleetscope.i18n.admin_messages import SHIFT_NAME_DUPLICATE
from tests.admin.admin_kit import SUPERUSER, audit_entries, data, last_audit, refused
from tests.ingest.vda import T0, line, state

pytestmark = pytest.mark.sqlite_only
SITES = "/v2/Admin/Sites"
NIGHT = {"id": "night", "name": "Night", "start": "22:00", "end": "06:00", "weekdays": [0, 1]}
WEEKDAYS = "must list one or more days, each once, 0 (Monday) to 6"
EARLY = {"id": "early", "name": "Early", "start": "06:00", "end": "14:00", "weekdays": [1]}


def test_time_zones_are_the_iana_names_sorted(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    zones = data(client.get("/v2/Admin/TimeZones"))
    assert zones == sorted(zones) and len(zones) > 300
    assert {"Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata"} <= set(zones)
    assert not [zone for zone in zones if zone.startswith(("posix/", "right/"))]
    # Not "localtime" (the host's link: every analysis of its site failed in the fact store's
    # engine), "Factory" or the backward links of old software.
    assert not {"localtime", "Factory", "EST5EDT", "US/Eastern", "GB", "Cuba"} & set(zones)
    with duckdb.connect() as engine:
        known = {
            row[0] for row in engine.execute("SELECT name FROM pg_timezone_names()").fetchall()
        }
    assert set(zones) <= known


def test_create_list_get_and_the_create_audit_entry(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    alpen = seeded.organization_ids["Alpenfracht AG"]
    body = {"organizationId": alpen, "name": "Linz", "timeZone": "Europe/Vienna"}
    created = data(client.post(SITES, json={**body, "mqttInterface": "linz"}), 201)
    assert created == {
        "id": created["id"],
        "organizationId": alpen,
        "organizationName": "Alpenfracht AG",
        "name": "Linz",
        "timeZone": "Europe/Vienna",
        "mqttInterface": "linz",
        "shifts": default_shifts(),
        "workflowRules": [],
        "loadActionTypes": [],
        "vehicleCount": 0,
        "version": created["version"],  # tells states apart: test_admin_concurrent_changes.py
    }
    entry = last_audit(session_factory)
    assert (entry.action, entry.entity_type, entry.entity_id, entry.before) == (
        "site.create",
        "site",
        str(created["id"]),
        None,
    )
    assert entry.after is not None and entry.after["timeZone"] == "Europe/Vienna"
    listed = data(client.get(SITES, params={"organizationId": alpen}))
    assert [(s["name"], s["vehicleCount"]) for s in listed] == [("Linz", 0), ("Munich Hub", 4)]
    everything = data(client.get(SITES))
    assert [s["name"] for s in everything] == ["Linz", "Munich Hub", "Hamburg DC"]
    assert data(client.get(f"{SITES}/{created['id']}")) == created
    assert refused(client.get(f"{SITES}/99999"), 404) == "site 99999 not found"


@pytest.mark.parametrize(
    ("language", "names"),
    [("en", ["Early", "Late", "Night"]), ("de-DE,de;q=0.9", ["Früh", "Spät", "Nacht"])],
)
def test_a_new_sites_shifts_are_named_in_the_creators_language(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    language: str,
    names: list[str],
) -> None:
    login(client, SUPERUSER)
    body = {"organizationId": seeded.organization_ids["Alpenfracht AG"], "name": "Graz"}
    created = data(client.post(SITES, json=body, headers={"Accept-Language": language}), 201)
    every_day = [0, 1, 2, 3, 4, 5, 6]
    assert created["shifts"] == [
        {"id": "early", "name": names[0], "start": "06:00", "end": "14:00", "weekdays": every_day},
        {"id": "late", "name": names[1], "start": "14:00", "end": "22:00", "weekdays": every_day},
        {"id": "night", "name": names[2], "start": "22:00", "end": "06:00", "weekdays": every_day},
    ]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"name": "X", "timeZone": "Mars/Olympus"}, 422, "timeZone: unknown time zone"),
        ({"name": "X", "timeZone": "posix/Europe/Berlin"}, 422, "timeZone: unknown time zone"),
        ({"name": "X", "timeZone": "localtime"}, 422, "timeZone: unknown time zone"),
        ({"name": "X", "timeZone": "EST5EDT"}, 422, "timeZone: unknown time zone"),
        ({"name": "Hamburg DC"}, 409, "site 'Hamburg DC' already exists"),
        ({"name": "X", "mqttInterface": "uagv"}, 409, "mqttInterface: 'uagv' already belongs"),
        ({"name": "X", "mqttInterface": "a/b"}, 422, "mqttInterface: 'a/b' must be one MQTT"),
        ({"name": "X", "mqttInterface": "   "}, 422, "mqttInterface: '   ' must be one MQTT"),
        ({"name": "X", "mqttInterface": "uagv "}, 422, "mqttInterface: 'uagv ' must be one MQTT"),
        ({"name": ""}, 422, "name"),
        ({"name": "   "}, 422, "name: must not be empty"),
        ({"name": "X", "organizationId": 4242}, 422, "organizationId: organization 4242"),
        ({"name": "X", "organizationId": 2**31}, 422, "organizationId"),
        # JSON's own types only: lax mode read true as organization 1.
        ({"name": "X", "organizationId": True}, 422, "organizationId: Input should be a valid int"),
    ],
)
def test_create_refusals_name_the_field(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
    body: dict[str, Any],
    status: int,
    message: str,
) -> None:
    login(client, SUPERUSER)
    full = {"organizationId": seeded.organization_ids["Nordlicht Logistik"], **body}
    assert refused(client.post(SITES, json=full), status).startswith(message)
    assert audit_entries(session_factory) == []


def test_patch_changes_only_the_given_fields_and_audits_what_changed(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    site = seeded.site_ids["Munich Hub"]
    changed = data(
        client.patch(
            f"{SITES}/{site}",
            json={"name": "München Hub", "timeZone": "UTC", "shifts": [NIGHT, EARLY]},
        )
    )
    # Shifts and names alter no derived fact; the time zone cuts the daily rollups.
    job = changed["job"]
    munich = sorted(v for serial, v in seeded.vehicle_ids.items() if serial.startswith("MUC"))
    assert (job["reason"], job["siteId"], job["vehicleIds"]) == ("timeZone", site, munich)
    assert (changed["site"]["name"], changed["site"]["timeZone"]) == ("München Hub", "UTC")
    assert changed["site"]["shifts"] == [NIGHT, EARLY]
    assert changed["site"]["mqttInterface"] == "uagv-muc"
    entry = last_audit(session_factory)
    assert entry.action == "site.update"
    assert entry.before == {
        "id": site,
        "name": "Munich Hub",
        "timeZone": "Europe/Berlin",
        "shifts": default_shifts(),
    }
    assert entry.after == {
        "id": site,
        "name": "München Hub",
        "timeZone": "UTC",
        "shifts": [NIGHT, EARLY],
    }

    cleared = data(client.patch(f"{SITES}/{site}", json={"mqttInterface": None}))
    assert cleared["site"]["mqttInterface"] is None and cleared["job"] is None
    assert last_audit(session_factory).after == {"id": site, "mqttInterface": None}
    before = len(audit_entries(session_factory))
    # The same values again: nothing changes, no entry.
    assert data(client.patch(f"{SITES}/{site}", json={"timeZone": "UTC"}))["job"] is None
    assert len(audit_entries(session_factory)) == before


@pytest.mark.parametrize(
    ("shifts", "message"),
    [
        (
            [NIGHT, {**EARLY, "start": "05:00"}],
            "shifts: 'Night' and 'Early' overlap on Tuesday",
        ),
        (
            # Sunday's night shift runs into Monday's early one at 05:00.
            [
                {**NIGHT, "weekdays": [6]},
                {**EARLY, "start": "05:30", "end": "13:00", "weekdays": [0]},
            ],
            "shifts: 'Night' and 'Early' overlap on Monday",
        ),
        ([NIGHT, {**EARLY, "id": "night"}], "shifts[1].id: duplicate shift id 'night'"),
        ([{**NIGHT, "start": "25:00"}], "shifts[0].start: must be a time HH:MM"),
        ([{**NIGHT, "end": "22:00"}], "shifts[0].end: must differ from start (a shift of 0 hours)"),
        ([{**NIGHT, "weekdays": [7]}], f"shifts[0].weekdays: {WEEKDAYS}"),
        # A shift of no day never comes; a day twice is a typo, not twice the shift.
        ([EARLY, {**NIGHT, "weekdays": []}], f"shifts[1].weekdays: {WEEKDAYS}"),
        ([{**NIGHT, "weekdays": [0, 0]}], f"shifts[0].weekdays: {WEEKDAYS}"),
        ([{**NIGHT, "id": "all"}], "shifts[0].id: must be a non-empty text other than 'all'"),
        # Names as the shift editor compares them: trimmed and in any case.
        (
            [{**EARLY, "name": "A", "weekdays": [0]}, {**NIGHT, "name": " a ", "weekdays": [0]}],
            "shifts[1].name: another shift is already called 'a'",
        ),
        (
            [EARLY, {**NIGHT, "weekdays": [3]}, {**NIGHT, "id": "n2", "name": "EARLY"}],
            "shifts[2].name: another shift is already called 'EARLY'",
        ),
        # No weekday: a boolean or a fraction (lax parsing read both as Tuesday).
        ([{**EARLY, "weekdays": [True]}], "shifts.0.weekdays.0: Input should be a valid integer"),
        ([{**EARLY, "weekdays": [1.0]}], "shifts.0.weekdays.0: Input should be a valid integer"),
    ],
)
def test_shift_refusals_name_the_shifts(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    shifts: list[dict[str, Any]],
    message: str,
) -> None:
    login(client, SUPERUSER)
    response = client.patch(f"{SITES}/{seeded.site_ids['Munich Hub']}", json={"shifts": shifts})
    assert refused(response, 422) == message


def test_two_shifts_of_one_name_are_refused_at_creation_too(
    session_factory: SessionFactory, seeded: DemoData
) -> None:
    """What the default calendar of a new site must pass, another calendar given to the
    store's ``create_site`` (the demo seed's path) must too."""
    same = [
        {"id": "a", "name": "A", "start": "06:00", "end": "07:00", "weekdays": [0]},
        {"id": "b", "name": "A", "start": "08:00", "end": "09:00", "weekdays": [0]},
    ]
    with session_factory() as session:
        organization = session.get(Organization, seeded.organization_ids["Alpenfracht AG"])
        assert organization is not None
        with pytest.raises(InvalidInputError) as refusal:
            create_site(session, organization=organization, name="Linz", shifts=same)
    assert refusal.value.message == SHIFT_NAME_DUPLICATE(where="shifts[1]", name="A")
    assert refusal.value.message.render("de") == (
        "shifts[1].name: eine andere Schicht heißt bereits 'A'"
    )


def test_two_shifts_of_one_name_are_a_422_in_both_languages(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    same = [
        {"id": "a", "name": "A", "start": "06:00", "end": "07:00", "weekdays": [0]},
        {"id": "b", "name": "A", "start": "08:00", "end": "09:00", "weekdays": [0]},
    ]
    path = f"{SITES}/{seeded.site_ids['Munich Hub']}"
    assert refused(client.patch(path, json={"shifts": same}), 422) == (
        "shifts[1].name: another shift is already called 'A'"
    )
    german = client.patch(path, json={"shifts": same}, headers={"Accept-Language": "de"})
    assert refused(german, 422) == "shifts[1].name: eine andere Schicht heißt bereits 'A'"
    # A different name is a calendar of its own.
    renamed = [same[0], {**same[1], "name": "B"}]
    assert data(client.patch(path, json={"shifts": renamed}))["site"]["shifts"] == renamed


def test_overlap_message_in_german(
    client: TestClient, seeded: DemoData, login: Callable[..., Any]
) -> None:
    login(client, SUPERUSER)
    response = client.patch(
        f"{SITES}/{seeded.site_ids['Munich Hub']}",
        json={"shifts": [NIGHT, {**EARLY, "start": "05:00"}]},
        headers={"Accept-Language": "de"},
    )
    assert refused(response, 422) == "shifts: 'Night' und 'Early' überschneiden sich am Dienstag"


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (
            ["^(?P<workflow>A)", "("],
            "workflowRules[1]: not a valid regular expression (error at position 0)",
        ),
        (["^PICK-\\d+$"], "workflowRules[0]: has no named group (?P<workflow>...)"),
        (
            ["^(?P<workflow>A)", "(?<=X)(?P<workflow>A)"],
            "workflowRules[1]: not supported ('(?<='): rules use RE2 syntax,",
        ),
        (["  "], "workflowRules[0]: must not be empty"),
        (["(?P<workflow>" + "a" * 600 + ")"], "workflowRules[0]: longer than 500 characters"),
    ],
)
def test_invalid_workflow_rules_are_refused_by_index(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
    rules: list[str],
    message: str,
) -> None:
    login(client, SUPERUSER)
    response = client.patch(
        f"{SITES}/{seeded.site_ids['Hamburg DC']}", json={"workflowRules": rules}
    )
    assert refused(response, 422).startswith(message)
    with session_factory() as session:
        assert session.scalars(select(RederiveJob)).all() == []


@pytest.mark.parametrize(
    ("pattern", "english", "german"),
    [
        (
            "(",
            "not a valid regular expression (error at position 0)",
            "kein gültiger regulärer Ausdruck (Fehler an Position 0)",
        ),
        (
            "^(?P<workflow>A{3,1})",
            "not a valid regular expression (error at position 16)",
            "kein gültiger regulärer Ausdruck (Fehler an Position 16)",
        ),
        (  # valid for Python, not for RE2: the part RE2 names, no English reason
            r"^(?P<workflow>A)-\1",
            "not supported ('\\1'): rules use RE2 syntax, which runs in linear time and has "
            "no lookarounds or backreferences",
            "nicht unterstützt ('\\1'): Regeln verwenden RE2-Syntax, die in linearer Zeit "
            "läuft und keine Lookarounds oder Rückverweise kennt",
        ),
    ],
)
def test_an_invalid_regular_expression_is_told_by_its_position_in_both_languages(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    pattern: str,
    english: str,
    german: str,
) -> None:
    """Python's reason is English only: the German message names the position alone."""
    login(client, SUPERUSER)
    path = f"{SITES}/{seeded.site_ids['Hamburg DC']}"
    rules = {"workflowRules": ["^(?P<workflow>A)", pattern]}
    de = {"Accept-Language": "de"}
    assert refused(client.patch(path, json=rules), 422) == f"workflowRules[1]: {english}"
    assert refused(client.patch(path, json=rules, headers=de), 422) == (
        f"workflowRules[1]: {german}"
    )
    # The preview reports the rule with the same text, in the language of the request.
    for headers, text in (({}, english), (de, german)):
        preview = data(client.post(f"{path}/WorkflowPreview", json=rules, headers=headers))
        assert [rule["error"] for rule in preview["rules"]] == [None, f"workflowRules[1]: {text}"]


def test_a_change_of_rules_or_load_actions_queues_a_rederivation_of_the_sites_vehicles(
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    site = seeded.site_ids["Munich Hub"]
    rules = ["^(?P<workflow>[A-Z]+)_"]
    changed = data(client.patch(f"{SITES}/{site}", json={"workflowRules": rules}))
    assert changed["site"]["workflowRules"] == rules
    job = changed["job"]
    munich = sorted(v for serial, v in seeded.vehicle_ids.items() if serial.startswith("MUC"))
    assert (job["state"], job["reason"], job["siteId"], job["vehicleIds"]) == (
        "queued",
        "workflowRules",
        site,
        munich,
    )
    assert job["createdBy"] == SUPERUSER
    entry = last_audit(session_factory)
    assert (entry.action, entry.before, entry.after) == (
        "site.update",
        {"id": site, "workflowRules": []},
        {"id": site, "workflowRules": rules},
    )
    loads = data(client.patch(f"{SITES}/{site}", json={"loadActionTypes": [" stack", "Stack"]}))
    assert loads["site"]["loadActionTypes"] == ["stack"]
    assert loads["job"]["reason"] == "loadActionTypes"
    with session_factory() as session:
        rows = session.scalars(select(RederiveJob).order_by(RederiveJob.id)).all()
        assert [(r.reason, r.site_id, sorted(r.vehicle_ids)) for r in rows] == [
            ("workflowRules", site, munich),
            ("loadActionTypes", site, munich),
        ]
        # The server's runner may have taken them up already.
        assert {r.state for r in rows} <= {"queued", "running", "done"}
        stored = session.get(Site, site)
        assert stored is not None and stored.workflow_rules == rules


def _orders(serial: str, order_ids: list[str]) -> bytes:
    """NDJSON of a vehicle driving each order from node 1 to 2, then idle (finished)."""
    lines: list[bytes] = []
    header, at = 0, T0
    for order_id in order_ids:
        for nodes, last in (((1, 2), 0), ((2,), 1), ((), 2)):
            header += 1
            at += timedelta(seconds=5)
            payload = state(serial, header, at, order_id=order_id, nodes=nodes, last_node=last)
            lines.append(line(serial, "state", payload, interface="linz"))
    return b"\n".join(lines) + b"\n"


def test_workflow_preview_is_what_derivation_assigns(
    app: FastAPI,
    client: TestClient,
    seeded: DemoData,
    login: Callable[..., Any],
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    body = {"organizationId": seeded.organization_ids["Alpenfracht AG"], "name": "Linz"}
    site = data(client.post(SITES, json=body), 201)["id"]
    preview_path = f"{SITES}/{site}/WorkflowPreview"
    empty = data(client.post(preview_path, json={"workflowRules": []}))
    assert (empty["orders"], empty["assigned"], empty["unassigned"]) == ([], 0, 0)

    token = data(client.post(f"{SITES}/{site}/Tokens", json={"name": "t"}), 201)["token"]
    ids = ["PICK_A-000001", "DROP-17", "weird"]
    sent = client.post(
        "/v2/Ingest/vda5050",
        content=_orders("AGV-1", ids),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert data(sent)["accepted"] == 9
    entries_before = len(audit_entries(session_factory))

    rules = ["^(?P<workflow>PICK_[A-Z])-", "(", "^(?P<workflow>[A-Z]+)-\\d+$", "^x$"]
    preview = data(client.post(preview_path, json={"workflowRules": rules}))
    assert preview["orders"] == [  # newest first
        {"orderId": "weird", "workflow": None, "ruleIndex": None},
        {"orderId": "DROP-17", "workflow": "DROP", "ruleIndex": 2},
        {"orderId": "PICK_A-000001", "workflow": "PICK_A", "ruleIndex": 0},
    ]
    matched = [(rule["index"], rule["matched"]) for rule in preview["rules"]]
    assert matched == [(0, 1), (1, 0), (2, 1), (3, 0)]
    assert preview["rules"][1]["error"] == (
        "workflowRules[1]: not a valid regular expression (error at position 0)"
    )
    assert preview["rules"][3]["error"] == "workflowRules[3]: has no named group (?P<workflow>...)"
    assert [preview["rules"][i]["error"] for i in (0, 2)] == [None, None]
    assert (preview["assigned"], preview["unassigned"], preview["defaultRuleApplies"]) == (
        2,
        1,
        False,
    )
    german = client.post(
        preview_path, json={"workflowRules": rules}, headers={"Accept-Language": "de"}
    )
    assert data(german)["rules"][3]["error"].startswith("workflowRules[3]: hat keine benannte")
    assert data(german)["rules"][1]["error"] == (
        "workflowRules[1]: kein gültiger regulärer Ausdruck (Fehler an Position 0)"
    )

    # Without rules the default rule applies: exactly the workflows the derivation stored.
    default = data(client.post(preview_path, json={"workflowRules": []}))
    assert default["defaultRuleApplies"] is True
    assert [(o["orderId"], o["workflow"]) for o in default["orders"]] == [
        ("weird", None),
        ("DROP-17", "DROP"),
        ("PICK_A-000001", "PICK_A"),
    ]
    cursor = app.state.ingestion.store.cursor()
    try:
        stored = dict(cursor.execute("SELECT order_id, workflow FROM orders").fetchall())
    finally:
        cursor.close()
    assert stored == {"weird": "unassigned", "DROP-17": "DROP", "PICK_A-000001": "PICK_A"}
    # A preview changes nothing.
    assert len(audit_entries(session_factory)) == entries_before
    assert data(client.get(f"{SITES}/{site}"))["workflowRules"] == []
