"""Statusboard snapshot and its Server-Sent Events stream."""

import asyncio
import json
import threading
from collections.abc import MutableMapping
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from fleetscope.analytics.core.params import VehicleRef
from fleetscope.analytics.dashboards.statusboard import (
    STATE_ORDER,
    build_statusboard,
    statusboard_events,
)
from fleetscope.facts.model import LiveStatus, VehicleState
from fleetscope.ingest.live import LiveHub

from .conftest import World

NOW = datetime(2026, 11, 2, 12, tzinfo=UTC)
FLEET = [VehicleRef(1, "AGV 01", 1), VehicleRef(2, "AGV 02", 1), VehicleRef(3, "AGV 03", 1)]


def _status(vehicle_id: int, state: VehicleState, *, since_s: float = 60, **kw: Any) -> LiveStatus:
    values: dict[str, Any] = {
        "vehicle_id": vehicle_id,
        "state": state,
        "since": NOW - timedelta(seconds=since_s),
        "last_message_at": NOW - timedelta(seconds=2),
        "order_id": "",
        "workflow": "",
        "charge": 55.0,
        "charging": False,
        "active_errors": (),
        "x": 1.0,
        "y": 2.0,
        "map_id": "hall-1",
    }
    values.update(kw)
    return LiveStatus(**values)


def test_tiles_are_sorted_worst_state_first_and_counted() -> None:
    statuses = {
        1: _status(1, VehicleState.WORKING, order_id="T-1", workflow="T"),
        2: _status(
            2,
            VehicleState.ERROR,
            active_errors=(("laserBlocked", "FATAL", "scanner blocked"),),
        ),
    }
    board = build_statusboard(FLEET, statuses, now=NOW)
    assert [tile.vehicle_id for tile in board.vehicles] == [2, 3, 1]
    assert [tile.state for tile in board.vehicles] == ["error", "offline", "working"]
    assert board.counts == {
        "error": 1,
        "offline": 1,
        "manual": 0,
        "charging": 0,
        "idle": 0,
        "working": 1,
    }
    error_tile = board.vehicles[0]
    assert error_tile.active_errors[0].error_type == "laserBlocked"
    assert error_tile.seconds_since_last_message == 2
    never_seen = board.vehicles[1]
    assert never_seen.since is None and never_seen.last_message_at is None
    assert list(board.state_order) == list(STATE_ORDER)


def test_a_tile_lists_the_worst_ten_active_errors_and_counts_them_all() -> None:
    # 3.0 levels: CRITICAL stops the vehicle, URGENT does not; a vehicle may report thousands.
    reported = (
        *((f"warn{n}", "WARNING", "w") for n in range(2_000)),
        ("bumper", "URGENT", "u"),
        ("laserBlocked", "CRITICAL", "c"),
        *((f"stop{n}", "FATAL", "f") for n in range(3)),
    )
    board = build_statusboard(
        FLEET[:1], {1: _status(1, VehicleState.ERROR, active_errors=reported)}, now=NOW
    )
    (tile,) = board.vehicles
    assert tile.active_error_count == 2_005
    worst = ["stop0", "stop1", "stop2", "laserBlocked", "bumper"]
    assert [error.error_type for error in tile.active_errors] == worst + [
        f"warn{n}" for n in range(5)
    ]
    assert build_statusboard(FLEET[:1], {}, now=NOW).vehicles[0].active_error_count == 0


def test_longest_in_the_worst_state_comes_first() -> None:
    statuses = {
        1: _status(1, VehicleState.ERROR, since_s=10),
        2: _status(2, VehicleState.ERROR, since_s=900),
        3: _status(3, VehicleState.IDLE),
    }
    board = build_statusboard(FLEET, statuses, now=NOW)
    assert [tile.vehicle_id for tile in board.vehicles] == [2, 1, 3]


def _data(chunk: str) -> dict[str, Any]:
    lines = chunk.strip().splitlines()
    assert lines[1].startswith("data: ")
    parsed: dict[str, Any] = json.loads(lines[1].removeprefix("data: "))
    return parsed


def test_stream_pushes_changed_tiles_of_the_scope_only() -> None:
    async def run() -> None:
        hub = LiveHub()
        disconnected = asyncio.Event()

        async def read_statuses() -> dict[int, LiveStatus]:
            return {1: _status(1, VehicleState.IDLE)}

        async def is_disconnected() -> bool:
            return disconnected.is_set()

        async def access_holds() -> bool:
            return True

        events = statusboard_events(
            hub=hub,
            vehicles=FLEET[:2],
            read_statuses=read_statuses,
            is_disconnected=is_disconnected,
            access_holds=access_holds,
            check_access_s=60.0,
            heartbeat_s=0.2,
            clock=lambda: NOW,
        )
        assert (await anext(events)).startswith("retry: ")
        snapshot = await anext(events)
        assert snapshot.startswith("event: snapshot\n")
        assert [t["vehicleId"] for t in _data(snapshot)["vehicles"]] == [2, 1]

        # The ingest worker publishes from its own thread; vehicle 3 is outside the scope.
        foreign = _status(3, VehicleState.ERROR)
        changed = _status(1, VehicleState.ERROR, active_errors=(("x", "FATAL", "stop"),))
        loop = asyncio.get_running_loop()
        sent_at = loop.time()
        threading.Thread(target=hub.publish, args=([foreign, changed],)).start()
        tile = await asyncio.wait_for(anext(events), timeout=1.0)
        assert loop.time() - sent_at < 1.0
        assert tile.startswith("event: tile\n")
        payload = _data(tile)
        assert payload["vehicle"]["vehicleId"] == 1
        assert payload["vehicle"]["state"] == "error"
        assert payload["counts"]["error"] == 1 and payload["counts"]["offline"] == 1

        assert await asyncio.wait_for(anext(events), timeout=1.0) == ": heartbeat\n\n"
        disconnected.set()
        remaining = [chunk async for chunk in events]
        assert remaining == []
        # Unsubscribed: publishing reaches no queue any more and raises nothing.
        hub.publish([changed])

    asyncio.run(run())


def test_stream_ends_with_the_login_session_while_tiles_keep_coming() -> None:
    async def run() -> None:
        hub = LiveHub()
        checks: list[bool] = []
        logged_out = asyncio.Event()

        async def read_statuses() -> dict[int, LiveStatus]:
            return {}

        async def is_disconnected() -> bool:
            return False

        async def access_holds() -> bool:
            checks.append(not logged_out.is_set())
            return checks[-1]

        events = statusboard_events(
            hub=hub,
            vehicles=FLEET[:2],
            read_statuses=read_statuses,
            is_disconnected=is_disconnected,
            access_holds=access_holds,
            check_access_s=0.05,
            heartbeat_s=60.0,
            clock=lambda: NOW,
        )
        assert (await anext(events)).startswith("retry: ")
        assert (await anext(events)).startswith("event: snapshot\n")
        hub.publish([_status(1, VehicleState.IDLE)])
        assert (await asyncio.wait_for(anext(events), timeout=1.0)).startswith("event: tile\n")
        logged_out.set()
        # A vehicle that never stops sending must not keep the ended session's stream open.
        received: list[str] = []

        async def drain() -> None:
            async for chunk in events:
                received.append(chunk)
                hub.publish([_status(1, VehicleState.IDLE)])

        hub.publish([_status(1, VehicleState.IDLE)])
        await asyncio.wait_for(drain(), timeout=2.0)
        assert checks[-1] is False and checks.count(False) == 1
        assert all(chunk.startswith("event: tile\n") for chunk in received)

    asyncio.run(run())


def test_statusboard_resource_lists_every_vehicle_of_the_user(
    world: World, customer: TestClient
) -> None:
    response = customer.get("/v2/Analytics/Statusboard")
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    ham = sorted(v for s, v in world.demo.vehicle_ids.items() if s.startswith("HAM"))
    assert sorted(tile["vehicleId"] for tile in data["vehicles"]) == ham
    assert sum(data["counts"].values()) == len(ham)
    ranks = [STATE_ORDER.index(tile["state"]) for tile in data["vehicles"]]
    assert ranks == sorted(ranks)
    seen = [t for t in data["vehicles"] if t["lastMessageAt"] is not None]
    assert len(seen) == len(world.ham_ids)
    assert all(t["secondsSinceLastMessage"] > 0 for t in seen)


def test_stream_through_the_app_pushes_a_message_within_a_second(
    world: World, app: FastAPI, customer: TestClient
) -> None:
    """The real route on the real app: snapshot, then the tile of a vehicle whose status the
    pipeline publishes, then a clean end when the client disconnects."""
    vehicle_id = world.ham_ids[0]
    cookie = "; ".join(f"{name}={value}" for name, value in customer.cookies.items())

    async def run() -> None:
        sent: asyncio.Queue[MutableMapping[str, Any]] = asyncio.Queue()
        gone = asyncio.Event()

        async def receive() -> dict[str, Any]:
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            await sent.put(message)

        async def next_event() -> str:
            while True:
                message = await asyncio.wait_for(sent.get(), timeout=5)
                body = message.get("body", b"").decode()
                if body.startswith(("event:", ": ")):
                    return str(body)

        query = f"vehicles={vehicle_id}".encode()
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": "/v2/Analytics/Statusboard/stream",
            "raw_path": b"/v2/Analytics/Statusboard/stream",
            "query_string": query,
            "root_path": "",
            "headers": [(b"cookie", cookie.encode()), (b"host", b"testserver")],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        task = asyncio.create_task(app(scope, receive, send))
        start = await asyncio.wait_for(sent.get(), timeout=5)
        assert start["status"] == 200
        assert (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
        snapshot = await next_event()
        assert snapshot.startswith("event: snapshot")
        hub: LiveHub = app.state.ingestion.hub
        status = _status(vehicle_id, VehicleState.MANUAL, since_s=1)
        published = asyncio.get_running_loop().time()
        threading.Thread(target=hub.publish, args=([status],)).start()
        tile = await next_event()
        assert asyncio.get_running_loop().time() - published < 1.0
        assert _data(tile)["vehicle"]["state"] == "manual"
        gone.set()
        await asyncio.wait_for(task, timeout=5)

    asyncio.run(run())
