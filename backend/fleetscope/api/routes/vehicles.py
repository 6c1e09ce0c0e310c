"""The vehicles the user may see."""

from fastapi import APIRouter

from fleetscope.api.deps import CurrentUser, SessionDep
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import READ_FAILURES
from fleetscope.appstore.schemas import VehicleOut, vehicle_out
from fleetscope.appstore.tenants import visible_vehicles

router = APIRouter(prefix="/Vehicles", tags=["Vehicles"], responses=READ_FAILURES)


@router.get("", response_model=Envelope[list[VehicleOut]])
def list_vehicles(user: CurrentUser, db: SessionDep) -> Envelope[list[VehicleOut]]:
    return ok([vehicle_out(vehicle) for vehicle in visible_vehicles(db, user=user)])
