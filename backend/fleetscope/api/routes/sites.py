"""The sites the user may see, with time zone and shifts."""

from fastapi import APIRouter

from fleetscope.api.deps import CurrentUser, SessionDep
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import READ_FAILURES
from fleetscope.appstore.schemas import SiteOut, site_out
from fleetscope.appstore.tenants import visible_sites

router = APIRouter(prefix="/Sites", tags=["Sites"], responses=READ_FAILURES)


@router.get("", response_model=Envelope[list[SiteOut]])
def list_sites(user: CurrentUser, db: SessionDep) -> Envelope[list[SiteOut]]:
    return ok([site_out(site) for site in visible_sites(db, user=user)])
