"""Server-Sent Events of the statusboard, fed by the ingest pipeline's ``LiveHub``.

The stream starts with ``retry`` (reconnect after 3 s) and a ``snapshot`` event (the whole
statusboard), then sends a ``tile`` event ``{"vehicle": tile, "counts": ...}`` for every
changed vehicle of the user's scope as soon as the pipeline has committed the message, and
a comment line every ``heartbeat_s`` seconds so proxies keep the connection open and a dead
client is noticed. Statuses of vehicles outside the scope are dropped here, never sent.
The generator ends when the client disconnects (the server cancels it, or the heartbeat
finds it gone) or its login session ends, and always unsubscribes from the hub.
"""

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime

from pydantic import BaseModel

from fleetscope.analytics.core.params import VehicleRef
from fleetscope.analytics.productivity.models import StatusTile
from fleetscope.analytics.productivity.statusboard import (
    build_statusboard,
    state_counts,
    status_tile,
)
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.model import LiveStatus
from fleetscope.ingest.live import LiveHub

HEARTBEAT_SECONDS = 15.0
RETRY_MILLISECONDS = 3000


class TileEvent(CamelModel):
    vehicle: StatusTile
    counts: dict[str, int]


def _sse(event: str, payload: BaseModel) -> str:
    return f"event: {event}\ndata: {payload.model_dump_json(by_alias=True)}\n\n"


async def statusboard_events(
    *,
    hub: LiveHub,
    vehicles: list[VehicleRef],
    read_statuses: Callable[[], Awaitable[dict[int, LiveStatus]]],
    is_disconnected: Callable[[], Awaitable[bool]],
    session_alive: Callable[[], Awaitable[bool]],
    check_session_s: float,
    heartbeat_s: float = HEARTBEAT_SECONDS,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> AsyncIterator[str]:
    """``session_alive`` is asked every ``check_session_s`` seconds: the stream ends with
    the login session that opened it (logout, expiry, a deactivated user), also while
    tiles keep coming."""
    by_id = {vehicle.id: vehicle for vehicle in vehicles}
    # Subscribe before reading the snapshot: a change in between is sent, not lost.
    subscription = hub.subscribe()
    loop = asyncio.get_running_loop()
    try:
        board = build_statusboard(vehicles, await read_statuses(), now=clock())
        tiles = {tile.vehicle_id: tile for tile in board.vehicles}
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        yield _sse("snapshot", board)
        next_check = loop.time() + check_session_s
        next_heartbeat = loop.time() + heartbeat_s
        while True:
            if loop.time() >= next_check:
                if not await session_alive():
                    return
                next_check = loop.time() + check_session_s
            if loop.time() >= next_heartbeat:
                if await is_disconnected():
                    return
                yield ": heartbeat\n\n"
                next_heartbeat = loop.time() + heartbeat_s
            wait_s = max(0.0, min(next_check, next_heartbeat) - loop.time())
            try:
                status = await asyncio.wait_for(subscription.get(), timeout=wait_s)
            except TimeoutError:
                continue
            if (vehicle := by_id.get(status.vehicle_id)) is None:
                continue  # outside the user's scope
            tile = tiles[vehicle.id] = status_tile(vehicle, status, now=clock())
            yield _sse("tile", TileEvent(vehicle=tile, counts=state_counts(tiles.values())))
    finally:
        hub.unsubscribe(subscription)
