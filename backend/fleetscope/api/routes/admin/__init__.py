"""The Administration API, ``/v2/Admin/...``: superuser only (404 for everyone else, see
``api.deps.SuperUser``); every change writes an audit entry (``appstore.audit``)."""

from fastapi import APIRouter

from fleetscope.api.routes.admin import dead_letters, tokens

router = APIRouter(prefix="/Admin", tags=["Administration"])
router.include_router(tokens.router)
router.include_router(dead_letters.router)
