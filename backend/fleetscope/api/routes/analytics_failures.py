"""``/v2/Analytics/``: failures (analysis, matrix, map, history with CSV export).

Same query parameters as productivity (``from``, ``to``, ``vehicles``, ``combined``,
``shift``) plus the filters ``errorType``, ``level`` (WARNING, URGENT, CRITICAL, FATAL;
repeated for any of several) and a failure map's density cell (``mapId``, ``cell``,
``grid``); the history adds ``page``, ``pageSize``, ``sort`` and ``vehicle``.
"""

from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response
from fastapi.responses import StreamingResponse

from fleetscope.analytics.core.paging import Page
from fleetscope.analytics.failures.error_history import (
    ErrorEpisodeRow,
    error_history,
    error_history_csv,
    history_query,
)
from fleetscope.analytics.failures.failures import (
    LEVELS,
    MAX_ERROR_TYPE_LENGTH,
    ErrorFilter,
    ErrorLevel,
    FailureMatrixOut,
    FailuresOut,
    failure_matrix,
    failures,
)
from fleetscope.analytics.failures.layout import MapCell, layout_cache
from fleetscope.analytics.failures.map import FailureMapOut, failure_map
from fleetscope.api.analytics_deps import (
    FactStoreDep,
    ScopedDep,
    ScopeDep,
    reading,
)
from fleetscope.api.deps import RequestLanguage, SettingsDep
from fleetscope.api.envelope import Envelope, json_ok
from fleetscope.api.errors import ANALYTICS_FAILURES
from fleetscope.api.routes.analytics_processes import PageDep, VehicleFilter, selected_vehicle
from fleetscope.appstore.schemas import chosen_language

router = APIRouter(prefix="/Analytics", tags=["Analytics"], responses=ANALYTICS_FAILURES)


# Async: a sync dependency costs a worker-thread hop (0.4-1.1 ms), for no I/O here.
async def error_filter(
    error_type: Annotated[
        str | None,
        Query(alias="errorType", min_length=1, max_length=MAX_ERROR_TYPE_LENGTH),
    ] = None,
    level: Annotated[
        list[ErrorLevel] | None,
        Query(
            max_length=len(LEVELS),
            description="error levels, the parameter repeated for each (any of them); the "
            "fatal errors' tiles ask for CRITICAL and FATAL (VDA 5050 3.0's stop levels)",
        ),
    ] = None,
    map_id: Annotated[
        str | None,
        Query(alias="mapId", min_length=1, max_length=200, description="with cell and grid"),
    ] = None,
    cell: Annotated[
        str | None,
        Query(
            max_length=40,
            description="one cell of a failure map's density grid: column,row (from 0); the "
            "episodes of map mapId that the map's answer counts in that cell",
        ),
    ] = None,
    grid: Annotated[
        str | None,
        Query(
            max_length=200,
            description="the density grid of that answer: originX,originY,cellSize,columns,rows",
        ),
    ] = None,
) -> ErrorFilter:
    return ErrorFilter(
        error_type=error_type,
        levels=tuple(dict.fromkeys(level or ())),
        cell=MapCell.parse(map_id=map_id, cell=cell, grid=grid),
    )


ErrorFilterDep = Annotated[ErrorFilter, Depends(error_filter)]


@router.get("/Failures", response_model=Envelope[FailuresOut])
def get_failures(
    scope: ScopeDep,
    store: FactStoreDep,
    settings: SettingsDep,
    errors: ErrorFilterDep,
) -> Response:
    with reading(store) as cursor:
        result = failures(
            cursor,
            scope,
            now=datetime.now(UTC),
            offline_after=timedelta(seconds=settings.offline_after_seconds),
            errors=errors,
        )
    return json_ok(result)


@router.get("/FailureMatrix", response_model=Envelope[FailureMatrixOut])
def get_failure_matrix(scope: ScopeDep, store: FactStoreDep, errors: ErrorFilterDep) -> Response:
    with reading(store) as cursor:
        return json_ok(failure_matrix(cursor, scope, now=datetime.now(UTC), errors=errors))


@router.get("/FailureMap", response_model=Envelope[FailureMapOut])
def get_failure_map(scope: ScopeDep, store: FactStoreDep, errors: ErrorFilterDep) -> Response:
    with reading(store) as cursor:
        result = failure_map(
            cursor,
            scope,
            now=datetime.now(UTC),
            errors=errors,
            layouts=layout_cache(store),
        )
    return json_ok(result)


@router.get("/ErrorHistory", response_model=Envelope[Page[ErrorEpisodeRow]])
def get_error_history(
    scope: ScopeDep,
    store: FactStoreDep,
    errors: ErrorFilterDep,
    page: PageDep,
    vehicle: VehicleFilter = None,
) -> Response:
    vehicle_id = selected_vehicle(scope, vehicle)
    with reading(store) as cursor:
        result = error_history(
            cursor, scope, now=datetime.now(UTC), page=page, errors=errors, vehicle_id=vehicle_id
        )
    return json_ok(result)


@router.get(
    "/ErrorHistory.csv",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/csv": {}}, "description": "the filtered list as CSV"}},
)
def get_error_history_csv(
    scoped: ScopedDep,
    store: FactStoreDep,
    errors: ErrorFilterDep,
    request_language: RequestLanguage,
    sort: Annotated[str | None, Query(max_length=64)] = None,
    vehicle: VehicleFilter = None,
) -> StreamingResponse:
    # The user comes with the scope (one session lookup): the CSV's texts are in their
    # language, or the browser's while they have chosen none.
    scope, language = scoped.scope, chosen_language(scoped.user) or request_language
    vehicle_id = selected_vehicle(scope, vehicle)
    query = history_query(
        scope, now=datetime.now(UTC), errors=errors, vehicle_id=vehicle_id, sort=sort
    )
    filename = f"error-history-{scope.span.first.isoformat()}-{scope.span.last.isoformat()}.csv"
    chunks = error_history_csv(store.cursor(), scope, query=query, language=language)
    return StreamingResponse(
        chunks,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
