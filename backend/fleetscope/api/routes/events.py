"""Usage events of the frontend (page views): which page and role, never which person."""

from typing import Literal

from fastapi import APIRouter
from pydantic import Field

from fleetscope.api.deps import CurrentUser, SessionDep
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import CHANGE_FAILURES
from fleetscope.appstore.models import PageView, Role
from fleetscope.appstore.schemas import StoredText, StrictCamelModel

router = APIRouter(prefix="/Events", tags=["Events"], responses=CHANGE_FAILURES)


class EventBody(StrictCamelModel):
    """The page analytics event of the original spec: user role, page path, ``page_view``."""

    event: Literal["page_view"]
    path: StoredText = Field(min_length=1, max_length=500)
    # Sent by the client as the spec says; the stored role is the session's, never the body's.
    role: Role | None = None


@router.post("", response_model=Envelope[None])
def record_event(body: EventBody, user: CurrentUser, db: SessionDep) -> Envelope[None]:
    # Query strings may carry personal data (an email in a filter); only the path is kept.
    db.add(PageView(role=user.role, path=body.path.split("?", 1)[0]))
    db.commit()
    return ok(None)
