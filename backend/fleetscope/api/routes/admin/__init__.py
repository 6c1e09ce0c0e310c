"""The Administration API, ``/v2/Admin/...``: superuser only (404 for everyone else, see
``api.deps.SuperUser``); every change writes an audit entry (``appstore.audit``)."""

from fastapi import APIRouter

router = APIRouter(prefix="/Admin", tags=["Administration"])
