"""Usage events of the frontend (page views): which page and role, never which person."""

import math
from datetime import timedelta
from typing import Literal

from fastapi import APIRouter
from pydantic import Field

from fleetscope.api.deps import CurrentUser, PageViewBudgetDep, SessionDep, SettingsDep
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import CHANGE_FAILURES, PAGE_VIEWS_THROTTLED, ApiError, failure_responses
from fleetscope.api.json_body import JsonBodyRoute
from fleetscope.appstore.models import Role
from fleetscope.appstore.page_views import record_page_view
from fleetscope.appstore.schemas import StoredText, StrictCamelModel
from fleetscope.i18n.messages import TOO_MANY_PAGE_VIEWS

router = APIRouter(
    prefix="/Events", tags=["Events"], responses=CHANGE_FAILURES, route_class=JsonBodyRoute
)


class EventBody(StrictCamelModel):
    """The page analytics event of the original spec: user role, page path, ``page_view``."""

    event: Literal["page_view"]
    path: StoredText = Field(min_length=1, max_length=500)
    # Sent by the client as the spec says; the stored role is the session's, never the body's.
    role: Role | None = None


@router.post("", response_model=Envelope[None], responses=failure_responses(PAGE_VIEWS_THROTTLED))
def record_event(
    body: EventBody,
    user: CurrentUser,
    db: SessionDep,
    settings: SettingsDep,
    budget: PageViewBudgetDep,
) -> Envelope[None]:
    wait = budget.take(user.id)
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise ApiError(
            429,
            TOO_MANY_PAGE_VIEWS(limit=budget.per_minute, seconds=seconds),
            headers={"Retry-After": str(seconds)},
        )
    record_page_view(
        db,
        role=user.role,
        path=body.path,
        retention=timedelta(days=settings.page_view_retention_days),
    )
    return ok(None)
