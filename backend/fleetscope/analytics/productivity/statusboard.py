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


def read_live(cursor: duckdb.DuckDBPyConnection, vehicle_ids: list[int]) -> dict[int, LiveStatus]:
    rows = cursor.execute(
        "SELECT vehicle_id, state, epoch_us(since), epoch_us(last_message_at), order_id, "
        "workflow, charge, charging, active_errors, x, y, map_id FROM live_status "
        "WHERE vehicle_id IN (SELECT unnest(?::INTEGER[]))",
        [vehicle_ids],
    ).fetchall()
    return {
        vehicle_id: LiveStatus(
            vehicle_id,
            VehicleState(state),
            from_micros(since),
            utc_from_us(last_message_at),
            *details,
            bool(charging),
            tuple((str(e[0]), str(e[1]), str(e[2])) for e in json.loads(errors) if len(e) >= 3),
            *place,
        )
        for vehicle_id, state, since, last_message_at, *details, charging, errors, x, y, map_id in rows
    }
