"""Web security: headers on every response, the self-hosted API docs, the JSON body limit,
login throttling, proxy headers and private store files.

The body limit and the proxy headers are also checked against the real server process
(``fleetscope serve``), as a browser or an attacker would meet them.
"""

import base64
import hashlib
import os
import re
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fleetscope.api.main import create_app
from fleetscope.appstore.ratelimit import LoginRateLimiter, client_key
from fleetscope.demo.seed import DemoData
from fleetscope.settings import Settings

from .support import CUSTOMER, FakeClock

LIMIT = 1024 * 1024
TOO_LARGE_EN = f"request body exceeds the limit of {LIMIT} bytes"
TOO_LARGE_DE = f"der Inhalt der Anfrage überschreitet die Grenze von {LIMIT} Bytes"
APP_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; "
    "worker-src 'self' blob:; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'self'; form-action 'self'"
)
ATTACKER, USER_ADDRESS, PROXY = "203.0.113.7", "198.51.100.20", "10.0.0.2"


def assert_security_headers(response: httpx.Response, *, policy: str = APP_POLICY) -> None:
    headers = response.headers
    assert headers["content-security-policy"] == policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["cross-origin-opener-policy"] == "same-origin"
    assert headers["permissions-policy"].startswith("camera=(), microphone=()")


@pytest.fixture
def web_app(settings: Settings, tmp_path: Path) -> Iterator[TestClient]:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>Fleetscope</title>")
    (dist / "assets" / "index-abc.js").write_text("console.log('app')")
    with TestClient(create_app(settings.model_copy(update={"frontend_dist": dist}))) as client:
        yield client


def test_every_response_carries_the_security_headers(web_app: TestClient) -> None:
    for path, status in (("/v2/User/me", 401), ("/v2/nowhere", 404), ("/", 200)):
        response = web_app.get(path)
        assert response.status_code == status, path
        assert_security_headers(response)
        assert "strict-transport-security" not in response.headers
    asset = web_app.get("/assets/index-abc.js")
    assert asset.text == "console.log('app')"
    assert_security_headers(asset)


def test_hsts_only_in_production(settings: Settings) -> None:
    production = settings.model_copy(update={"environment": "production"})
    with TestClient(create_app(production)) as client:
        response = client.get("/v2/User/me")
    assert response.headers["strict-transport-security"] == "max-age=31536000"
    assert_security_headers(response)


def test_the_web_app_may_connect_to_configured_origins(settings: Settings) -> None:
    reporting = settings.model_copy(update={"csp_connect_origins": "https://errors.example"})
    with TestClient(create_app(reporting)) as client:
        policy = client.get("/v2/User/me").headers["content-security-policy"]
    assert "; connect-src 'self' https://errors.example;" in policy
    with pytest.raises(ValueError, match="not an http"):
        Settings(_env_file=None, csp_connect_origins="https://a.example; script-src *")


def test_api_docs_come_from_this_server_alone(client: TestClient) -> None:
    page = client.get("/v2/docs")
    assert page.status_code == 200
    html = page.text
    references = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert sorted(references) == [
        "/v2/docs/assets/favicon-32x32.png",
        "/v2/docs/assets/swagger-ui-bundle.js",
        "/v2/docs/assets/swagger-ui.css",
    ]
    assert "http://" not in html and "https://" not in html
    for reference in references:
        assert client.get(reference).status_code == 200, reference
    # The one inline script (Swagger UI's start-up) is allowed by its hash, nothing else is.
    (inline,) = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
    assert_security_headers(
        page, policy=APP_POLICY.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'")
    )
    assert client.get("/v2/openapi.json").json()["info"]["title"] == "Fleetscope"


def test_a_body_over_the_limit_is_refused_by_its_length(client: TestClient) -> None:
    big = b"[" + b" " * LIMIT + b"]"
    for method in ("PUT", "PATCH"):
        path = "/v2/User/dashboard-layout" if method == "PUT" else "/v2/User/settings"
        response = client.request(method, path, content=big)
        assert response.status_code == 413
        assert response.json() == {"status": False, "msg": TOO_LARGE_EN, "data": None}
        assert_security_headers(response)
    german = client.put("/v2/User/dashboard-layout", content=big, headers={"Accept-Language": "de"})
    assert german.json()["msg"] == TOO_LARGE_DE


def test_a_chunked_body_over_the_limit_is_refused(client: TestClient) -> None:
    chunk = b" " * 65536
    response = client.put("/v2/User/dashboard-layout", content=iter([b"["] + [chunk] * 17 + [b"]"]))
    assert response.status_code == 413
    assert response.json()["msg"] == TOO_LARGE_EN


def test_bodies_within_the_limit_reach_the_route(client: TestClient, seeded: DemoData) -> None:
    body = b'{"email": "%s", "password": "demo"}' % CUSTOMER.encode()
    chunked = client.post(
        "/v2/User/login",
        content=iter([body[:10], body[10:]]),
        headers={"Content-Type": "application/json"},
    )
    assert "content-length" not in chunked.request.headers
    assert chunked.status_code == 200
    assert chunked.json()["data"]["email"] == CUSTOMER


def test_http_ingestion_keeps_its_own_limit(client: TestClient) -> None:
    # Over the API's limit, under the ingestion's: the route answers (here: no token).
    response = client.post("/v2/Ingest/vda5050", content=b"\n" * (2 * LIMIT))
    assert response.status_code == 401


def _login(client: TestClient, password: str = "wrong", **headers: str) -> httpx.Response:
    return client.post(
        "/v2/User/login", json={"email": CUSTOMER, "password": password}, headers=headers
    )


def _client_at(app: FastAPI, address: str) -> TestClient:
    return TestClient(app, client=(address, 40000))


@pytest.fixture
def throttled_app(app: FastAPI, client: TestClient, seeded: DemoData) -> FastAPI:
    app.state.login_limiter = LoginRateLimiter(max_failures=3, clock=FakeClock())
    return app


def test_an_attacker_is_refused_quickly_and_the_user_still_logs_in(
    throttled_app: FastAPI,
) -> None:
    attacker = _client_at(throttled_app, ATTACKER)
    assert [_login(attacker).status_code for _ in range(3)] == [401, 401, 401]
    refused = _login(attacker, password="demo", **{"Accept-Language": "de"})
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "60"
    assert refused.json()["msg"] == (
        "zu viele fehlgeschlagene Anmeldeversuche; bitte in 60 Sekunden erneut versuchen"
    )
    # Another account from the attacker's address: the address itself is refused.
    other = attacker.post("/v2/User/login", json={"email": "x@y.z", "password": "demo"})
    assert other.status_code == 429
    # The real user elsewhere, with the right password, is not refused for it.
    assert _login(_client_at(throttled_app, USER_ADDRESS), password="demo").status_code == 200


def test_many_addresses_on_one_account_are_slowed_not_locking_the_user_out(
    throttled_app: FastAPI,
) -> None:
    # Six addresses fail once each: the account is under attack (2 x 3 failures), and each
    # address has a budget of one failure a minute for it instead of three.
    attackers = [_client_at(throttled_app, f"192.0.2.{n}") for n in range(1, 7)]
    assert [_login(attacker).status_code for attacker in attackers] == [401] * 6
    assert [_login(attacker).status_code for attacker in attackers] == [429] * 6
    user = _client_at(throttled_app, USER_ADDRESS)
    assert _login(user).status_code == 401  # the user mistypes once...
    assert _login(user, password="demo").status_code == 429  # ...and waits a minute,
    assert _login(_client_at(throttled_app, "198.51.100.21"), password="demo").status_code == 200


def test_forwarded_for_is_ignored_unless_a_trusted_proxy_sends_it(
    settings: Settings, seeded: DemoData
) -> None:
    spoofed = [f"192.0.2.{n}" for n in range(4)]
    app = create_app(settings.model_copy(update={"login_attempts_per_minute": 3}))
    with _client_at(app, ATTACKER) as attacker:
        statuses = [_login(attacker, **{"X-Forwarded-For": ip}).status_code for ip in spoofed]
    assert statuses == [401, 401, 401, 429]

    proxied = settings.model_copy(
        update={"login_attempts_per_minute": 3, "trusted_proxies": f"{PROXY}, 10.1.0.0/16"}
    )
    app = create_app(proxied)
    with _client_at(app, PROXY) as proxy:
        statuses = [_login(proxy, **{"X-Forwarded-For": ATTACKER}).status_code for _ in range(4)]
        assert statuses == [401, 401, 401, 429]
        # The proxy's other clients are told apart by what the proxy reports.
        user = _login(proxy, password="demo", **{"X-Forwarded-For": USER_ADDRESS})
        assert user.status_code == 200
        # A client's own entry before the proxy's does not help: the last hop counts.
        chained = _login(proxy, **{"X-Forwarded-For": f"1.2.3.4, {ATTACKER}"})
        assert chained.status_code == 429
    with pytest.raises(ValueError, match="does not appear to be an IPv4 or IPv6"):
        Settings(_env_file=None, trusted_proxies="10.0.0.1, proxy.local")


def test_the_limiter_slides_and_takes_back_a_success() -> None:
    clock = FakeClock()
    limiter = LoginRateLimiter(max_failures=2, window_seconds=60, clock=clock)
    attacker = {"account": "a@x", "address": ATTACKER}
    assert limiter.admit(**attacker) == 0
    clock.now += 30
    assert limiter.admit(**attacker) == 0
    assert limiter.admit(**attacker) == pytest.approx(30)
    assert limiter.admit(account="b@x", address=ATTACKER) == pytest.approx(30)  # the address
    assert limiter.admit(account="a@x", address=USER_ADDRESS) == 0
    clock.now += 30
    assert limiter.admit(**attacker) == 0  # the first failure left the window
    assert limiter.admit(**attacker) == pytest.approx(30)
    # A right password is no failure: the user's next mistakes start from nothing.
    limiter.succeeded(account="a@x", address=USER_ADDRESS)
    assert [limiter.admit(account="a@x", address=USER_ADDRESS) for _ in range(3)] == [
        0,
        0,
        pytest.approx(60),
    ]


def test_the_limiter_forgets_the_oldest_keys_under_a_flood() -> None:
    limiter = LoginRateLimiter(max_failures=3, clock=FakeClock(), max_keys=100)
    for n in range(1000):
        assert limiter.admit(account=f"user{n}@x", address=f"10.0.{n // 250}.{n % 250}") == 0
    assert limiter.tracked_keys <= 100
    assert client_key("2001:db8::1") == client_key("2001:db8::ffff") == "2001:db8::/64"
    assert client_key("::ffff:192.0.2.1") == "192.0.2.1"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_store_files_are_created_for_their_owner_only(settings: Settings, tmp_path: Path) -> None:
    data = tmp_path / "fresh" / "data"
    private = settings.model_copy(update={"data_dir": data, "database_url": ""})
    with TestClient(create_app(private)) as client:
        assert client.get("/v2/User/me").status_code == 401
        assert _mode(data) == 0o700
        assert _mode(data / "fleetscope.sqlite") == 0o600
        assert _mode(data / "fleetscope.sqlite-wal") == 0o600
        assert _mode(data / "facts.duckdb") == 0o600


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``fleetscope serve`` in its own process on a data folder that was world-readable."""
    work = tmp_path_factory.mktemp("served")
    data = work / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    port = _free_port()
    env = {
        **os.environ,
        "FLEETSCOPE_ENVIRONMENT": "test",
        "FLEETSCOPE_DATA_DIR": str(data),
        "FLEETSCOPE_PORT": str(port),
        "FLEETSCOPE_LOGIN_ATTEMPTS_PER_MINUTE": "3",
        "FLEETSCOPE_MQTT_URL": "",
    }
    command = [str(Path(sys.executable).with_name("fleetscope")), "serve"]
    with (work / "server.log").open("wb") as log:
        server = subprocess.Popen(command, cwd=work, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (work / "server.log").read_text()
            assert time.monotonic() < deadline, "the server did not start in 60 s"
            try:
                if httpx.get(f"{url}/v2/docs", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        yield url, data
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_the_server_keeps_its_files_to_its_owner(served: tuple[str, Path]) -> None:
    _, data = served
    assert _mode(data) == 0o700
    files = sorted(path.name for path in data.rglob("*"))
    # facts.duckdb.wal: made by DuckDB with the umask, which the server keeps owner-only.
    assert {
        "fleetscope.sqlite",
        "fleetscope.sqlite-wal",
        "facts.duckdb",
        "facts.duckdb.wal",
    } <= set(files)
    assert {path.name: _mode(path) & 0o077 for path in data.rglob("*")} == dict.fromkeys(files, 0)


def test_the_server_ignores_a_clients_forwarded_for(served: tuple[str, Path]) -> None:
    # The client connects from 127.0.0.1, where a proxy could run; it is still no proxy.
    url, _ = served
    statuses = [
        httpx.post(
            f"{url}/v2/User/login",
            json={"email": f"guess{n}@x.y", "password": "wrong"},
            headers={"X-Forwarded-For": f"192.0.2.{n}"},
            timeout=10,
        ).status_code
        for n in range(4)
    ]
    assert statuses == [401, 401, 401, 429]


def test_the_server_stops_reading_a_chunked_body_at_the_limit(served: tuple[str, Path]) -> None:
    """A 200 MB body is refused after about the limit, not read whole."""
    url, _ = served
    port = int(url.rsplit(":", 1)[1])
    chunk = b" " * 65536
    framed = b"%x\r\n%s\r\n" % (len(chunk), chunk)
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(
            b"PUT /v2/User/dashboard-layout HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        connection.setblocking(False)
        answer = b""
        while sent < 200_000_000 and not answer:
            try:
                sent += connection.send(framed)
            except BlockingIOError:
                time.sleep(0.01)
            except (BrokenPipeError, ConnectionResetError):
                break
            try:
                answer = connection.recv(65536)
            except BlockingIOError:
                continue
        connection.settimeout(10)
        while b"\r\n\r\n" not in answer:
            answer += connection.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert sent < 8 * LIMIT
