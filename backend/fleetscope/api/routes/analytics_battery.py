"""``/v2/Analytics/Battery``: charge, sessions, depth of discharge, cycles, health, energy.

Same query parameters as productivity (``from``, ``to``, ``vehicles``, ``combined``,
``shift``); the session list adds ``page``, ``pageSize``, ``sort``, ``vehicle`` and
``depth``. Battery capacities (for energy in Wh) come with the scope's vehicles.
"""

from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Query, Response

from fleetscope.analytics.battery.battery import BatteryOut, battery
from fleetscope.analytics.battery.sessions import DOD_BIN, DOD_BINS, ChargeSession, charge_sessions
from fleetscope.analytics.core.paging import Page
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.api.analytics_deps import FactStoreDep, ScopeDep, reading
from fleetscope.api.deps import SettingsDep
from fleetscope.api.envelope import Envelope, json_ok
from fleetscope.api.errors import ANALYTICS_FAILURES
from fleetscope.api.routes.analytics_processes import PageDep, VehicleFilter, selected_vehicle

router = APIRouter(prefix="/Analytics", tags=["Analytics"], responses=ANALYTICS_FAILURES)


@router.get("/Battery", response_model=Envelope[BatteryOut])
def get_battery(
    scope: ScopeDep,
    store: FactStoreDep,
    settings: SettingsDep,
) -> Response:
    with reading(store) as cursor:
        result = battery(
            cursor,
            scope,
            now=datetime.now(UTC),
            offline_after=timedelta(seconds=settings.offline_after_seconds),
            capacities=_capacities(scope),
        )
    return json_ok(result)


DepthFilter = Annotated[
    int | None,
    Query(
        ge=0,
        le=(DOD_BINS - 1) * DOD_BIN,
        multiple_of=DOD_BIN,
        description="only sessions of one bar of the depth-of-discharge histogram: depth "
        "from this many percentage points to 10 more (90: 90-100)",
    ),
]


@router.get("/Battery/Sessions", response_model=Envelope[Page[ChargeSession]])
def get_charge_sessions(
    scope: ScopeDep,
    store: FactStoreDep,
    page: PageDep,
    vehicle: VehicleFilter = None,
    depth: DepthFilter = None,
) -> Response:
    """The charge sessions starting in T, newest first unless ``sort`` says otherwise
    (``start``, ``end``, ``duration``, ``added``, ``depth``, ``vehicle``)."""
    vehicle_id = selected_vehicle(scope, vehicle)
    with reading(store) as cursor:
        result = charge_sessions(
            cursor,
            scope,
            now=datetime.now(UTC),
            page=page,
            capacities=_capacities(scope),
            depth_bin=None if depth is None else depth // DOD_BIN,
            vehicle_id=vehicle_id,
        )
    return json_ok(result)


def _capacities(scope: AnalyticsScope) -> dict[int, float | None]:
    return {vehicle.id: vehicle.battery_capacity_wh for vehicle in scope.vehicles}
