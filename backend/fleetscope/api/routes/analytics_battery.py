"""``/v2/Analytics/Battery``: charge, sessions, depth of discharge, cycles, health, energy.

Same query parameters as productivity (``from``, ``to``, ``vehicles``, ``combined``,
``shift``). Battery capacities (for energy in Wh) come with the scope's vehicles.
"""

from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Response

from fleetscope.analytics.battery.battery import BatteryOut, battery
from fleetscope.api.analytics_deps import FactStoreDep, ScopeDep, reading
from fleetscope.api.deps import SettingsDep
from fleetscope.api.envelope import Envelope, json_ok
from fleetscope.api.errors import ANALYTICS_FAILURES

router = APIRouter(prefix="/Analytics", tags=["Analytics"], responses=ANALYTICS_FAILURES)


@router.get("/Battery", response_model=Envelope[BatteryOut])
def get_battery(
    scope: ScopeDep,
    store: FactStoreDep,
    settings: SettingsDep,
) -> Response:
    capacities = {vehicle.id: vehicle.battery_capacity_wh for vehicle in scope.vehicles}
    with reading(store) as cursor:
        result = battery(
            cursor,
            scope,
            now=datetime.now(UTC),
            offline_after=timedelta(seconds=settings.offline_after_seconds),
            capacities=capacities,
        )
    return json_ok(result)
