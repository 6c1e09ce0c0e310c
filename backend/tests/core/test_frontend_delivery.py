"""Delivery of the web app and the API: cache headers, precompressed assets chosen by
Accept-Encoding, gzipped JSON, an uncompressed event stream, no source maps."""

import asyncio
import gzip
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fleetscope.api.frontend import accepted_encodings
from fleetscope.api.main import create_app
from fleetscope.demo.seed import DemoData
from fleetscope.facts.model import LiveStatus, VehicleState
from fleetscope.ingest.live import LiveHub
from fleetscope.settings import Settings
from tests.core.support import CUSTOMER, LoginFn

IMMUTABLE = "public, max-age=31536000, immutable"
SCRIPT = "export const answer = 42;\n" * 40
STYLE = "body { color: #0b1726; }\n" * 40
# The server never decodes what it sends: a marker shows which file it picked.
BROTLI_SCRIPT = b"\x1b brotli copy of the script"
BROTLI_STYLE = b"\x1b brotli copy of the style"


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A build as Vite writes it: hashed assets with .br/.gz copies, plus what must not leak."""
    folder = tmp_path / "dist"
    assets = folder / "assets"
    assets.mkdir(parents=True)
    (folder / "index.html").write_text('<!doctype html><script src="./assets/index-CE_Wv52t.js">')
    (folder / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (assets / "index-CE_Wv52t.js").write_text(SCRIPT)
    (assets / "index-CE_Wv52t.js.gz").write_bytes(gzip.compress(SCRIPT.encode()))
    (assets / "index-CE_Wv52t.js.br").write_bytes(BROTLI_SCRIPT)
    (assets / "DashboardPage-DBN6FO--.css").write_text(STYLE)
    (assets / "DashboardPage-DBN6FO--.css.br").write_bytes(BROTLI_STYLE)
    (assets / "tiny-Ab3dEf9h.js").write_text("export {};\n")  # no copies: not worth it
    (assets / "index-CE_Wv52t.js.map").write_text('{"sources": ["src/main.tsx"]}')
    return folder


@pytest.fixture
def web(settings: Settings, dist: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings.model_copy(update={"frontend_dist": dist}))) as client:
        yield client


def _raw(client: TestClient, path: str, accept_encoding: str) -> tuple[int, Any, bytes]:
    """Status, headers and the body exactly as sent (no client-side decoding)."""
    with client.stream("GET", path, headers={"Accept-Encoding": accept_encoding}) as response:
        return response.status_code, response.headers, b"".join(response.iter_raw())


def test_api_paths_answer_as_the_api_beside_the_web_app(web: TestClient) -> None:
    """The web app is served for every path outside /v2: a known API path asked with another
    method is the API's 405 (it was the web app's 404), an unknown one its 404."""
    assert web.get("/").text.startswith("<!doctype html>")
    wrong_method = web.get("/v2/User/login")
    assert wrong_method.status_code == 405
    assert wrong_method.json()["msg"] == "method GET not allowed on /v2/User/login"
    assert wrong_method.headers["Allow"] == "POST"
    unknown = web.get("/v2/Nothing/here")
    assert (unknown.status_code, unknown.json()["msg"]) == (404, "not found: /v2/Nothing/here")
    assert web.get("/v2").status_code == 404
    assert web.get("/v2x/index.html").status_code == 404  # outside the API: the web app's
    assert web.get("/favicon.svg").status_code == 200


def test_hashed_assets_are_cached_for_a_year_and_the_rest_revalidated(web: TestClient) -> None:
    for path in ("/assets/index-CE_Wv52t.js", "/assets/tiny-Ab3dEf9h.js"):
        assert web.get(path).headers["cache-control"] == IMMUTABLE, path
    for path in ("/", "/index.html", "/favicon.svg"):
        assert web.get(path).headers["cache-control"] == "no-cache", path


def test_revalidating_index_html_answers_304_with_its_cache_policy(web: TestClient) -> None:
    first = web.get("/", headers={"Accept-Encoding": "identity"})
    again = web.get(
        "/", headers={"Accept-Encoding": "identity", "If-None-Match": first.headers["etag"]}
    )
    assert (again.status_code, again.headers["cache-control"]) == (304, "no-cache")


def test_brotli_is_preferred_then_gzip_then_the_plain_file(web: TestClient) -> None:
    path = "/assets/index-CE_Wv52t.js"
    status, headers, body = _raw(web, path, "gzip, deflate, br, zstd")
    assert (status, body, headers["content-encoding"]) == (200, BROTLI_SCRIPT, "br")
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    assert headers["vary"] == "Accept-Encoding"
    assert headers["content-length"] == str(len(BROTLI_SCRIPT))
    assert headers["cache-control"] == IMMUTABLE

    status, headers, body = _raw(web, path, "gzip, br;q=0")
    assert (status, headers["content-encoding"], headers["vary"]) == (
        200,
        "gzip",
        "Accept-Encoding",
    )
    assert gzip.decompress(body).decode() == SCRIPT
    assert headers["content-type"] == "text/javascript; charset=utf-8"

    status, headers, body = _raw(web, path, "identity")
    assert (status, body.decode(), headers["vary"]) == (200, SCRIPT, "Accept-Encoding")
    assert "content-encoding" not in headers


def test_a_style_with_only_a_brotli_copy_falls_back_to_the_plain_file(web: TestClient) -> None:
    path = "/assets/DashboardPage-DBN6FO--.css"
    status, headers, body = _raw(web, path, "br")
    assert (body, headers["content-encoding"]) == (BROTLI_STYLE, "br")
    assert headers["content-type"] == "text/css; charset=utf-8"
    status, headers, body = _raw(web, path, "gzip")
    assert (status, body.decode(), headers["vary"]) == (200, STYLE, "Accept-Encoding")
    assert "content-encoding" not in headers


def test_a_compressed_copy_is_revalidated_by_its_own_etag(web: TestClient) -> None:
    path = "/assets/index-CE_Wv52t.js"
    first = web.get(path, headers={"Accept-Encoding": "br"})
    again = web.get(path, headers={"Accept-Encoding": "br", "If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert (again.headers["cache-control"], again.headers["vary"]) == (IMMUTABLE, "Accept-Encoding")
    plain = web.get(path, headers={"Accept-Encoding": "identity"})
    assert plain.headers["etag"] != first.headers["etag"]


def test_source_maps_are_never_served(web: TestClient) -> None:
    response = web.get("/assets/index-CE_Wv52t.js.map")
    assert response.status_code == 404
    assert "sources" not in response.text


def test_accept_encoding_parsing() -> None:
    assert accepted_encodings("gzip, deflate, br, zstd") == {"gzip", "deflate", "br", "zstd"}
    assert accepted_encodings("br;q=0, gzip;q=0.5") == {"gzip"}
    assert accepted_encodings("*;q=1, gzip;q=0") == {"*", "br"}
    assert accepted_encodings("br;q=nonsense") == set()
    assert accepted_encodings("") == set()


def test_json_answers_are_gzipped_above_a_kilobyte(client: TestClient) -> None:
    status, headers, body = _raw(client, "/v2/openapi.json", "gzip, br")
    assert (status, headers["content-encoding"], headers["vary"]) == (
        200,
        "gzip",
        "Accept-Encoding",
    )
    document = gzip.decompress(body)
    assert document.startswith(b"{") and len(body) < len(document) / 4
    # A short envelope is not worth compressing.
    status, headers, body = _raw(client, "/v2/User/me", "gzip")
    assert (status, body) == (401, b'{"status":false,"msg":"authentication failed","data":null}')
    assert "content-encoding" not in headers


def test_event_stream_is_not_compressed_and_events_arrive_at_once(
    app: FastAPI, client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    """The real stream route behind the compression middleware, asked by a browser that
    accepts gzip: every event is sent as it happens, as plain text."""
    login(client, CUSTOMER)
    vehicle_id = seeded.vehicle_ids["HAM-01"]
    cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())

    async def run() -> None:
        sent: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        gone = asyncio.Event()

        async def receive() -> dict[str, Any]:
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            await sent.put(message)

        async def next_event() -> str:
            while True:
                message = await asyncio.wait_for(sent.get(), timeout=5)
                text = bytes(message.get("body", b"")).decode()  # plain text, or this fails
                if text.startswith(("event:", ": ")):
                    return text

        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": "/v2/Analytics/Statusboard/stream",
            "raw_path": b"/v2/Analytics/Statusboard/stream",
            "query_string": f"vehicles={vehicle_id}".encode(),
            "root_path": "",
            "headers": [
                (b"cookie", cookie.encode()),
                (b"host", b"testserver"),
                (b"accept-encoding", b"gzip, deflate, br, zstd"),
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        task = asyncio.create_task(app(scope, receive, send))
        start = await asyncio.wait_for(sent.get(), timeout=5)
        headers = dict(start["headers"])
        assert start["status"] == 200
        assert headers[b"content-type"] == b"text/event-stream; charset=utf-8"
        assert b"content-encoding" not in headers
        assert (await next_event()).startswith("event: snapshot")
        hub: LiveHub = app.state.ingestion.hub
        now = datetime.now(UTC)
        status = LiveStatus(
            vehicle_id=vehicle_id,
            state=VehicleState.MANUAL,
            since=now,
            last_message_at=now,
            order_id="",
            workflow="",
            charge=55.0,
            charging=False,
            active_errors=(),
            x=1.0,
            y=2.0,
            map_id="hall-1",
        )
        published = asyncio.get_running_loop().time()
        threading.Thread(target=hub.publish, args=([status],)).start()
        tile = await next_event()
        assert asyncio.get_running_loop().time() - published < 1.0
        assert tile.startswith("event: tile") and '"manual"' in tile
        gone.set()
        await asyncio.wait_for(task, timeout=5)

    asyncio.run(run())
