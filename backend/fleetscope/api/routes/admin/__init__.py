"""The Administration API, ``/v2/Admin/...``: superuser only (404 for everyone else, see
``api.deps.SuperUser``); every change writes an audit entry (``appstore.audit``)."""

from fastapi import APIRouter, Depends

from fleetscope.api.deps import admin_query
from fleetscope.api.routes.admin import (
    audit,
    dead_letters,
    jobs,
    organizations,
    sites,
    tokens,
    users,
    vehicles,
)

router = APIRouter(prefix="/Admin", tags=["Administration"], dependencies=[Depends(admin_query)])
router.include_router(organizations.router)
router.include_router(sites.router)
router.include_router(vehicles.router)
router.include_router(users.router)
router.include_router(audit.router)
router.include_router(tokens.router)
router.include_router(dead_letters.router)
router.include_router(jobs.router)
