"""``GET /v2/Analytics/Statusboard``: one live tile per vehicle, worst state first, and its events
fed by ``LiveHub`` (docs/analytics.md); other vehicles' statuses are dropped here, never sent."""

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Literal

import duckdb
from pydantic import BaseModel, Field

from fleetscope.analytics.core.params import VehicleRef
from fleetscope.analytics.core.sql import utc_from_us
from fleetscope.appstore.schemas import CamelModel
from fleetscope.facts.model import LiveStatus, VehicleState
from fleetscope.ingest.live import LiveHub
from fleetscope.vda5050.model import ErrorLevel

StateName = Literal["offline", "error", "manual", "charging", "working", "idle"]
STATE_ORDER: tuple[StateName, ...] = ("error", "offline", "manual", "charging", "idle", "working")
HEARTBEAT_SECONDS = 15.0
RETRY_MILLISECONDS = 3000
_NEVER_SEEN = datetime.max.replace(tzinfo=UTC)  # no ``since``: after every vehicle with one
TILE_ERRORS = 10  # a state message may carry thousands, each sent to every open statusboard
_SEVERITY = {level.value: rank for rank, level in enumerate(reversed(ErrorLevel))}  # 0: FATAL


class ActiveError(CamelModel):
    error_type: str
    level: str
    description: str


class StatusTile(CamelModel):
    vehicle_id: int
    name: str
    site_id: int
    state: StateName
    since: datetime | None
    order_id: str
    workflow: str
    charge: float | None
    charging: bool
    active_errors: list[ActiveError] = Field(
        description=f"the worst {TILE_ERRORS} active errors, the most severe level first"
    )
    active_error_count: int = Field(description="all active errors of the vehicle")
    last_message_at: datetime | None
    seconds_since_last_message: float | None


class StatusboardOut(CamelModel):
    generated_at: datetime
    state_order: list[StateName] = Field(description="worst first: the order of the tiles")
    counts: dict[str, int]
    vehicles: list[StatusTile]


class TileEvent(CamelModel):
    vehicle: StatusTile
    counts: dict[str, int]


def read_live(cursor: duckdb.DuckDBPyConnection, vehicle_ids: list[int]) -> dict[int, LiveStatus]:
    # The columns of ``live_status`` are the fields of ``LiveStatus`` (``facts.rows.live_row``).
    cursor.execute(
        "SELECT * REPLACE (epoch_us(since) AS since, epoch_us(last_message_at) AS "
        "last_message_at, epoch_us(held_until) AS held_until) FROM live_status "
        "WHERE vehicle_id IN (SELECT unnest(?::INTEGER[]))",
        [vehicle_ids],
    )
    names = [column[0] for column in cursor.description]
    statuses = {}
    for row in cursor.fetchall():
        status = dict(zip(names, row, strict=True))
        status.update(
            state=VehicleState(status["state"]),
            since=utc_from_us(status["since"]),
            last_message_at=utc_from_us(status["last_message_at"]),
            held_until=utc_from_us(status["held_until"]),
            active_errors=tuple(tuple(error) for error in json.loads(status["active_errors"])),
        )
        statuses[status["vehicle_id"]] = LiveStatus(**status)
    return statuses


def status_tile(vehicle: VehicleRef, status: LiveStatus | None, *, now: datetime) -> StatusTile:
    """A vehicle that never sent a message (``status`` None) is offline with no ``since``."""
    errors = status.active_errors if status else ()
    worst = sorted(errors, key=lambda error: _SEVERITY.get(error[1], len(_SEVERITY)))
    last = status.last_message_at if status else None
    return StatusTile(
        vehicle_id=vehicle.id,
        name=vehicle.name,
        site_id=vehicle.site_id,
        state=status.state.value if status else "offline",
        since=status.since if status else None,
        order_id=status.order_id if status else "",
        workflow=status.workflow if status else "",
        charge=status.charge if status else None,
        charging=status.charging if status else False,
        active_errors=[
            ActiveError(error_type=kind, level=level, description=text)
            for kind, level, text in worst[:TILE_ERRORS]
        ],
        active_error_count=len(errors),
        last_message_at=last,
        seconds_since_last_message=None if last is None else (now - last).total_seconds(),
    )


def state_counts(tiles: Iterable[StatusTile]) -> dict[str, int]:
    counted = Counter(tile.state for tile in tiles)
    return {state: counted.get(state, 0) for state in STATE_ORDER}


def live_vehicles(vehicles: Iterable[VehicleRef]) -> list[VehicleRef]:
    """The vehicles with a live tile: those in service (a retired one stays off the board,
    selected or not, whatever it still sends)."""
    return [vehicle for vehicle in vehicles if vehicle.retired_at is None]


def build_statusboard(
    vehicles: Iterable[VehicleRef], statuses: Mapping[int, LiveStatus], *, now: datetime
) -> StatusboardOut:
    tiles = sorted(
        (status_tile(vehicle, statuses.get(vehicle.id), now=now) for vehicle in vehicles),
        key=lambda t: (STATE_ORDER.index(t.state), t.since or _NEVER_SEEN, t.name, t.vehicle_id),
    )
    return StatusboardOut(
        generated_at=now, state_order=list(STATE_ORDER), counts=state_counts(tiles), vehicles=tiles
    )


def _sse(event: str, payload: BaseModel) -> str:
    return f"event: {event}\ndata: {payload.model_dump_json(by_alias=True)}\n\n"


async def statusboard_events(
    *,
    hub: LiveHub,
    vehicles: list[VehicleRef],
    read_statuses: Callable[[], Awaitable[dict[int, LiveStatus]]],
    is_disconnected: Callable[[], Awaitable[bool]],
    access_holds: Callable[[], Awaitable[bool]],
    check_access_s: float,
    heartbeat_s: float = HEARTBEAT_SECONDS,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> AsyncIterator[str]:
    """Ends when the client disconnects (the server cancels it, or the heartbeat finds it gone)
    or once the login session that opened it no longer holds or no longer sees its vehicles
    (``access_holds``, asked every ``check_access_s`` seconds, also while tiles keep coming:
    logout, expiry, deactivation, a move to another organization); always unsubscribes."""
    by_id = {vehicle.id: vehicle for vehicle in vehicles}
    # Subscribe before reading the snapshot: a change in between is sent, not lost.
    subscription = hub.subscribe()
    loop = asyncio.get_running_loop()
    try:
        board = build_statusboard(vehicles, await read_statuses(), now=clock())
        tiles = {tile.vehicle_id: tile for tile in board.vehicles}
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        yield _sse("snapshot", board)
        next_check, next_heartbeat = loop.time() + check_access_s, loop.time() + heartbeat_s
        while True:
            if loop.time() >= next_check:
                if not await access_holds():
                    return
                next_check = loop.time() + check_access_s
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
