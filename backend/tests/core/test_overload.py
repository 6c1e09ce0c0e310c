"""Overload against a real uvicorn server, configured as ``fleetscope serve`` configures it: 100
simultaneous analytics requests are each answered 200 or 503 (with Retry-After), never 500 and
never after a stall; the server answers at once afterwards; the statusboard stream keeps
delivering meanwhile and ends with its login session or once its user no longer sees its
vehicles; a request head beyond the bound, or one that takes too long, is refused without being
buffered whole; a body that arrives slowly costs only its own connection, and is refused at its
deadline. Fairness: a session that keeps the analytics lane beyond capacity does not keep
another user out, one token's slow uploads leave the other sites a place, one session's streams
are bounded.

The server runs in a thread of the test process (same password hasher, no start-up cost
of a second interpreter) on a free loopback port, with a small store filled through the
HTTP ingestion: two hours of states of the demo's Hamburg vehicles.
"""

import asyncio
import contextlib
import select
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2
import orjson
import pytest
import uvicorn

from fleetscope.api.deps import CSRF_COOKIE, CSRF_HEADER
from fleetscope.api.main import create_app
from fleetscope.appstore.db import create_db_engine, make_session_factory
from fleetscope.cli.serve import server_options
from fleetscope.demo.seed import DEMO_MANUFACTURER, DemoData, seed_demo
from fleetscope.settings import Settings

from .support import CUSTOMER, CUSTOMER2, SUPERUSER

SIMULTANEOUS = 100
# Every analysis resource a page calls, over a week (the load of the analysis pages).
RESOURCES = (
    "Productivity",
    "ProductivityHistory",
    "Dashboard",
    "Processes",
    "Workflows",
    "Actions",
    "Failures",
    "FailureMatrix",
    "FailureMap",
    "ErrorHistory",
    "Battery",
)
ANSWER_BOUND_S = 10.0
BUSY = "the server is busy; try again in a moment"
STATE_MINUTES = 120
# The time a request body may take here: longer than a request waits for its place (3 s),
# so that a slow body holding a place would show as the others' 503.
BODY_SECONDS = 4.0
HEAD_SECONDS = 2.0
# The event loop fires a timer up to a millisecond before its time (it rounds to its clock's
# resolution): a deadline met within this is met.
TIMER_SLACK_S = 0.005
STREAMS_PER_CALLER = 2


@dataclass(frozen=True)
class Server:
    url: str
    demo: DemoData

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.url.removeprefix("http://").split(":")
        return host, int(port)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _stamp(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def state_line(serial: str, header_id: int, at: datetime, *, charge: float) -> bytes:
    """One NDJSON line of the HTTP ingestion: a VDA 5050 2.0 state of an idle vehicle."""
    payload = {
        "headerId": header_id,
        "timestamp": _stamp(at),
        "version": "2.0.0",
        "manufacturer": DEMO_MANUFACTURER,
        "serialNumber": serial,
        "orderId": "",
        "orderUpdateId": 0,
        "lastNodeId": "",
        "lastNodeSequenceId": 0,
        "nodeStates": [],
        "edgeStates": [],
        "driving": False,
        "actionStates": [],
        "batteryState": {"batteryCharge": charge, "charging": False},
        "operatingMode": "AUTOMATIC",
        "errors": [],
        "safetyState": {"eStop": "NONE", "fieldViolation": False},
    }
    topic = f"uagv/v2/{DEMO_MANUFACTURER}/{serial}/state"
    return orjson.dumps({"topic": topic, "payload": payload})


@pytest.fixture
def server(settings: Settings, tmp_path: Path) -> Iterator[Server]:
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>Fleetscope</title>")
    # Sessions are checked every half second here (default 5 s): the logout test stays short.
    settings = settings.model_copy(
        update={
            "frontend_dist": dist,
            "stream_session_check_seconds": 0.5,
            "max_open_streams_per_caller": STREAMS_PER_CALLER,
            "request_body_seconds": BODY_SECONDS,
            "request_head_seconds": HEAD_SECONDS,
        }
    )
    engine = create_db_engine(url=settings.resolved_database_url())
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=_free_port(),
        log_level="warning",
        lifespan="on",
        **server_options(settings),
    )
    uvicorn_server = uvicorn.Server(config)
    thread = threading.Thread(target=uvicorn_server.run, name="overload-server")
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not uvicorn_server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
            time.sleep(0.05)
        with make_session_factory(engine)() as session:
            demo = seed_demo(session)
        yield Server(url=f"http://127.0.0.1:{config.port}", demo=demo)
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=30)
        engine.dispose()


def _login(client: httpx2.Client, email: str) -> None:
    response = client.post("/v2/User/login", json={"email": email, "password": "demo"})
    assert response.status_code == 200, response.text
    client.headers[CSRF_HEADER] = client.cookies[CSRF_COOKIE]


def _site_token(admin: httpx2.Client, server: Server, site_name: str = "Hamburg DC") -> str:
    """A new API token of a demo site (``admin``: a superuser's client)."""
    site = server.demo.site_ids[site_name]
    response = admin.post(f"/v2/Admin/Sites/{site}/Tokens", json={"name": "overload test"})
    assert response.status_code == 201, response.text
    token: str = response.json()["data"]["token"]
    return token


def _fill_store(server: Server) -> tuple[str, datetime]:
    """Two hours of states of every Hamburg vehicle; the site token and the last instant."""
    with httpx2.Client(base_url=server.url, timeout=30) as admin:
        _login(admin, SUPERUSER)
        token = _site_token(admin, server)
        last = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=1)
        serials = sorted(s for s in server.demo.vehicle_ids if s.startswith("HAM"))
        lines = [
            state_line(serial, minute + 1, at, charge=90 - minute / 4)
            for minute in range(STATE_MINUTES)
            for at in [last - timedelta(minutes=STATE_MINUTES - 1 - minute)]
            for serial in serials
        ]
        stored = admin.post(
            "/v2/Ingest/vda5050",
            content=b"\n".join(lines),
            headers={"Authorization": f"Bearer {token}"},
        )
        assert stored.status_code == 200, stored.text
        return token, last


async def _analytics_burst(url: str, cookies: httpx2.Cookies) -> list[tuple[int, float, str]]:
    """``SIMULTANEOUS`` analytics requests sent at once: (status, seconds, Retry-After)."""
    today = datetime.now(UTC).date()
    period = {"from": (today - timedelta(days=6)).isoformat(), "to": today.isoformat()}
    limits = httpx2.Limits(max_connections=SIMULTANEOUS, max_keepalive_connections=0)
    async with httpx2.AsyncClient(
        base_url=url, cookies=cookies, limits=limits, timeout=30
    ) as client:
        ready = asyncio.Event()

        async def one(number: int) -> tuple[int, float, str]:
            resource = RESOURCES[number % len(RESOURCES)]
            await ready.wait()
            started = time.monotonic()
            response = await client.get(f"/v2/Analytics/{resource}", params=period)
            elapsed = time.monotonic() - started
            if response.status_code == 503:
                assert response.json() == {"status": False, "msg": BUSY, "data": None}
            return response.status_code, elapsed, response.headers.get("Retry-After", "")

        tasks = [asyncio.create_task(one(n)) for n in range(SIMULTANEOUS)]
        await asyncio.sleep(0.2)  # every task waits at the start line
        ready.set()
        return await asyncio.gather(*tasks)


async def _first_tile_of(
    response: httpx2.Response, serial_id: int, delivered: asyncio.Future[dict[str, Any]]
) -> None:
    event = ""
    async for line in response.aiter_lines():
        if line.startswith("event: "):
            event = line.removeprefix("event: ")
        elif line.startswith("data: ") and event == "tile":
            tile: dict[str, Any] = orjson.loads(line.removeprefix("data: "))
            if tile["vehicle"]["vehicleId"] == serial_id and not delivered.done():
                delivered.set_result(tile)


def test_simultaneous_analytics_get_200_or_a_quick_503_and_the_stream_keeps_flowing(
    server: Server,
) -> None:
    token, last = _fill_store(server)
    vehicle = server.demo.vehicle_ids["HAM-01"]
    with httpx2.Client(base_url=server.url, timeout=30) as customer:
        _login(customer, CUSTOMER)
        cookies = customer.cookies

    async def ingest_during_burst(client: httpx2.AsyncClient) -> None:
        # A message of HAM-01 while the analytics requests are queued and running.
        at = last + timedelta(seconds=30)
        message = state_line("HAM-01", STATE_MINUTES + 1, at, charge=42.0)
        headers = {"Authorization": f"Bearer {token}"}
        ingested = await client.post("/v2/Ingest/vda5050", content=message, headers=headers)
        assert ingested.status_code == 200, ingested.text

    async def run() -> list[tuple[int, float, str]]:
        loop = asyncio.get_running_loop()
        delivered: asyncio.Future[dict[str, Any]] = loop.create_future()
        async with (
            httpx2.AsyncClient(base_url=server.url, cookies=cookies, timeout=30) as live,
            live.stream("GET", "/v2/Analytics/Statusboard/stream") as stream,
        ):
            assert stream.status_code == 200
            reader = asyncio.create_task(_first_tile_of(stream, vehicle, delivered))
            burst = asyncio.create_task(_analytics_burst(server.url, cookies))
            await asyncio.sleep(0.3)  # the burst is under way
            async with httpx2.AsyncClient(base_url=server.url, timeout=30) as gateway:
                await ingest_during_burst(gateway)
            tile = await asyncio.wait_for(delivered, timeout=ANSWER_BOUND_S)
            assert tile["vehicle"]["charge"] == 42.0
            answers = await burst
            reader.cancel()
            return answers

    answers = asyncio.run(run())
    statuses = sorted({status for status, _, _ in answers})
    assert set(statuses) <= {200, 503}, statuses
    assert 200 in statuses
    assert max(seconds for _, seconds, _ in answers) < ANSWER_BOUND_S
    # Beyond the lane's places and queue the refusals say when to come back.
    refused = [retry for status, _, retry in answers if status == 503]
    assert refused and all(retry == "1" for retry in refused)

    # Right afterwards the server answers at once: a login and the web app's page.
    with httpx2.Client(base_url=server.url, timeout=ANSWER_BOUND_S) as fresh:
        started = time.monotonic()
        _login(fresh, CUSTOMER)
        page = fresh.get("/")
        assert page.status_code == 200 and "Fleetscope" in page.text
        assert time.monotonic() - started < 1.0


def test_another_caller_is_answered_while_one_session_keeps_the_lane_beyond_capacity(
    server: Server,
) -> None:
    _fill_store(server)
    with httpx2.Client(base_url=server.url, timeout=30) as customer:
        _login(customer, CUSTOMER)
        flood_cookies = customer.cookies
    with httpx2.Client(base_url=server.url, timeout=30) as other:
        _login(other, CUSTOMER2)
        other_cookies = other.cookies
    # More requests at all times than the analytics lane has places and queue (4 + 64).
    flooding = 80

    async def flood(stop: asyncio.Event) -> list[int]:
        limits = httpx2.Limits(max_connections=flooding, max_keepalive_connections=flooding)
        statuses: list[int] = []
        async with httpx2.AsyncClient(
            base_url=server.url, cookies=flood_cookies, limits=limits, timeout=30
        ) as client:

            async def keep_asking() -> None:
                while not stop.is_set():
                    statuses.append((await client.get("/v2/Analytics/Productivity")).status_code)

            await asyncio.gather(*(keep_asking() for _ in range(flooding)))
        return statuses

    async def run() -> tuple[list[int], list[int]]:
        stop = asyncio.Event()
        flooded = asyncio.create_task(flood(stop))
        await asyncio.sleep(1.0)  # the flood is under way
        others: list[int] = []
        async with httpx2.AsyncClient(
            base_url=server.url, cookies=other_cookies, timeout=30
        ) as client:
            for resource in RESOURCES[:3]:
                others.append((await client.get(f"/v2/Analytics/{resource}")).status_code)
        stop.set()
        return await flooded, others

    flood_statuses, others = asyncio.run(run())
    assert 503 in flood_statuses  # the lane was beyond capacity throughout
    # The other caller takes the place of one of the flood's waiting requests: answered.
    assert others == [200, 200, 200]


def test_one_session_holds_at_most_its_share_of_statusboard_streams(server: Server) -> None:
    with httpx2.Client(base_url=server.url, timeout=10) as first, contextlib.ExitStack() as open_:
        _login(first, CUSTOMER)
        for _ in range(STREAMS_PER_CALLER):
            stream = open_.enter_context(first.stream("GET", "/v2/Analytics/Statusboard/stream"))
            assert stream.status_code == 200
        refused = first.get("/v2/Analytics/Statusboard/stream")
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
        # Another login session (another tab after a new login, another TV) still gets one.
        with httpx2.Client(base_url=server.url, timeout=10) as second:
            _login(second, CUSTOMER)
            with second.stream("GET", "/v2/Analytics/Statusboard/stream") as stream:
                assert stream.status_code == 200


def _ends_within_the_bound(lines: Iterator[str]) -> list[str]:
    """The rest of a stream, read until the server ends it: within ``ANSWER_BOUND_S``."""
    started = time.monotonic()
    rest = list(lines)
    assert time.monotonic() - started < ANSWER_BOUND_S
    return rest


def test_a_stream_ends_after_its_session_logs_out(server: Server) -> None:
    with httpx2.Client(base_url=server.url, timeout=10) as customer:
        _login(customer, CUSTOMER)
        with customer.stream("GET", "/v2/Analytics/Statusboard/stream") as stream:
            assert stream.status_code == 200
            lines = stream.iter_lines()
            assert next(lines).startswith("retry: ")
            # The same browser logs out (another tab): the open stream ends by itself.
            with httpx2.Client(
                base_url=server.url, cookies=customer.cookies, headers=customer.headers
            ) as other_tab:
                assert other_tab.post("/v2/User/logout").status_code == 200
            rest = _ends_within_the_bound(lines)
            assert not any(line.startswith("event: tile") for line in rest)
        # A new stream with the ended session is refused.
        again = customer.get("/v2/Analytics/Statusboard/stream")
        assert again.status_code == 401


@contextlib.contextmanager
def _admin_and_customer(server: Server) -> Iterator[tuple[httpx2.Client, httpx2.Client]]:
    """A superuser's client and the demo customer's, both logged in."""
    with (
        httpx2.Client(base_url=server.url, timeout=10) as admin,
        httpx2.Client(base_url=server.url, timeout=10) as customer,
    ):
        _login(admin, SUPERUSER)
        _login(customer, CUSTOMER)
        yield admin, customer


def _ids_of(server: Server, prefix: str) -> set[int]:
    """The ids of the demo vehicles whose serial numbers start with ``prefix`` (a site's)."""
    return {
        vehicle for serial, vehicle in server.demo.vehicle_ids.items() if serial.startswith(prefix)
    }


def _snapshot_ids(lines: Iterator[str]) -> set[int]:
    for line in lines:
        if line.startswith("data: "):
            snapshot: dict[str, Any] = orjson.loads(line.removeprefix("data: "))
            return {tile["vehicleId"] for tile in snapshot["vehicles"]}
    raise AssertionError("the stream ended before its snapshot")


def test_a_stream_ends_once_its_user_no_longer_sees_its_vehicles(server: Server) -> None:
    hamburg, munich = _ids_of(server, "HAM"), _ids_of(server, "MUC")
    customer_id = server.demo.user_ids[CUSTOMER]
    alpenfracht = server.demo.organization_ids["Alpenfracht AG"]
    with _admin_and_customer(server) as (admin, customer):
        with customer.stream("GET", "/v2/Analytics/Statusboard/stream") as stream:
            lines = stream.iter_lines()
            assert _snapshot_ids(lines) == hamburg
            # The customer moves to the other organization while the stream is open.
            moved = admin.patch(
                f"/v2/Admin/Users/{customer_id}", json={"organizationId": alpenfracht}
            )
            assert moved.status_code == 200, moved.text
            _ends_within_the_bound(lines)
        # The same login session, opened again (as the browser does), sees its new vehicles.
        with customer.stream("GET", "/v2/Analytics/Statusboard/stream") as stream:
            assert _snapshot_ids(stream.iter_lines()) == munich


def test_a_stream_ends_once_one_of_its_vehicles_is_retired(server: Server) -> None:
    hamburg = _ids_of(server, "HAM")
    retired = server.demo.vehicle_ids["HAM-02"]
    with _admin_and_customer(server) as (admin, customer):
        with customer.stream("GET", "/v2/Analytics/Statusboard/stream") as stream:
            lines = stream.iter_lines()
            assert _snapshot_ids(lines) == hamburg
            # The wall screen's fleet loses a vehicle (sold) while the stream is open.
            answer = admin.patch(f"/v2/Admin/Vehicles/{retired}", json={"retired": True})
            assert answer.status_code == 200, answer.text
            _ends_within_the_bound(lines)
        # Opened again (as the browser does): the board without the retired vehicle; back in
        # service, the board ends again and comes back with it.
        with customer.stream("GET", "/v2/Analytics/Statusboard/stream") as stream:
            lines = stream.iter_lines()
            assert _snapshot_ids(lines) == hamburg - {retired}
            answer = admin.patch(f"/v2/Admin/Vehicles/{retired}", json={"retired": False})
            assert answer.status_code == 200, answer.text
            _ends_within_the_bound(lines)
        with customer.stream("GET", "/v2/Analytics/Statusboard/stream") as stream:
            assert _snapshot_ids(stream.iter_lines()) == hamburg


def test_a_stream_follows_the_saved_selection_of_machines(server: Server) -> None:
    first, second = (server.demo.vehicle_ids[serial] for serial in ("HAM-01", "HAM-02"))
    with httpx2.Client(base_url=server.url, timeout=10) as customer:
        _login(customer, CUSTOMER)
        with customer.stream("GET", "/v2/Analytics/Statusboard/stream") as stream:
            lines = stream.iter_lines()
            assert len(_snapshot_ids(lines)) > 2
            # The same user picks two machines on an analysis page (another tab): the wall
            # board without `vehicles` shows the saved selection, so it ends and reopens.
            with httpx2.Client(
                base_url=server.url, cookies=customer.cookies, headers=customer.headers
            ) as other_tab:
                saved = other_tab.patch(
                    "/v2/User/settings", json={"selectedMachines": [first, second]}
                )
                assert saved.status_code == 200, saved.text
            _ends_within_the_bound(lines)
        with customer.stream("GET", "/v2/Analytics/Statusboard/stream") as stream:
            assert _snapshot_ids(stream.iter_lines()) == {first, second}


def _answer_of(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    answer = b""
    with contextlib.suppress(ConnectionResetError, TimeoutError), connection:
        while part := connection.recv(65536):
            answer += part
    return answer


def _send_until_answered(address: tuple[str, int], head: bytes, *, chunk: int) -> tuple[int, bytes]:
    """Sends ``head`` in chunks until the server answers: the bytes sent and the answer
    (``b""`` if every byte went out without one)."""
    sent = 0
    connection = socket.create_connection(address, timeout=10)
    while sent < len(head):
        try:
            connection.sendall(head[sent : sent + chunk])
        except (BrokenPipeError, ConnectionResetError):
            break
        sent += chunk
        readable, _, _ = select.select([connection], [], [], 0.05)
        if readable:
            break
    return min(sent, len(head)), _answer_of(connection)


def test_a_request_head_beyond_the_bound_is_refused_early_and_costs_only_its_connection(
    server: Server, settings: Settings
) -> None:
    limit = settings.max_request_head_bytes
    padding = b"X-Padding: " + b"a" * 1000 + b"\r\n"
    head = b"GET /v2/User/me HTTP/1.1\r\nHost: fleetscope\r\n" + padding * (16 * limit // 1000)
    sent, answer = _send_until_answered(server.address, head, chunk=16 * 1024)
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert sent < len(head) // 2  # refused while the head was still arriving
    assert b"connection: close" in answer.lower()

    with httpx2.Client(base_url=server.url, timeout=30) as client:
        _login(client, CUSTOMER)
        # The longest query the API takes (a list of 2,000 ids of 9 digits: 19,999
        # characters) is well inside the bound, and the server answers as before.
        ids = ",".join(f"{server.demo.vehicle_ids['HAM-01']:09d}" for _ in range(2000))
        assert len(ids) == 19_999
        response = client.get("/v2/Analytics/FailureMatrix", params={"vehicles": ids})
        assert response.status_code == 200, response.text
        assert response.json()["data"]["period"]["vehicleIds"] == [
            server.demo.vehicle_ids["HAM-01"]
        ]


def _head_of(size: int) -> bytes:
    """A request head of exactly ``size`` bytes (padded by one header)."""
    start = b"GET /v2/User/me HTTP/1.1\r\nHost: fleetscope\r\nConnection: close\r\n"
    padding_name = b"X-Padding: "
    return start + padding_name + b"a" * (size - len(start) - len(padding_name) - 4) + b"\r\n\r\n"


def test_a_head_that_arrives_whole_is_held_to_the_bound_to_the_byte(
    server: Server, settings: Settings
) -> None:
    limit = settings.max_request_head_bytes
    answers = {}
    for size in (limit, limit + 100):  # h11 alone lets a head of up to ~2 x limit through
        connection = socket.create_connection(server.address, timeout=10)
        connection.sendall(_head_of(size))
        answers[size] = _answer_of(connection)
    assert answers[limit].startswith(b"HTTP/1.1 401 "), answers[limit][:200]
    refused = answers[limit + 100]
    assert refused.startswith(b"HTTP/1.1 431 "), refused[:200]
    body = orjson.loads(refused.split(b"\r\n\r\n", 1)[1])
    assert body == {
        "status": False,
        "msg": f"request line and headers have {limit + 100} bytes, at most {limit} allowed "
        "(FLEETSCOPE_MAX_REQUEST_HEAD_BYTES)",
        "data": None,
    }


def _slow_body(address: tuple[str, int], request: str, headers: str = "") -> socket.socket:
    """A connection that sent a request head announcing 1,000 bytes and then 10 of them."""
    connection = socket.create_connection(address, timeout=3 * BODY_SECONDS)
    head = (
        f"{request} HTTP/1.1\r\nHost: fleetscope\r\nContent-Type: application/json\r\n"
        f"{headers}Content-Length: 1000\r\n\r\n"
    )
    connection.sendall(head.encode() + b'{"email": ')
    return connection


def test_slow_bodies_hold_their_connections_not_the_places_of_others(
    server: Server, settings: Settings
) -> None:
    address = server.address
    with httpx2.Client(base_url=server.url, timeout=30) as admin:
        _login(admin, SUPERUSER)
        token = _site_token(admin, server)
    sent_at = time.monotonic()
    # Three times the places of the lane of logins, each with half a body: logins go on.
    logins = [
        _slow_body(address, "POST /v2/User/login") for _ in range(3 * settings.api_concurrency)
    ]
    batch = _slow_body(address, "POST /v2/Ingest/vda5050", f"Authorization: Bearer {token}\r\n")
    with httpx2.Client(base_url=server.url, timeout=30) as client:
        _login(client, CUSTOMER)
        assert client.get("/v2/User/me").status_code == 200

    for connection in [*logins, batch]:
        answer = _answer_of(connection)
        assert time.monotonic() - sent_at >= BODY_SECONDS  # not before the deadline
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), answer[:300]
        assert b"connection: close" in head.lower()
        assert orjson.loads(body) == {
            "status": False,
            "msg": "request body did not arrive within 4 s",
            "data": None,
        }


def test_one_tokens_slow_uploads_leave_a_place_to_the_other_sites(
    server: Server, settings: Settings
) -> None:
    with httpx2.Client(base_url=server.url, timeout=30) as admin:
        _login(admin, SUPERUSER)
        slow_token = _site_token(admin, server)
        other_token = _site_token(admin, server, "Munich Hub")
    # As many uploads as the ingest lane has places, each stuck after ten bytes of its body.
    uploads = [
        _slow_body(server.address, "POST /v2/Ingest/vda5050", f"Authorization: Bearer {token}\r\n")
        for token in [slow_token] * settings.ingest_concurrency
    ]
    time.sleep(0.2)  # their heads are read and their places taken
    with httpx2.Client(base_url=server.url, timeout=30) as gateway:
        started = time.monotonic()
        line = state_line("MUC-TEST", 1, datetime.now(UTC), charge=50.0)
        stored = gateway.post(
            "/v2/Ingest/vda5050", content=line, headers={"Authorization": f"Bearer {other_token}"}
        )
        assert stored.status_code == 200, stored.text
        assert time.monotonic() - started < BODY_SECONDS  # not after the slow bodies' deadline
    answers = [_answer_of(upload) for upload in uploads]
    # The slow token's last upload waited for a place of its own and was refused in time.
    assert sum(answer.startswith(b"HTTP/1.1 503 ") for answer in answers) == 1
    assert sum(answer.startswith(b"HTTP/1.1 408 ") for answer in answers) == len(uploads) - 1


def _closed_at(connection: socket.socket, *, trickle: bytes = b"") -> float:
    """Sends ``trickle`` a byte every 0.2 s (the rest of the time silent) until the server
    closes the connection without an answer; when it did (``time.monotonic``)."""
    for byte in [trickle[i : i + 1] for i in range(len(trickle))] or [b""]:
        readable, _, _ = select.select([connection], [], [], 0.2)
        if readable:
            break
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            connection.sendall(byte)
    assert _answer_of(connection) == b""
    return time.monotonic()


def test_a_request_head_must_arrive_in_time_and_a_silent_connection_is_closed(
    server: Server,
) -> None:
    address = server.address
    head = b"GET /v2/User/me HTTP/1.1\r\nHost: fleetscope\r\n" + b"X-Slow: a\r\n" * 20
    opened_at = time.monotonic()
    silent = socket.create_connection(address, timeout=5 * HEAD_SECONDS)
    assert _closed_at(silent) - opened_at >= HEAD_SECONDS - TIMER_SLACK_S

    # Bytes keep coming (a byte every 0.2 s), but the head is not complete in time.
    opened_at = time.monotonic()
    trickling = socket.create_connection(address, timeout=5 * HEAD_SECONDS)
    assert _closed_at(trickling, trickle=head) - opened_at >= HEAD_SECONDS - TIMER_SLACK_S

    # The same on a kept-alive connection, whose keep-alive timeout ends at the first byte.
    kept_alive = socket.create_connection(address, timeout=5 * HEAD_SECONDS)
    kept_alive.sendall(b"GET /v2/User/me HTTP/1.1\r\nHost: fleetscope\r\n\r\n")
    assert kept_alive.recv(65536).startswith(b"HTTP/1.1 401 ")  # answered, connection kept
    next_head_at = time.monotonic()
    assert _closed_at(kept_alive, trickle=head) - next_head_at >= HEAD_SECONDS - TIMER_SLACK_S
    with httpx2.Client(base_url=server.url, timeout=30) as client:
        _login(client, CUSTOMER)
        assert client.get("/v2/User/me").status_code == 200
