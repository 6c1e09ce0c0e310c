"""Dead letters under /v2/Admin/DeadLetters: the paged list and its filters, the payload as a
download, delete, re-ingest (stored or fixed payload; accepted -> deleted and stored, refused
-> the reason and the dead letter stays), audit entries, who may see them."""

import hashlib
from typing import Any

import orjson
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from fleetscope.api.deps import CSRF_HEADER
from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import AuditEntry
from fleetscope.demo.seed import DEMO_MANUFACTURER, DemoData
from fleetscope.facts.store import FactStore
from tests.ingest.vda import T0, line, state

pytestmark = pytest.mark.sqlite_only

SUPERUSER = "superuser@demo.fleetscope"
OTHERS = (
    "customer@demo.fleetscope",
    "partner@demo.fleetscope",
    "support@demo.fleetscope",
    "service@demo.fleetscope",
)
LETTERS = "/v2/Admin/DeadLetters"
TOPIC = f"uagv/v2/{DEMO_MANUFACTURER}/HAM-07/state"
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


def _good_payload(header_id: int) -> dict[str, Any]:
    return state("HAM-07", header_id, T0, manufacturer=DEMO_MANUFACTURER)


def _bad_charge(header_id: int) -> bytes:
    payload = _good_payload(header_id)
    payload["batteryState"]["batteryCharge"] = 250.0
    return orjson.dumps({"topic": TOPIC, "payload": payload})


def _send(client: TestClient, site: int, lines: list[bytes]) -> dict[str, Any]:
    created = client.post(f"/v2/Admin/Sites/{site}/Tokens", json={"name": "gateway"})
    token = created.json()["data"]["token"]
    response = client.post(
        "/v2/Ingest/vda5050",
        content=b"\n".join(lines),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def _stored_messages(app: FastAPI) -> int:
    store: FactStore = app.state.ingestion.store
    return store.table_counts()["raw_keys"]


def _audit(session_factory: SessionFactory) -> list[AuditEntry]:
    """The dead letters' entries (the token each test makes writes one too)."""
    with session_factory() as session:
        entries = session.scalars(select(AuditEntry).order_by(AuditEntry.id))
        return [entry for entry in entries if entry.entity_type == "deadLetter"]


def _letters(client: TestClient, **params: Any) -> dict[str, Any]:
    response = client.get(LETTERS, params=params)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def test_list_pages_and_filters(client: TestClient, seeded: DemoData, login: Any) -> None:
    login(client, SUPERUSER)
    site = seeded.site_ids["Hamburg DC"]
    sent = _send(client, site, [_bad_charge(1), b"{broken", _bad_charge(2), b"[]", _bad_charge(3)])
    assert (sent["accepted"], len(sent["rejected"])) == (0, 5)

    first = _letters(client, pageSize=2)
    assert (first["total"], first["page"], first["pageSize"], first["pages"]) == (5, 1, 2, 3)
    assert first["sort"] == "-id"
    ids = [item["id"] for item in first["items"]]
    third = _letters(client, pageSize=2, page=3)
    assert len(third["items"]) == 1 and third["items"][0]["id"] < min(ids)
    assert _letters(client, pageSize=2, page=4)["items"] == []
    newest = first["items"][0]
    assert (newest["source"], newest["category"], newest["topic"]) == (
        f"http:site-{site}",
        "message",
        TOPIC,
    )
    assert "batteryCharge" in newest["reason"] and "250" in newest["payloadPreview"]
    assert newest["payloadSha256"] == hashlib.sha256(newest["payloadPreview"].encode()).hexdigest()
    lines = _letters(client, category="line")
    assert lines["total"] == 2 and lines["bySource"] == [
        {"source": f"http:site-{site}", "category": "line", "stored": 2, "dropped": 0}
    ]
    assert _letters(client, reason="BATTERYCHARGE")["total"] == 3
    assert _letters(client, source="import")["total"] == 0
    for bad in ({"pageSize": 501}, {"page": 0}, {"category": "x"}, {"receivedFrom": "soon"}):
        response = client.get(LETTERS, params=bad)
        assert response.status_code == 422, bad
        assert response.json()["msg"].startswith(next(iter(bad))), response.json()


def test_payload_download_and_delete(
    app: FastAPI,
    client: TestClient,
    seeded: DemoData,
    login: Any,
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    _send(client, seeded.site_ids["Hamburg DC"], [_bad_charge(1)])
    [letter] = _letters(client)["items"]
    download = client.get(f"{LETTERS}/{letter['id']}/Payload")
    assert download.status_code == 200
    assert download.headers["content-disposition"] == (
        f'attachment; filename="dead-letter-{letter["id"]}.json"'
    )
    assert orjson.loads(download.content)["batteryState"]["batteryCharge"] == 250.0
    assert hashlib.sha256(download.content).hexdigest() == letter["payloadSha256"]

    deleted = client.delete(f"{LETTERS}/{letter['id']}")
    assert deleted.status_code == 200 and deleted.json()["data"] is None
    assert _letters(client)["total"] == 0
    again = client.delete(f"{LETTERS}/{letter['id']}")
    assert (again.status_code, again.json()["msg"]) == (
        404,
        f"dead letter {letter['id']} not found",
    )
    assert client.get(f"{LETTERS}/{letter['id']}/Payload").status_code == 404
    [entry] = _audit(session_factory)
    assert (entry.action, entry.entity_type, entry.entity_id) == (
        "deadLetter.delete",
        "deadLetter",
        str(letter["id"]),
    )
    assert entry.before is not None and entry.before["payloadSha256"] == letter["payloadSha256"]
    assert _stored_messages(app) == 0


def test_reingest_refused_stays_fixed_is_accepted_and_deleted(
    app: FastAPI,
    client: TestClient,
    seeded: DemoData,
    login: Any,
    session_factory: SessionFactory,
) -> None:
    login(client, SUPERUSER)
    _send(client, seeded.site_ids["Hamburg DC"], [_bad_charge(1), b'{"topic": 1}'])
    message, broken_line = sorted(_letters(client)["items"], key=lambda item: item["id"])
    url = f"{LETTERS}/{message['id']}/Reingest"

    refused = client.post(url, json={})
    assert refused.status_code == 200
    assert refused.json()["data"]["accepted"] is False
    assert "batteryCharge" in refused.json()["data"]["reason"]
    assert _letters(client)["total"] == 2  # it stays, and no second dead letter
    assert _stored_messages(app) == 0 and _audit(session_factory) == []

    fixed = orjson.dumps(_good_payload(1)).decode()
    accepted = client.post(url, json={"payload": fixed})
    assert accepted.json()["data"] == {"accepted": True, "reason": None}
    assert [item["id"] for item in _letters(client)["items"]] == [broken_line["id"]]
    assert _stored_messages(app) == 1
    vehicles = client.get("/v2/Vehicles").json()["data"]
    assert "HAM-07" in {vehicle["serialNumber"] for vehicle in vehicles}

    # A broken NDJSON line is fixed as a whole line; re-ingested, it is read as one.
    line_url = f"{LETTERS}/{broken_line['id']}/Reingest"
    still_broken = client.post(line_url).json()["data"]
    assert still_broken == {"accepted": False, "reason": '"topic" is missing or not a string'}
    duplicate = line("HAM-07", "state", _good_payload(1), manufacturer=DEMO_MANUFACTURER).decode()
    answer = client.post(line_url, json={"payload": duplicate}).json()["data"]
    assert answer["accepted"] is True and "duplicate" in answer["reason"]
    assert _letters(client)["total"] == 0 and _stored_messages(app) == 1

    entries = _audit(session_factory)
    assert [(e.action, e.entity_id) for e in entries] == [
        ("deadLetter.reingest", str(message["id"])),
        ("deadLetter.reingest", str(broken_line["id"])),
    ]
    assert entries[0].after == {"fixedPayload": True, "verdict": "accepted"}
    assert entries[1].after == {"fixedPayload": True, "verdict": "duplicate"}


def test_reasons_are_in_the_language_of_the_request(
    client: TestClient, seeded: DemoData, login: Any
) -> None:
    """Each reason is kept in every language: the batch's answer, the list and a refused
    re-ingest say it in the request's; the reason filter finds it in either."""
    login(client, SUPERUSER)
    site = seeded.site_ids["Hamburg DC"]
    token = client.post(f"/v2/Admin/Sites/{site}/Tokens", json={"name": "gateway"})
    sent = client.post(
        "/v2/Ingest/vda5050",
        content=b'{"topic": 1}\n' + _bad_charge(1),
        headers={"Authorization": f"Bearer {token.json()['data']['token']}", **GERMAN},
    ).json()["data"]
    no_topic, out_of_range = (rejected["reason"] for rejected in sent["rejected"])
    assert no_topic == '"topic" fehlt oder ist kein Text'
    assert out_of_range.startswith("Verstoß gegen das Schema: ") and "batteryCharge" in out_of_range

    german = client.get(LETTERS, headers=GERMAN).json()["data"]["items"]
    assert [item["reason"] for item in german] == [out_of_range, no_topic]
    english = [item["reason"] for item in _letters(client)["items"]]
    assert english[1] == '"topic" is missing or not a string'
    assert english[0].startswith("schema violation: ")
    assert (
        _letters(client, reason="FEHLT")["total"]
        == _letters(client, reason="missing")["total"]
        == 1
    )

    refused = client.post(f"{LETTERS}/{german[1]['id']}/Reingest", headers=GERMAN)
    assert refused.json()["data"] == {"accepted": False, "reason": no_topic}


def test_reingest_validation(client: TestClient, seeded: DemoData, login: Any) -> None:
    login(client, SUPERUSER)
    _send(client, seeded.site_ids["Hamburg DC"], [_bad_charge(1)])
    [letter] = _letters(client)["items"]
    url = f"{LETTERS}/{letter['id']}/Reingest"
    assert client.post(url, json={"payload": 5}).json()["msg"].startswith("payload")
    assert client.post(url, json={"fixed": "x"}).status_code == 422
    unknown = client.post(f"{LETTERS}/999999/Reingest", json={})
    assert (unknown.status_code, unknown.json()["msg"]) == (404, "dead letter 999999 not found")
    assert client.get(f"{LETTERS}/0/Payload").status_code == 422


def test_a_cut_payload_needs_the_fixed_one(
    settings: Any, seeded_cut: tuple[TestClient, DemoData], login: Any
) -> None:
    client, seeded = seeded_cut
    login(client, SUPERUSER)
    payload = _good_payload(1)
    payload["batteryState"]["batteryCharge"] = 250.0
    payload["errors"] = [{"errorType": "x" * 300, "errorLevel": "WARNING", "errorReferences": []}]
    _send(
        client, seeded.site_ids["Hamburg DC"], [orjson.dumps({"topic": TOPIC, "payload": payload})]
    )
    [letter] = _letters(client)["items"]
    assert letter["payloadTruncated"] is True
    response = client.post(f"{LETTERS}/{letter['id']}/Reingest", json={})
    assert response.status_code == 422
    assert response.json()["msg"] == (
        f"payload: only the first 256 of {letter['payloadSize']} bytes were kept; "
        "send the whole payload"
    )


@pytest.fixture
def seeded_cut(settings: Any) -> Any:
    """An app whose dead letters keep only 256 bytes of a payload."""
    from fleetscope.api.main import create_app
    from fleetscope.demo.seed import seed_demo

    cut = settings.model_copy(update={"dead_letter_payload_bytes": 256})
    with TestClient(create_app(cut)) as client:
        with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
            seeded = seed_demo(session)
        yield client, seeded


def test_only_the_superuser_sees_dead_letters_and_changes_need_csrf(
    client: TestClient, seeded: DemoData, login: Any, make_client: Any
) -> None:
    login(client, SUPERUSER)
    _send(client, seeded.site_ids["Hamburg DC"], [_bad_charge(1)])
    [letter] = _letters(client)["items"]
    paths = (
        ("GET", LETTERS),
        ("GET", f"{LETTERS}/{letter['id']}/Payload"),
        ("DELETE", f"{LETTERS}/{letter['id']}"),
        ("POST", f"{LETTERS}/{letter['id']}/Reingest"),
    )
    anonymous = make_client()
    for method, path in paths:
        assert anonymous.request(method, path).status_code == 401
    for email in OTHERS:
        other = make_client()
        login(other, email)
        for method, path in paths:
            response = other.request(method, path)
            assert response.status_code == 404, (email, path)
    forged = {CSRF_HEADER: "forged"}
    assert client.delete(f"{LETTERS}/{letter['id']}", headers=forged).status_code == 403
    assert client.post(paths[3][1], headers=forged).status_code == 403
    assert _letters(client)["total"] == 1
