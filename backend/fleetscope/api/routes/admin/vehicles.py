"""``/v2/Admin/Vehicles``: every vehicle; name, battery capacity, retirement and the move to
another site of the same organization (which re-derives the vehicle's facts)."""

from typing import Annotated

from fastapi import APIRouter, Query, Request

from fleetscope.api.deps import SessionDep, StoreId, SuperUser
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.json_body import JsonBodyRoute
from fleetscope.api.routes.admin.common import (
    CHANGE,
    READ,
    forget_vehicle_sites,
    wake_job_runner,
)
from fleetscope.appstore.admin_bodies import MAX_STORE_ID, VehiclePatch
from fleetscope.appstore.admin_schemas import VehicleAdmin, VehicleUpdated, job_out, vehicle_admin
from fleetscope.appstore.admin_vehicles import (
    VehicleChanges,
    list_admin_vehicles,
    update_vehicle,
    vehicle_by_id,
)
from fleetscope.appstore.audit import Actor

router = APIRouter(responses=READ, route_class=JsonBodyRoute)

SiteFilter = Annotated[
    int | None, Query(alias="siteId", ge=1, le=MAX_STORE_ID, description="only its vehicles")
]
OrganizationFilter = Annotated[
    int | None,
    Query(alias="organizationId", ge=1, le=MAX_STORE_ID, description="only its vehicles"),
]


@router.get("/Vehicles", response_model=Envelope[list[VehicleAdmin]])
def list_vehicles(
    _: SuperUser,
    db: SessionDep,
    site_id: SiteFilter = None,
    organization_id: OrganizationFilter = None,
) -> Envelope[list[VehicleAdmin]]:
    """Every vehicle (of a site or organization if given), by organization, site and name."""
    vehicles = list_admin_vehicles(db, site_id=site_id, organization_id=organization_id)
    return ok([vehicle_admin(vehicle) for vehicle in vehicles])


@router.patch("/Vehicles/{vehicleId}", response_model=Envelope[VehicleUpdated], responses=CHANGE)
def patch_vehicle(
    vehicleId: StoreId, body: VehiclePatch, request: Request, user: SuperUser, db: SessionDep
) -> Envelope[VehicleUpdated]:
    """Change the given fields (``batteryCapacityWh: null`` removes the capacity); a new
    ``siteId`` must be a site of the vehicle's organization and starts a re-derivation;
    ``retired`` takes the vehicle out of service (from now) or back in."""
    given = body.model_fields_set
    changes = VehicleChanges(
        **{
            name: getattr(body, name)
            for name in given
            if getattr(body, name) is not None or name == "battery_capacity_wh"
        }
    )
    vehicle, job = update_vehicle(
        db, vehicle=vehicle_by_id(db, vehicle_id=vehicleId), changes=changes, by=Actor.web(user)
    )
    if body.site_id is not None:
        forget_vehicle_sites(request, [vehicle.id])
    if job is not None:
        wake_job_runner(request)
    return ok(
        VehicleUpdated(vehicle=vehicle_admin(vehicle), job=None if job is None else job_out(job))
    )
