"""API tokens under /v2/Admin/Sites/{siteId}/Tokens: create (shown once), list, revoke
(refused by ingestion at once), last use, audit entries, who may see them (the command
line's ``tokens`` group: tests/ingest/test_ingest_cli.py)."""

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from fleetscope.api.deps import CSRF_HEADER
from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import ApiToken, AuditEntry
from fleetscope.demo.seed import DEMO_MANUFACTURER, DemoData
from fleetscope.ingest.tokens import site_of_token
from tests.ingest.vda import T0, line, state

# Both app stores: the tokens and their audit entries are app-store rows.

SUPERUSER = "superuser@demo.fleetscope"
OTHERS = (
    "customer@demo.fleetscope",
    "partner@demo.fleetscope",
    "support@demo.fleetscope",
    "service@demo.fleetscope",
)
INGEST = "/v2/Ingest/vda5050"


def _tokens(site: int) -> str:
    return f"/v2/Admin/Sites/{site}/Tokens"


def _ham(serial: str, header_id: int) -> bytes:
    payload = state(serial, header_id, T0, manufacturer=DEMO_MANUFACTURER)
    return line(serial, "state", payload, manufacturer=DEMO_MANUFACTURER)


def _audit(session_factory: SessionFactory) -> list[AuditEntry]:
    with session_factory() as session:
        return list(session.scalars(select(AuditEntry).order_by(AuditEntry.id)))


def test_create_list_revoke_with_audit_entries_and_ingestion_refusing_the_revoked(
    client: TestClient, seeded: DemoData, login: Any, session_factory: SessionFactory
) -> None:
    login(client, SUPERUSER)
    site = seeded.site_ids["Hamburg DC"]
    created = client.post(_tokens(site), json={"name": "  plc gateway "})
    assert created.status_code == 201, created.text
    token = created.json()["data"]
    assert token["token"].startswith("fst_") and token["name"] == "plc gateway"
    assert (token["siteId"], token["lastUsedAt"], token["revokedAt"]) == (site, None, None)

    listed = client.get(_tokens(site)).json()["data"]
    assert [(t["id"], t["name"], t["lastUsedAt"]) for t in listed] == [
        (token["id"], "plc gateway", None)
    ]
    assert all("token" not in t and "tokenHash" not in t for t in listed)

    headers = {"Authorization": f"Bearer {token['token']}"}
    assert client.post(INGEST, content=_ham("HAM-01", 1), headers=headers).status_code == 200
    [used] = client.get(_tokens(site)).json()["data"]
    last_used = datetime.fromisoformat(used["lastUsedAt"])
    assert abs(datetime.now(UTC) - last_used) < timedelta(minutes=1)

    revoked = client.delete(f"{_tokens(site)}/{token['id']}")
    assert revoked.status_code == 200 and revoked.json()["data"]["revokedAt"]
    refused = client.post(INGEST, content=_ham("HAM-01", 2), headers=headers)
    assert refused.status_code == 401
    assert refused.json()["msg"] == "invalid or missing API token"
    # Revoking again changes nothing and writes no second entry.
    assert client.delete(f"{_tokens(site)}/{token['id']}").status_code == 200

    entries = _audit(session_factory)
    assert [(e.action, e.entity_type, e.entity_id, e.via) for e in entries] == [
        ("token.create", "token", str(token["id"]), "web"),
        ("token.revoke", "token", str(token["id"]), "web"),
    ]
    assert entries[0].actor == SUPERUSER and entries[0].before is None
    assert entries[0].after is not None and entries[0].after["name"] == "plc gateway"
    assert entries[1].before is not None and entries[1].before["revokedAt"] is None
    assert entries[1].after is not None and entries[1].after["revokedAt"]
    for entry in entries:
        for side in (entry.before or {}, entry.after or {}):
            assert not {"token", "tokenHash"} & set(side)
            assert token["token"] not in str(side)


def test_last_use_is_written_at_most_once_a_minute(
    client: TestClient, seeded: DemoData, login: Any, session_factory: SessionFactory
) -> None:
    login(client, SUPERUSER)
    plain = client.post(_tokens(seeded.site_ids["Hamburg DC"]), json={"name": "x"}).json()["data"]
    start = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
    with session_factory() as session:
        for seconds, expected in ((0, 0), (59, 0), (60, 60), (61, 60), (125, 125)):
            assert site_of_token(
                session, token=plain["token"], now=start + timedelta(seconds=seconds)
            )
            session.commit()
            stored = session.get(ApiToken, plain["id"])
            assert stored is not None and stored.last_used_at == start + timedelta(seconds=expected)


def test_validation_unknown_ids_and_a_token_of_another_site(
    client: TestClient, seeded: DemoData, login: Any, session_factory: SessionFactory
) -> None:
    login(client, SUPERUSER)
    site = seeded.site_ids["Hamburg DC"]
    for body, field in (({"name": ""}, "name"), ({}, "name"), ({"name": "x" * 201}, "name")):
        response = client.post(_tokens(site), json=body)
        assert response.status_code == 422 and response.json()["msg"].startswith(field), body
    blank = client.post(_tokens(site), json={"name": "   "})
    assert (blank.status_code, blank.json()["msg"]) == (422, "name: must not be empty")
    assert client.post(_tokens(site), json={"name": "x", "extra": 1}).status_code == 422
    assert client.get(_tokens(999_999)).json()["msg"] == "site 999999 not found"
    assert client.post(_tokens(999_999), json={"name": "x"}).status_code == 404
    munich = client.post(_tokens(seeded.site_ids["Munich Hub"]), json={"name": "m"}).json()
    foreign = client.delete(f"{_tokens(site)}/{munich['data']['id']}")
    assert (foreign.status_code, foreign.json()["msg"]) == (
        404,
        f"token {munich['data']['id']} not found",
    )
    assert [e.action for e in _audit(session_factory)] == ["token.create"]


def test_only_the_superuser_sees_tokens_and_changes_need_csrf(
    client: TestClient, seeded: DemoData, login: Any, make_client: Any
) -> None:
    site = seeded.site_ids["Hamburg DC"]
    anonymous = make_client()
    assert anonymous.get(_tokens(site)).status_code == 401
    assert anonymous.post(_tokens(site), json={"name": "x"}).status_code == 401
    for email in OTHERS:
        other = make_client()
        login(other, email)
        for response in (
            other.get(_tokens(site)),
            other.post(_tokens(site), json={"name": "x"}),
            other.delete(f"{_tokens(site)}/1"),
        ):
            assert response.status_code == 404, (email, response.text)
            assert response.json()["msg"].startswith("not found: /v2/Admin/")
    login(client, SUPERUSER)
    no_csrf = client.post(_tokens(site), json={"name": "x"}, headers={CSRF_HEADER: "forged"})
    assert no_csrf.status_code == 403
    assert client.get(_tokens(site)).json()["data"] == []
