"""HTTP ingestion: API tokens, per-line verdicts, site isolation, body limit, dead letters
(the tokens' administration: tests/admin/test_admin_tokens.py)."""

import gzip
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fleetscope.api.main import create_app
from fleetscope.demo.seed import DEMO_MANUFACTURER, DemoData
from fleetscope.facts.store import FactStore
from fleetscope.settings import Settings

from .vda import T0, line, state

SUPERUSER = "superuser@demo.fleetscope"
INGEST = "/v2/Ingest/vda5050"
INVALID_TOKEN = "invalid or missing API token"

pytestmark = pytest.mark.sqlite_only


def _ham(serial: str, header_id: int, **kw: Any) -> bytes:
    payload = state(serial, header_id, T0, manufacturer=DEMO_MANUFACTURER, **kw)
    return line(serial, "state", payload, manufacturer=DEMO_MANUFACTURER)


def _token(client: TestClient, site_id: int, name: str = "plc gateway") -> str:
    response = client.post(f"/v2/Admin/Sites/{site_id}/Tokens", json={"name": name})
    assert response.status_code == 201, response.text
    token: str = response.json()["data"]["token"]
    return token


def _post(client: TestClient, token: str | None, body: bytes) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return client.post(INGEST, content=body, headers=headers)


def _store(app: FastAPI) -> FactStore:
    store: FactStore = app.state.ingestion.store
    return store


def test_missing_wrong_or_revoked_token_is_refused(
    client: TestClient, seeded: DemoData, login: Any
) -> None:
    login(client, SUPERUSER)
    site = seeded.site_ids["Hamburg DC"]
    token = _token(client, site)
    body = _ham("HAM-01", 1)
    for bad in (None, "", "fst_not-a-token"):
        response = _post(client, bad, body)
        assert response.status_code == 401
        assert response.json() == {"status": False, "msg": INVALID_TOKEN, "data": None}
    assert _post(client, token, body).status_code == 200
    tokens = client.get(f"/v2/Admin/Sites/{site}/Tokens").json()["data"]
    assert [t["name"] for t in tokens] == ["plc gateway"]
    assert all("token" not in t and "tokenHash" not in t for t in tokens)
    revoked = client.delete(f"/v2/Admin/Sites/{site}/Tokens/{tokens[0]['id']}")
    assert revoked.status_code == 200 and revoked.json()["data"]["revokedAt"]
    assert _post(client, token, _ham("HAM-01", 2)).status_code == 401


def test_mixed_lines_give_counts_and_only_good_lines_are_stored(
    app: FastAPI, client: TestClient, seeded: DemoData, login: Any
) -> None:
    login(client, SUPERUSER)
    token = _token(client, seeded.site_ids["Hamburg DC"])
    good = [_ham("HAM-01", 1), _ham("HAM-02", 1), _ham("HAM-01", 2, charge=70.0)]
    body = b"\n".join(
        [
            good[0],
            good[1],
            b"",  # blank lines are skipped but counted
            b"{this is not json",
            good[0],  # duplicate
            b'{"payload": {}}',
            line("HAM-03", "state", {"headerId": "x"}, manufacturer=DEMO_MANUFACTURER),
            good[2],
        ]
    )
    response = _post(client, token, body)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert (data["accepted"], data["duplicates"]) == (3, 1)
    assert [r["line"] for r in data["rejected"]] == [4, 6, 7]
    assert "not valid JSON" in data["rejected"][0]["reason"]
    assert '"topic"' in data["rejected"][1]["reason"]
    counts = _store(app).table_counts()
    assert counts["raw_keys"] == 3 and counts["dead_letters"] == 3
    dead = client.get("/v2/Admin/DeadLetters", params={"pageSize": 2}).json()["data"]
    assert (dead["total"], dead["pages"], len(dead["items"])) == (3, 2, 2)
    again = _post(client, token, b"\n".join(good)).json()["data"]
    assert (again["accepted"], again["duplicates"], again["rejected"]) == (0, 3, [])


def test_a_sites_token_writes_only_into_its_own_sites_vehicles(
    app: FastAPI, client: TestClient, seeded: DemoData, login: Any
) -> None:
    login(client, SUPERUSER)
    munich = _token(client, seeded.site_ids["Munich Hub"])
    response = _post(client, munich, _ham("HAM-01", 1) + b"\n" + _ham("NEW-01", 1))
    data = response.json()["data"]
    # Both join the token's site: Hamburg's HAM-01 is neither written nor revealed.
    assert (data["accepted"], data["rejected"]) == (2, [])
    vehicles = client.get("/v2/Vehicles").json()["data"]
    mine = {v["id"] for v in vehicles if v["siteName"] == "Munich Hub"}
    assert sorted(
        (v["siteName"], v["serialNumber"])
        for v in vehicles
        if v["serialNumber"] in ("HAM-01", "NEW-01")
    ) == [("Hamburg DC", "HAM-01"), ("Munich Hub", "HAM-01"), ("Munich Hub", "NEW-01")]
    cursor = _store(app).cursor()
    stored = {row[0] for row in cursor.execute("SELECT vehicle_id FROM raw_keys").fetchall()}
    cursor.close()
    assert len(stored) == 2 and stored <= mine


@pytest.fixture
def small_limits(settings: Settings, login: Any) -> Iterator[tuple[TestClient, str]]:
    """A server taking bodies of 2,000 bytes and 5 lines, with the demo's data, signed in as
    the superuser, and a token of the Hamburg site."""
    from fleetscope.demo.seed import seed_demo

    limits = {"ingest_max_body_bytes": 2000, "ingest_max_lines": 5}
    limited = create_app(settings.model_copy(update=limits))
    with TestClient(limited) as client:
        with limited.state.session_factory() as session:
            seeded = seed_demo(session)
        login(client, SUPERUSER)
        yield client, _token(client, seeded.site_ids["Hamburg DC"])


def test_a_body_over_the_limit_is_refused_and_nothing_is_stored(
    small_limits: tuple[TestClient, str],
) -> None:
    client, token = small_limits
    app: FastAPI = client.app  # type: ignore[assignment]
    big = b"\n".join(_ham("HAM-01", i) for i in range(1, 30))
    assert len(big) > 2000
    declared = _post(client, token, big)
    assert declared.status_code == 413
    assert "exceeds the limit of 2000 bytes" in declared.json()["msg"]
    assert declared.headers["Connection"] == "close"  # the unread rest is not drained

    def streamed() -> Iterator[bytes]:  # no Content-Length: counted while reading
        for start in range(0, len(big), 500):
            yield big[start : start + 500]

    chunked = client.post(INGEST, content=streamed(), headers={"Authorization": f"Bearer {token}"})
    assert chunked.status_code == 413
    assert chunked.headers["Connection"] == "close"
    assert _store(app).table_counts()["raw_keys"] == 0
    small = _post(client, token, _ham("HAM-01", 1)).json()["data"]
    assert small["accepted"] == 1


def test_a_gzip_body_is_inflated_within_the_limit_and_other_codings_are_refused(
    small_limits: tuple[TestClient, str],
) -> None:
    """A gateway may gzip its batch (``Content-Encoding: gzip``); the limit holds for the
    inflated body, so a small bomb is a 413. Before, the compressed bytes were read as
    NDJSON: 200, and every line a dead letter "not valid UTF-8"."""
    client, token = small_limits
    app: FastAPI = client.app  # type: ignore[assignment]

    def post(body: bytes, coding: str = "gzip") -> Any:
        headers = {"Authorization": f"Bearer {token}", "Content-Encoding": coding}
        return client.post(INGEST, content=body, headers=headers)

    two = _ham("HAM-01", 1) + b"\n" + _ham("HAM-01", 2)
    assert post(gzip.compress(two)).json()["data"] == {
        "accepted": 2,
        "duplicates": 0,
        "rejected": [],
    }
    # Concatenated members (``cat a.gz b.gz``) are one body, as gzip reads them.
    members = gzip.compress(_ham("HAM-01", 3) + b"\n") + gzip.compress(_ham("HAM-02", 1))
    assert post(members, coding="GZIP").json()["data"]["accepted"] == 2
    big = b"\n".join(_ham("HAM-01", i) for i in range(10, 40))
    assert len(big) > 2000 > len(gzip.compress(big))
    bomb = post(gzip.compress(big))
    assert bomb.status_code == 413
    assert bomb.json()["msg"] == ("request body exceeds the limit of 2000 bytes once gzip-decoded")
    truncated = post(gzip.compress(two)[:-9])
    assert truncated.status_code == 400
    assert truncated.json()["msg"].startswith("request body is not complete gzip data")
    assert post(two).status_code == 400  # plain NDJSON declared as gzip
    refused = post(two, coding="br")
    assert refused.status_code == 415
    assert refused.json()["msg"] == (
        "Content-Encoding 'br' is not supported: send the body as it is or as gzip"
    )
    assert _store(app).table_counts()["raw_keys"] == 4


def test_a_body_of_more_lines_than_the_limit_is_refused_before_it_is_parsed(
    small_limits: tuple[TestClient, str],
) -> None:
    """A few KiB of one-byte lines would each get a verdict: 2 million of them (4 MiB) kept
    the ingest thread 64 s and the server at 3.3 GB while answered."""
    client, token = small_limits
    app: FastAPI = client.app  # type: ignore[assignment]
    five = b"\n".join([_ham("HAM-01", 1), b"x", b"", b"y", b"z\n"])
    assert _post(client, token, five).json()["data"]["accepted"] == 1
    refused = _post(client, token, b"x\n" * 6)
    assert refused.status_code == 413
    assert refused.json()["msg"] == (
        "request body has more than 5 lines (FLEETSCOPE_INGEST_MAX_LINES): send smaller batches"
    )
    assert _store(app).table_counts()["raw_keys"] == 1
