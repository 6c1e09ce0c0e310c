"""All routers of the JSON API; ``api.main`` mounts them under ``/v2``."""

from fastapi import APIRouter

from fleetscope.api.routes import (
    analytics,
    analytics_battery,
    analytics_failures,
    analytics_processes,
    events,
    ingest,
    sites,
    statusboard_stream,
    user,
    vehicles,
)

api_router = APIRouter()
api_router.include_router(user.router)
api_router.include_router(vehicles.router)
api_router.include_router(sites.router)
api_router.include_router(events.router)
api_router.include_router(ingest.router)
api_router.include_router(analytics.router)
api_router.include_router(analytics_processes.router)
api_router.include_router(analytics_failures.router)
api_router.include_router(analytics_battery.router)
api_router.include_router(statusboard_stream.router)
