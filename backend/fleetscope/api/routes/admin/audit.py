"""``/v2/Admin/Audit``: every change made through the Administration API or the command
line, newest first, paged and filterable."""

from typing import Annotated, get_args

from fastapi import APIRouter, Query
from pydantic import AwareDatetime

from fleetscope.analytics.core.paging import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Page, page_count
from fleetscope.api.deps import SessionDep, SuperUser
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.routes.admin.common import READ, instant_range
from fleetscope.appstore.admin_schemas import AuditEntryOut, audit_entry_out
from fleetscope.appstore.audit import AuditAction, AuditFilter, EntityType, audit_page
from fleetscope.appstore.schemas import StoredText

router = APIRouter(prefix="/Audit", responses=READ)


@router.get("", response_model=Envelope[Page[AuditEntryOut]])
def list_audit(
    _: SuperUser,
    db: SessionDep,
    page: Annotated[int, Query(ge=1, le=1_000_000)] = 1,
    page_size: Annotated[int, Query(alias="pageSize", ge=1, le=MAX_PAGE_SIZE)] = DEFAULT_PAGE_SIZE,
    action: Annotated[
        StoredText | None,
        Query(max_length=64, description=f"exactly one of {', '.join(get_args(AuditAction))}"),
    ] = None,
    entity_type: Annotated[
        StoredText | None,
        Query(
            alias="entityType",
            max_length=32,
            description=f"exactly one of {', '.join(get_args(EntityType))}",
        ),
    ] = None,
    actor: Annotated[
        StoredText | None, Query(max_length=320, description="part of the actor's email or name")
    ] = None,
    at_from: Annotated[
        AwareDatetime | None, Query(alias="from", description="from this instant (inclusive)")
    ] = None,
    at_to: Annotated[
        AwareDatetime | None, Query(alias="to", description="before this instant (exclusive)")
    ] = None,
) -> Envelope[Page[AuditEntryOut]]:
    start, end = instant_range(at_from, at_to, names=("from", "to"))
    filters = AuditFilter(
        action=action or None,
        entity_type=entity_type or None,
        actor=actor or None,
        at_from=start,
        at_to=end,
    )
    entries, total = audit_page(db, filters=filters, page=page, page_size=page_size)
    return ok(
        Page[AuditEntryOut](
            items=[audit_entry_out(entry) for entry in entries],
            total=total,
            page=page,
            page_size=page_size,
            pages=page_count(total, page_size),
            sort="-at",
        )
    )
