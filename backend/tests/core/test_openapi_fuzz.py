"""The whole OpenAPI document fuzzed with schemathesis: no 5xx, and every answer (status
code, content type, body) as the document describes it.

Every operation is fuzzed as the superuser and as customer2 (a customer of the second
organization) with a session cookie and the CSRF header, as the web app sends them, over
the demo fleet with a few simulated hours of facts (sent through HTTP ingestion), so that
the analytics read real rows: the superuser's current week has some, customer2's fleet
has none near now (every analytics call of customer2 is one of an empty period). Dates are
drawn mostly from the days around today, otherwise from the whole calendar. HTTP ingestion
is called with an API token of a site the user can see.
The app store is PostgreSQL (stricter than SQLite: 32-bit ids, no NUL in text), or SQLite
with ``FLEETSCOPE_SKIP_POSTGRES=1``.

Left out, with the reason:
- ``GET /Analytics/Statusboard/stream``: the event stream does not end by itself; its
  parameters are those of every analytics call, fuzzed there.
Logout is fuzzed too: a call that ended the session is followed by a new login.
"""

import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2
import psycopg
import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, reject, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from fleetscope.api.deps import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE
from fleetscope.api.main import API_PREFIX, create_app
from fleetscope.demo.seed import seed_demo
from fleetscope.settings import Settings
from fleetscope.simulator import default_scenario, simulate
from tests.conftest import SKIP_POSTGRES, PostgresServer
from tests.core.support import CUSTOMER2, SUPERUSER

MAX_EXAMPLES = 20
STREAM = f"{API_PREFIX}/Analytics/Statusboard/stream"
INGEST = f"{API_PREFIX}/Ingest/vda5050"
FACT_HOURS = 6  # simulated per site
# Hamburg's hours end an hour ago (inside the default period, the current week); Munich's
# are a month old: customer2 (Munich) sees a fleet with no data in any period drawn near now.
FLEETS = (
    ("Hamburg DC", "HAM", "uagv", timedelta(hours=1)),
    ("Munich Hub", "MUC", "uagv-muc", timedelta(days=30)),
)
TOKEN_SITE = {SUPERUSER: "Hamburg DC", CUSTOMER2: "Munich Hub"}
LINES_PER_INGEST_CALL = 2000
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def _settings(folder: Path, database_url: str = "") -> Settings:
    return Settings(
        _env_file=None,
        environment="test",
        data_dir=folder / "data",
        database_url=database_url or f"sqlite:///{folder / 'app.sqlite'}",
        frontend_dist=folder / "no-frontend-build",
        mqtt_url="",
    )


def _document() -> dict[str, Any]:
    """The app's own OpenAPI document; making it starts nothing and writes nothing."""
    folder = Path(tempfile.mkdtemp(prefix="fleetscope-openapi-"))
    try:
        document: dict[str, Any] = create_app(_settings(folder)).openapi()
        return document
    finally:
        shutil.rmtree(folder, ignore_errors=True)


NOW = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
# The days around the facts, days without any first (Hypothesis draws the first choices
# most): an empty period must answer as well as one with data. Then any day of the calendar
# (the bounds are fuzzed too).
TODAY = NOW.date()
NEAR_DAYS = [TODAY + timedelta(days=offset) for offset in (-3, 0, -1, 1, -8, -2, 2)]
schemathesis.openapi.format(
    "date", st.one_of(st.sampled_from(NEAR_DAYS), st.dates()).map(lambda day: day.isoformat())
)
schema = schemathesis.openapi.from_dict(_document()).exclude(path=STREAM)


@dataclass
class Fuzzed:
    """The running app, and how to sign in as one of the demo users."""

    app: FastAPI
    tokens: dict[str, str]  # an API token per site name

    def sign_in(self, client: TestClient, email: str) -> None:
        """Log ``client`` in as ``email``, from an address of its own: the fuzzed logins
        (wrong passwords, all from the fuzzing client) slow that client's address down."""
        signing_in = TestClient(self.app, client=("signing-in", 50000))
        response = signing_in.post(
            f"{API_PREFIX}/User/login", json={"email": email, "password": "demo"}
        )
        assert response.status_code == 200, response.text
        client.cookies.clear()
        client.cookies.update(signing_in.cookies)
        client.headers[CSRF_HEADER] = signing_in.cookies[CSRF_COOKIE]


def _ingest_facts(
    client: TestClient, *, token: str, serial_prefix: str, interface: str, ago: timedelta
) -> None:
    scenario = default_scenario(vehicles=2, serial_prefix=serial_prefix, interface=interface)
    duration = timedelta(hours=FACT_HOURS)
    simulation = simulate(scenario, seed=7, start=NOW - ago - duration, duration=duration)
    lines = [
        json.dumps({"topic": topic, "payload": json.loads(payload)}).encode()
        for _, topic, payload in simulation.timed_messages()
    ]
    for first in range(0, len(lines), LINES_PER_INGEST_CALL):
        response = client.post(
            INGEST,
            content=b"\n".join(lines[first : first + LINES_PER_INGEST_CALL]),
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 200, response.text
        assert response.json()["data"]["rejected"] == []


@pytest.fixture(scope="module")
def app_store_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A database of its own on the test PostgreSQL server; "" (SQLite) without one."""
    if SKIP_POSTGRES:
        yield ""
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = "fleetscope_fuzz"
    admin_url = server.url("postgres", driver="postgresql")
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")  # a fixed name, not input
    yield server.url(name)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture(scope="module")
def fuzzed(app_store_url: str) -> Iterator[Fuzzed]:
    folder = Path(tempfile.mkdtemp(prefix="fleetscope-fuzz-"))
    settings = _settings(folder, app_store_url)
    try:
        # First run: the demo fleet, an API token per site and the facts.
        loading = create_app(settings)
        tokens: dict[str, str] = {}
        with TestClient(loading) as admin:  # runs the app's lifespan: store, ingestion
            with loading.state.session_factory() as session:
                demo = seed_demo(session)
            Fuzzed(app=loading, tokens=tokens).sign_in(admin, SUPERUSER)
            for site, serial_prefix, interface, ago in FLEETS:
                created = admin.post(
                    f"{API_PREFIX}/Admin/Sites/{demo.site_ids[site]}/Tokens", json={"name": "fuzz"}
                )
                assert created.status_code == 201, created.text
                tokens[site] = created.json()["data"]["token"]
                _ingest_facts(
                    admin,
                    token=tokens[site],
                    serial_prefix=serial_prefix,
                    interface=interface,
                    ago=ago,
                )
        # Fuzzed as in production: started on stored facts.
        app = create_app(settings)
        with TestClient(app):
            yield Fuzzed(app=app, tokens=tokens)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module", params=[SUPERUSER, CUSTOMER2], ids=["superuser", "customer2"])
def user(request: pytest.FixtureRequest) -> str:
    email: str = request.param
    return email


@pytest.fixture(scope="module")
def user_client(fuzzed: Fuzzed, user: str) -> TestClient:
    client = TestClient(fuzzed.app)  # not entered: the app is running already
    fuzzed.sign_in(client, user)
    return client


def _request_kwargs(case: schemathesis.Case, client: TestClient, token: str) -> dict[str, Any]:
    """The generated request for Starlette's test client (httpx), with the user's session."""
    kwargs = case.as_transport_kwargs(base_url=str(client.base_url))
    headers = {**client.headers, **(kwargs.get("headers") or {})}
    if case.path == INGEST:
        headers.setdefault("Authorization", f"Bearer {token}")
    request: dict[str, Any] = {
        "method": kwargs["method"],
        "url": kwargs["url"],
        "params": kwargs.get("params"),
        "headers": headers,
    }
    if "json" in kwargs:
        request["json"] = kwargs["json"]
    elif kwargs.get("data") is not None:
        request["content"] = kwargs["data"]
    return request


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_and_every_answer_as_documented(
    case: schemathesis.Case, fuzzed: Fuzzed, user: str, user_client: TestClient
) -> None:
    request = _request_kwargs(case, user_client, fuzzed.tokens[TOKEN_SITE[user]])
    try:
        built = user_client.build_request(**request)
    except httpx2.InvalidURL:
        reject()  # longer than 64 KiB: no HTTP client sends it, no server would read it
    response = user_client.send(built)
    case.validate_response(response, checks=CHECKS)
    if SESSION_COOKIE not in user_client.cookies:  # a logout: the next case needs a session
        fuzzed.sign_in(user_client, user)
