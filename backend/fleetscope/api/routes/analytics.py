"""``/v2/Analytics/``: productivity, history, dashboard and statusboard (thin handlers).

Every resource takes the same query parameters (``from``, ``to``, ``vehicles``,
``combined``, ``shift``; see ``fleetscope.analytics.params``) and reads only the vehicles
the signed-in user may see.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from typing import Annotated

import duckdb
from fastapi import APIRouter, Depends, Query, Request

from fleetscope.analytics.dashboard import dashboard
from fleetscope.analytics.history import productivity_history
from fleetscope.analytics.models import (
    DashboardOut,
    ProductivityHistoryOut,
    ProductivityOut,
    StatusboardOut,
)
from fleetscope.analytics.params import AnalyticsParams, AnalyticsScope, resolve_scope
from fleetscope.analytics.productivity import productivity
from fleetscope.analytics.statusboard import statusboard
from fleetscope.api.deps import CurrentUser, SessionDep, SettingsDep
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import ApiError
from fleetscope.facts.store import FactStore

router = APIRouter(prefix="/Analytics", tags=["Analytics"])


def analytics_params(
    from_: Annotated[
        date | None,
        Query(alias="from", description="first day (site-local, inclusive); default: saved"),
    ] = None,
    to: Annotated[
        date | None, Query(description="last day (site-local, inclusive); default: saved")
    ] = None,
    vehicles: Annotated[
        str | None,
        Query(
            max_length=20_000,
            description="comma-separated vehicle ids; default: the saved selection, else all",
        ),
    ] = None,
    combined: Annotated[
        bool | None, Query(description="one aggregate instead of one per vehicle")
    ] = None,
    shift: Annotated[
        str | None, Query(max_length=64, description="a shift id of the sites, or 'all'")
    ] = None,
) -> AnalyticsParams:
    return AnalyticsParams(
        date_from=from_, date_to=to, vehicles=vehicles, combined=combined, shift=shift
    )


ParamsDep = Annotated[AnalyticsParams, Depends(analytics_params)]


def get_scope(db: SessionDep, user: CurrentUser, params: ParamsDep) -> AnalyticsScope:
    return resolve_scope(db, user=user, params=params)


ScopeDep = Annotated[AnalyticsScope, Depends(get_scope)]


def get_fact_store(request: Request) -> FactStore:
    ingestion = getattr(request.app.state, "ingestion", None)
    if ingestion is None:
        raise ApiError(503, "the fact store is not open yet; try again in a moment")
    store: FactStore = ingestion.store
    return store


FactStoreDep = Annotated[FactStore, Depends(get_fact_store)]


@contextmanager
def reading(store: FactStore) -> Iterator[duckdb.DuckDBPyConnection]:
    cursor = store.cursor()
    try:
        yield cursor
    finally:
        cursor.close()


def _offline_after(settings: SettingsDep) -> timedelta:
    return timedelta(seconds=settings.offline_after_seconds)


@router.get("/Productivity", response_model=Envelope[ProductivityOut])
def get_productivity(
    scope: ScopeDep, store: FactStoreDep, settings: SettingsDep
) -> Envelope[ProductivityOut]:
    with reading(store) as cursor:
        result = productivity(
            cursor, scope, now=datetime.now(UTC), offline_after=_offline_after(settings)
        )
    return ok(result)


@router.get("/ProductivityHistory", response_model=Envelope[ProductivityHistoryOut])
def get_productivity_history(
    scope: ScopeDep, store: FactStoreDep, settings: SettingsDep
) -> Envelope[ProductivityHistoryOut]:
    with reading(store) as cursor:
        result = productivity_history(
            cursor, scope, now=datetime.now(UTC), offline_after=_offline_after(settings)
        )
    return ok(result)


@router.get("/Dashboard", response_model=Envelope[DashboardOut])
def get_dashboard(
    scope: ScopeDep, store: FactStoreDep, settings: SettingsDep
) -> Envelope[DashboardOut]:
    with reading(store) as cursor:
        result = dashboard(
            cursor, scope, now=datetime.now(UTC), offline_after=_offline_after(settings)
        )
    return ok(result)


@router.get("/Statusboard", response_model=Envelope[StatusboardOut])
def get_statusboard(scope: ScopeDep, store: FactStoreDep) -> Envelope[StatusboardOut]:
    with reading(store) as cursor:
        result = statusboard(cursor, scope.vehicles, now=datetime.now(UTC))
    return ok(result)
