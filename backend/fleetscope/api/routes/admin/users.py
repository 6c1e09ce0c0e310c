"""``/v2/Admin/Users``: a paged list, creation with a temporary password shown once,
changes of role, organization, language, display name and activity, password reset,
deletion."""

from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy.orm import Session

from fleetscope.analytics.core.paging import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Page, page_count
from fleetscope.api.deps import SessionDep, StoreId, SuperUser
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.json_body import JsonBodyRoute
from fleetscope.api.routes.admin.common import CHANGE, READ
from fleetscope.appstore.admin_bodies import MAX_STORE_ID, UserCreate, UserPatchAdmin
from fleetscope.appstore.admin_organizations import partner_links_of
from fleetscope.appstore.admin_schemas import (
    PasswordResetOut,
    UserAdmin,
    UserCreated,
    user_admin,
)
from fleetscope.appstore.admin_users import (
    UserChanges,
    UserFilter,
    create_user_with_temporary_password,
    delete_user,
    reset_password,
    update_user,
    user_by_id,
    user_page,
)
from fleetscope.appstore.audit import Actor
from fleetscope.appstore.models import Organization, Role, User
from fleetscope.appstore.schemas import StoredText

router = APIRouter(prefix="/Users", responses=READ, route_class=JsonBodyRoute)


def _admin_views(db: Session, users: list[User]) -> list[UserAdmin]:
    links = partner_links_of(db, user_ids=[user.id for user in users])
    return [
        user_admin(
            user,
            organization=db.get(Organization, user.organization_id)
            if user.organization_id is not None
            else None,
            partner_organization_ids=links.get(user.id, []),
        )
        for user in users
    ]


@router.get("", response_model=Envelope[Page[UserAdmin]])
def list_users(
    _: SuperUser,
    db: SessionDep,
    page: Annotated[int, Query(ge=1, le=1_000_000)] = 1,
    page_size: Annotated[int, Query(alias="pageSize", ge=1, le=MAX_PAGE_SIZE)] = DEFAULT_PAGE_SIZE,
    search: Annotated[
        StoredText | None, Query(max_length=200, description="part of the email or display name")
    ] = None,
    role: Role | None = None,
    organization_id: Annotated[
        int | None, Query(alias="organizationId", ge=1, le=MAX_STORE_ID)
    ] = None,
) -> Envelope[Page[UserAdmin]]:
    """The users matching the filters, by email."""
    filters = UserFilter(search=search or None, role=role, organization_id=organization_id)
    users, total = user_page(db, filters=filters, page=page, page_size=page_size)
    return ok(
        Page[UserAdmin](
            items=_admin_views(db, users),
            total=total,
            page=page,
            page_size=page_size,
            pages=page_count(total, page_size),
            sort="email",
        )
    )


@router.post("", response_model=Envelope[UserCreated], status_code=201, responses=CHANGE)
def create(body: UserCreate, user: SuperUser, db: SessionDep) -> Envelope[UserCreated]:
    """A new user; ``temporaryPassword`` is in this answer only. A customer needs an
    organization; superuser, support and service belong to none; a partner given one is
    linked to it (``PartnerOrganizations``)."""
    created, password = create_user_with_temporary_password(
        db,
        email=body.email,
        role=body.role,
        organization_id=body.organization_id,
        language=body.language,
        display_name=body.display_name,
        by=Actor.web(user),
    )
    return ok(UserCreated(user=_admin_views(db, [created])[0], temporary_password=password))


@router.patch("/{userId}", response_model=Envelope[UserAdmin], responses=CHANGE)
def patch_user(
    userId: StoreId, body: UserPatchAdmin, user: SuperUser, db: SessionDep
) -> Envelope[UserAdmin]:
    """Change the given fields. ``isActive: false`` ends every session of the user at once
    and refuses their login; a superuser cannot deactivate or demote themselves."""
    given = {
        name: getattr(body, name)
        for name in body.model_fields_set
        # null: no organization, or no language chosen (the user's browser decides)
        if getattr(body, name) is not None or name in ("organization_id", "language")
    }
    changed = update_user(
        db, user=user_by_id(db, user_id=userId), changes=UserChanges(**given), by=Actor.web(user)
    )
    return ok(_admin_views(db, [changed])[0])


@router.post("/{userId}/PasswordReset", response_model=Envelope[PasswordResetOut], responses=CHANGE)
def password_reset(userId: StoreId, user: SuperUser, db: SessionDep) -> Envelope[PasswordResetOut]:
    """A new temporary password (in this answer only); the user's sessions end."""
    password = reset_password(db, user=user_by_id(db, user_id=userId), by=Actor.web(user))
    return ok(PasswordResetOut(temporary_password=password))


@router.delete("/{userId}", response_model=Envelope[None], responses=CHANGE)
def delete(userId: StoreId, user: SuperUser, db: SessionDep) -> Envelope[None]:
    """Delete a user for good, with their sessions, saved settings and partner links (422
    for one's own account). The audit log keeps their changes under their email."""
    delete_user(db, user=user_by_id(db, user_id=userId), by=Actor.web(user))
    return ok(None)
