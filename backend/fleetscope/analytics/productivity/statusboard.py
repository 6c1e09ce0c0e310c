"""``GET /v2/Analytics/Statusboard``: one live tile per vehicle, worst state first.

Order of the states (worst first): ``error`` (stopped, needs someone), ``offline`` (no
contact), ``manual`` (taken out of automatic operation), ``charging`` (not available),
``idle`` (available but unused capacity), ``working`` (all well). Within a state the vehicle
that has been in it longest comes first, then by name. A vehicle that never sent a message
is ``offline`` with no ``since``.
"""

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import datetime

import duckdb

from fleetscope.analytics.core.params import VehicleRef
from fleetscope.analytics.core.sql_time import utc_from_us
from fleetscope.analytics.productivity.models import (
    ActiveError,
    StateName,
    StatusboardOut,
    StatusTile,
)
from fleetscope.facts.model import LiveStatus, VehicleState
from fleetscope.facts.rawlog import from_micros

STATE_ORDER: tuple[StateName, ...] = ("error", "offline", "manual", "charging", "idle", "working")
_RANK = {state: rank for rank, state in enumerate(STATE_ORDER)}
_FAR_FUTURE = datetime.max.isoformat()


def read_live(cursor: duckdb.DuckDBPyConnection, vehicle_ids: list[int]) -> dict[int, LiveStatus]:
    if not vehicle_ids:
        return {}
    rows = cursor.execute(
        "SELECT vehicle_id, state, epoch_us(since), epoch_us(last_message_at), order_id, "
        "workflow, charge, "
        "charging, active_errors, x, y, map_id FROM live_status "
        "WHERE vehicle_id IN (SELECT unnest(?::INTEGER[]))",
        [vehicle_ids],
    ).fetchall()
    statuses = {}
    for row in rows:
        errors = tuple(tuple(str(part) for part in error) for error in json.loads(row[8]))
        statuses[int(row[0])] = LiveStatus(
            vehicle_id=int(row[0]),
            state=VehicleState(row[1]),
            since=from_micros(row[2]),
            last_message_at=utc_from_us(row[3]),
            order_id=row[4],
            workflow=row[5],
            charge=row[6],
            charging=bool(row[7]),
            active_errors=tuple((e[0], e[1], e[2]) for e in errors if len(e) >= 3),
            x=row[9],
            y=row[10],
            map_id=row[11],
        )
    return statuses


def status_tile(vehicle: VehicleRef, status: LiveStatus | None, *, now: datetime) -> StatusTile:
    if status is None:
        return StatusTile(
            vehicle_id=vehicle.id,
            name=vehicle.name,
            site_id=vehicle.site_id,
            state="offline",
            since=None,
            order_id="",
            workflow="",
            charge=None,
            charging=False,
            active_errors=[],
            last_message_at=None,
            seconds_since_last_message=None,
        )
    last = status.last_message_at
    return StatusTile(
        vehicle_id=vehicle.id,
        name=vehicle.name,
        site_id=vehicle.site_id,
        state=status.state.value,
        since=status.since,
        order_id=status.order_id,
        workflow=status.workflow,
        charge=status.charge,
        charging=status.charging,
        active_errors=[
            ActiveError(error_type=kind, level=level, description=text)
            for kind, level, text in status.active_errors
        ],
        last_message_at=last,
        seconds_since_last_message=None if last is None else (now - last).total_seconds(),
    )


def state_counts(tiles: Iterable[StatusTile]) -> dict[str, int]:
    counted = Counter(tile.state for tile in tiles)
    return {state: counted.get(state, 0) for state in STATE_ORDER}


def _sort_key(tile: StatusTile) -> tuple[int, str, str, int]:
    since = tile.since.isoformat() if tile.since is not None else _FAR_FUTURE
    return (_RANK[tile.state], since, tile.name, tile.vehicle_id)


def build_statusboard(
    vehicles: Iterable[VehicleRef], statuses: Mapping[int, LiveStatus], *, now: datetime
) -> StatusboardOut:
    tiles = sorted(
        (status_tile(vehicle, statuses.get(vehicle.id), now=now) for vehicle in vehicles),
        key=_sort_key,
    )
    return StatusboardOut(
        generated_at=now,
        state_order=list(STATE_ORDER),
        counts=state_counts(tiles),
        vehicles=tiles,
    )


def statusboard(
    cursor: duckdb.DuckDBPyConnection, vehicles: list[VehicleRef], *, now: datetime
) -> StatusboardOut:
    statuses = read_live(cursor, [vehicle.id for vehicle in vehicles])
    return build_statusboard(vehicles, statuses, now=now)
