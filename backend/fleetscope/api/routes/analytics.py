"""``/v2/Analytics/``: productivity, history, dashboard and statusboard (thin handlers).

Every resource takes the same query parameters (``from``, ``to``, ``vehicles``,
``combined``, ``shift``; see ``fleetscope.analytics.core.params``) and reads only the vehicles
the signed-in user may see.
"""

from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Response

from fleetscope.analytics.dashboards.dashboard import DashboardOut, dashboard
from fleetscope.analytics.dashboards.statusboard import (
    StatusboardOut,
    build_statusboard,
    live_vehicles,
    read_live,
)
from fleetscope.analytics.productivity.history import ProductivityHistoryOut, productivity_history
from fleetscope.analytics.productivity.productivity import ProductivityOut, productivity
from fleetscope.api.analytics_deps import FactStoreDep, ScopeDep, reading
from fleetscope.api.deps import SettingsDep
from fleetscope.api.envelope import Envelope, json_ok
from fleetscope.api.errors import ANALYTICS_FAILURES

router = APIRouter(prefix="/Analytics", tags=["Analytics"], responses=ANALYTICS_FAILURES)


def _offline_after(settings: SettingsDep) -> timedelta:
    return timedelta(seconds=settings.offline_after_seconds)


@router.get("/Productivity", response_model=Envelope[ProductivityOut])
def get_productivity(scope: ScopeDep, store: FactStoreDep, settings: SettingsDep) -> Response:
    with reading(store) as cursor:
        result = productivity(
            cursor, scope, now=datetime.now(UTC), offline_after=_offline_after(settings)
        )
    return json_ok(result)


@router.get("/ProductivityHistory", response_model=Envelope[ProductivityHistoryOut])
def get_productivity_history(
    scope: ScopeDep, store: FactStoreDep, settings: SettingsDep
) -> Response:
    with reading(store) as cursor:
        result = productivity_history(
            cursor, scope, now=datetime.now(UTC), offline_after=_offline_after(settings)
        )
    return json_ok(result)


@router.get("/Dashboard", response_model=Envelope[DashboardOut])
def get_dashboard(scope: ScopeDep, store: FactStoreDep, settings: SettingsDep) -> Response:
    with reading(store) as cursor:
        result = dashboard(
            cursor, scope, now=datetime.now(UTC), offline_after=_offline_after(settings)
        )
    return json_ok(result)


@router.get("/Statusboard", response_model=Envelope[StatusboardOut])
def get_statusboard(scope: ScopeDep, store: FactStoreDep) -> Response:
    vehicles = live_vehicles(scope.vehicles)
    with reading(store) as cursor:
        statuses = read_live(cursor, [vehicle.id for vehicle in vehicles])
    return json_ok(build_statusboard(vehicles, statuses, now=datetime.now(UTC)))
