"""``/v2/Analytics/``: processes (analysis, workflows with drill-down, actions with failures).

Same query parameters as productivity (``from``, ``to``, ``vehicles``, ``combined``,
``shift``); lists add ``page``, ``pageSize``, ``sort`` and their filters.
"""

from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Response

from fleetscope.analytics.core.paging import MAX_PAGE_SIZE, Page, PageRequest
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import TimeCell
from fleetscope.analytics.processes.actions import ActionsOut, FailedAction, actions, failed_actions
from fleetscope.analytics.processes.orders import ProcessesOut, processes
from fleetscope.analytics.processes.workflows import (
    Outcome,
    WorkflowHistogramOut,
    WorkflowOrder,
    WorkflowsOut,
    workflow_histogram,
    workflow_orders,
    workflows,
)
from fleetscope.api.analytics_deps import FactStoreDep, ScopeDep, reading
from fleetscope.api.deps import SettingsDep
from fleetscope.api.envelope import Envelope, json_ok
from fleetscope.api.errors import ANALYTICS_FAILURES
from fleetscope.appstore.errors import NotFoundError
from fleetscope.facts.rollup import CYCLE_BUCKET_COUNT
from fleetscope.i18n.messages import VEHICLE_NOT_FOUND

router = APIRouter(prefix="/Analytics", tags=["Analytics"], responses=ANALYTICS_FAILURES)
MAX_PAGE = 1_000_000


# Async: a sync dependency costs a worker-thread hop (0.4-1.1 ms), for no I/O here.
async def page_request(
    page: Annotated[int, Query(ge=1, le=MAX_PAGE, description="page number, from 1")] = 1,
    page_size: Annotated[
        int, Query(alias="pageSize", ge=1, le=MAX_PAGE_SIZE, description="rows per page")
    ] = 50,
    sort: Annotated[
        str | None,
        Query(max_length=64, description="a column of the list, '-' prefix for descending"),
    ] = None,
) -> PageRequest:
    return PageRequest(page=page, page_size=page_size, sort=sort)


PageDep = Annotated[PageRequest, Depends(page_request)]


async def heatmap_cell(
    weekday: Annotated[
        int | None,
        Query(
            ge=0,
            le=6,
            description="only orders ended on this site-local weekday (0 = Monday; for a shift "
            "crossing midnight, the day it started), as the productivity heatmap bins them",
        ),
    ] = None,
    hour: Annotated[
        int | None,
        Query(ge=0, le=23, description="only orders ended in this site-local hour of the day"),
    ] = None,
) -> TimeCell | None:
    """A cell (or row) of the orders heatmap: its drill-down lists the orders it counts."""
    return None if weekday is None and hour is None else TimeCell(weekday=weekday, hour=hour)


CellDep = Annotated[TimeCell | None, Depends(heatmap_cell)]
CycleBucket = Annotated[
    int | None,
    Query(
        alias="cycleBucket",
        ge=0,
        le=CYCLE_BUCKET_COUNT - 1,
        description="only the finished orders in this bucket of the cycle-time histogram "
        "(its index in histogramEdges)",
    ),
]


def selected_vehicle(scope: AnalyticsScope, vehicle: int | None) -> int | None:
    """The ``vehicle`` filter of a list: one of the selected vehicles, else a 404."""
    if vehicle is not None and vehicle not in scope.vehicle_ids:
        raise NotFoundError(VEHICLE_NOT_FOUND(vehicle=vehicle))
    return vehicle


VehicleFilter = Annotated[
    int | None, Query(ge=0, le=2**31 - 1, description="only this vehicle (of the selection)")
]
WorkflowPath = Annotated[str, Path(min_length=1, max_length=200)]
ActionTypePath = Annotated[str, Path(alias="actionType", min_length=1, max_length=200)]


@router.get("/Processes", response_model=Envelope[ProcessesOut])
def get_processes(scope: ScopeDep, store: FactStoreDep) -> Response:
    with reading(store) as cursor:
        return json_ok(processes(cursor, scope, now=datetime.now(UTC)))


@router.get("/Workflows", response_model=Envelope[WorkflowsOut])
def get_workflows(
    scope: ScopeDep,
    store: FactStoreDep,
    settings: SettingsDep,
    cell: CellDep,
    sort: Annotated[str | None, Query(max_length=64)] = None,
    cycle_bucket: CycleBucket = None,
) -> Response:
    with reading(store) as cursor:
        return json_ok(
            workflows(
                cursor,
                scope,
                now=datetime.now(UTC),
                offline_after=timedelta(seconds=settings.offline_after_seconds),
                sort=sort,
                cell=cell,
                cycle_bucket=cycle_bucket,
            )
        )


@router.get("/Workflows/{workflow:path}/Orders", response_model=Envelope[Page[WorkflowOrder]])
def get_workflow_orders(
    workflow: WorkflowPath,
    scope: ScopeDep,
    store: FactStoreDep,
    page: PageDep,
    cell: CellDep,
    outcome: Outcome | None = None,
    cycle_bucket: CycleBucket = None,
    vehicle: VehicleFilter = None,
) -> Response:
    vehicle_id = selected_vehicle(scope, vehicle)
    with reading(store) as cursor:
        result = workflow_orders(
            cursor,
            scope,
            now=datetime.now(UTC),
            workflow=workflow,
            page=page,
            outcome=outcome,
            cycle_bucket=cycle_bucket,
            vehicle_id=vehicle_id,
            cell=cell,
        )
    return json_ok(result)


@router.get("/Workflows/{workflow:path}/Histogram", response_model=Envelope[WorkflowHistogramOut])
def get_workflow_histogram(
    workflow: WorkflowPath, scope: ScopeDep, store: FactStoreDep, cell: CellDep
) -> Response:
    with reading(store) as cursor:
        result = workflow_histogram(
            cursor, scope, now=datetime.now(UTC), workflow=workflow, cell=cell
        )
    return json_ok(result)


@router.get("/Actions", response_model=Envelope[ActionsOut])
def get_actions(scope: ScopeDep, store: FactStoreDep) -> Response:
    with reading(store) as cursor:
        return json_ok(actions(cursor, scope, now=datetime.now(UTC)))


@router.get("/Actions/{actionType:path}/Failures", response_model=Envelope[Page[FailedAction]])
def get_failed_actions(
    action_type: ActionTypePath,
    scope: ScopeDep,
    store: FactStoreDep,
    page: PageDep,
    vehicle: VehicleFilter = None,
) -> Response:
    vehicle_id = selected_vehicle(scope, vehicle)
    with reading(store) as cursor:
        result = failed_actions(
            cursor,
            scope,
            now=datetime.now(UTC),
            action_type=action_type,
            page=page,
            vehicle_id=vehicle_id,
        )
    return json_ok(result)
