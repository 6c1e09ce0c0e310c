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
from typing import Any

import duckdb

from fleetscope.analytics.core.params import VehicleRef
from fleetscope.analytics.core.sql import utc_from_us
from fleetscope.analytics.productivity.models import (
    ActiveError,
    StateName,
    StatusboardOut,
    StatusTile,
)
from fleetscope.facts.model import LiveStatus, VehicleState
from fleetscope.facts.rawlog import from_micros

STATE_ORDER: tuple[StateName, ...] = ("error", "offline", "manual", "charging", "idle", "working")


def _errors(text: str) -> tuple[tuple[str, str, str], ...]:
    return tuple((str(e[0]), str(e[1]), str(e[2])) for e in json.loads(text) if len(e) >= 3)


def read_live(cursor: duckdb.DuckDBPyConnection, vehicle_ids: list[int]) -> dict[int, LiveStatus]:
    rows = cursor.execute(
        "SELECT vehicle_id, state, epoch_us(since), epoch_us(last_message_at), order_id, "
        "workflow, charge, charging, active_errors, x, y, map_id FROM live_status "
        "WHERE vehicle_id IN (SELECT unnest(?::INTEGER[]))",
        [vehicle_ids],
    ).fetchall()
    return {
        int(r[0]): LiveStatus(
            int(r[0]),
            VehicleState(r[1]),
            from_micros(r[2]),
            utc_from_us(r[3]),
            r[4],
            r[5],
            r[6],
            bool(r[7]),
            _errors(r[8]),
            r[9],
            r[10],
            r[11],
        )
        for r in rows
    }


def status_tile(vehicle: VehicleRef, status: LiveStatus | None, *, now: datetime) -> StatusTile:
    fields: dict[str, Any] = dict.fromkeys(
        ("since", "charge", "last_message_at", "seconds_since_last_message")
    )
    fields.update(state="offline", order_id="", workflow="", charging=False, active_errors=[])
    if status is not None:
        last = status.last_message_at
        fields.update(
            {name: getattr(status, name) for name in ("since", "order_id", "workflow", "charge")},
            state=status.state.value,
            charging=status.charging,
            active_errors=[
                ActiveError(error_type=kind, level=level, description=text)
                for kind, level, text in status.active_errors
            ],
            last_message_at=last,
            seconds_since_last_message=None if last is None else (now - last).total_seconds(),
        )
    return StatusTile(vehicle_id=vehicle.id, name=vehicle.name, site_id=vehicle.site_id, **fields)


def state_counts(tiles: Iterable[StatusTile]) -> dict[str, int]:
    counted = Counter(tile.state for tile in tiles)
    return {state: counted.get(state, 0) for state in STATE_ORDER}


def build_statusboard(
    vehicles: Iterable[VehicleRef], statuses: Mapping[int, LiveStatus], *, now: datetime
) -> StatusboardOut:
    tiles = sorted(
        (status_tile(vehicle, statuses.get(vehicle.id), now=now) for vehicle in vehicles),
        key=lambda t: (
            STATE_ORDER.index(t.state),
            t.since is None,
            t.since or now,
            t.name,
            t.vehicle_id,
        ),
    )
    return StatusboardOut(
        generated_at=now, state_order=list(STATE_ORDER), counts=state_counts(tiles), vehicles=tiles
    )


def statusboard(
    cursor: duckdb.DuckDBPyConnection, vehicles: list[VehicleRef], *, now: datetime
) -> StatusboardOut:
    return build_statusboard(vehicles, read_live(cursor, [v.id for v in vehicles]), now=now)
