"""``/v2/Analytics/Battery``: charge, sessions, depth of discharge, cycles, health, energy.

Same query parameters as productivity (``from``, ``to``, ``vehicles``, ``combined``,
``shift``). Battery capacities (for energy in Wh) come from the application store.
"""

from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Response
from sqlalchemy import select

from fleetscope.analytics.battery import BatteryOut, battery
from fleetscope.api.analytics_deps import FactIndexDep, FactStoreDep, ScopeDep, reading
from fleetscope.api.deps import SessionDep, SettingsDep
from fleetscope.api.envelope import Envelope, json_ok
from fleetscope.appstore.models import Vehicle

router = APIRouter(prefix="/Analytics", tags=["Analytics"])


@router.get("/Battery", response_model=Envelope[BatteryOut])
def get_battery(
    scope: ScopeDep,
    store: FactStoreDep,
    index: FactIndexDep,
    settings: SettingsDep,
    db: SessionDep,
) -> Response:
    rows = db.execute(
        select(Vehicle.id, Vehicle.battery_capacity_wh).where(Vehicle.id.in_(scope.vehicle_ids))
    )
    capacities = {int(vehicle_id): capacity for vehicle_id, capacity in rows}
    with reading(store) as cursor:
        result = battery(
            cursor,
            scope,
            now=datetime.now(UTC),
            offline_after=timedelta(seconds=settings.offline_after_seconds),
            capacities=capacities,
            hours=index.battery_hours if index else None,
        )
    return json_ok(result)
