"""Users in the Administration API: a paged list, creation with a temporary password shown
once, changes of role, organization, language, display name and activity, password reset,
deletion.
The command line's ``fleetscope users`` uses the same functions of ``appstore.users``."""

import secrets
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from fleetscope.appstore.admin_organizations import organization_of_field
from fleetscope.appstore.audit import Actor, AuditAction, contains_pattern, record_change
from fleetscope.appstore.errors import InvalidInputError, NotFoundError
from fleetscope.appstore.models import Organization, Role, User
from fleetscope.appstore.schemas import Language
from fleetscope.appstore.unchanged import UNCHANGED, Unchanged
from fleetscope.appstore.users import (
    apply_role,
    audit_user_change,
    create_user,
    end_sessions,
    set_password,
    stored_language,
    user_state,
)
from fleetscope.i18n.admin_messages import (
    CANNOT_DEACTIVATE_SELF,
    CANNOT_DELETE_SELF,
    CANNOT_DEMOTE_SELF,
    USER_ID_NOT_FOUND,
)
from fleetscope.i18n.messages import MUST_NOT_BE_EMPTY

TEMPORARY_PASSWORD_BYTES = 12  # 16 URL-safe characters, about 96 bits


def temporary_password() -> str:
    return secrets.token_urlsafe(TEMPORARY_PASSWORD_BYTES)


def user_by_id(session: Session, *, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise NotFoundError(USER_ID_NOT_FOUND(user=user_id))
    return user


@dataclass(frozen=True, slots=True)
class UserFilter:
    search: str | None = None  # part of the email or display name, any case
    role: Role | None = None
    organization_id: int | None = None


def user_page(
    session: Session, *, filters: UserFilter, page: int, page_size: int
) -> tuple[list[User], int]:
    """One page of the users matching ``filters`` by email, and how many match in all."""
    conditions = []
    if filters.search:
        pattern = contains_pattern(filters.search)
        conditions.append(
            or_(
                func.lower(User.email).like(pattern, escape="\\"),
                func.lower(User.display_name).like(pattern, escape="\\"),
            )
        )
    if filters.role is not None:
        conditions.append(User.role == filters.role.value)
    if filters.organization_id is not None:
        conditions.append(User.organization_id == filters.organization_id)
    total = session.scalar(select(func.count()).select_from(User).where(*conditions)) or 0
    users = session.scalars(
        select(User)
        .where(*conditions)
        .order_by(User.email, User.id)
        .offset((page - 1) * page_size)
        .limit(page_size)
    )
    return list(users), int(total)


def create_user_with_temporary_password(
    session: Session,
    *,
    email: str,
    role: Role,
    organization_id: int | None,
    language: Language | None,
    display_name: str,
    by: Actor,
) -> tuple[User, str]:
    """A new user and a temporary password, returned once (only its hash is kept)."""
    organization = (
        None
        if organization_id is None
        else organization_of_field(session, organization_id=organization_id, field="organizationId")
    )
    password = temporary_password()
    user = create_user(
        session,
        email=email,
        password=password,
        role=role,
        organization=organization,
        language=language,
        display_name=display_name,
        by=by,
        password_temporary=True,
    )
    return user, password


@dataclass(frozen=True, slots=True)
class UserChanges:
    role: Role | Unchanged = UNCHANGED
    organization_id: int | Unchanged | None = UNCHANGED
    language: Language | Unchanged | None = UNCHANGED  # None: none chosen, the browser's
    display_name: str | Unchanged = UNCHANGED
    is_active: bool | Unchanged = UNCHANGED


def _is_self(user: User, by: Actor) -> bool:
    return isinstance(by.who, User) and by.who.id == user.id


def _check_self(user: User, changes: UserChanges, by: Actor) -> None:
    """A superuser keeps the way back in: no deactivating or demoting oneself."""
    if not _is_self(user, by):
        return
    if changes.is_active is False:
        raise InvalidInputError(CANNOT_DEACTIVATE_SELF())
    if not isinstance(changes.role, Unchanged) and changes.role is not Role.SUPERUSER:
        raise InvalidInputError(CANNOT_DEMOTE_SELF())


def update_user(session: Session, *, user: User, changes: UserChanges, by: Actor) -> User:
    """Apply ``changes`` and write one audit entry (``user.deactivate`` or ``user.activate``
    when the change switches the login off or on, else ``user.update``); deactivation ends
    every session at once."""
    _check_self(user, changes, by)
    before = user_state(session, user=user)
    if not isinstance(changes.role, Unchanged) or not isinstance(
        changes.organization_id, Unchanged
    ):
        role = Role(user.role) if isinstance(changes.role, Unchanged) else changes.role
        organization: Organization | None = None
        if isinstance(changes.organization_id, int):
            organization = organization_of_field(
                session, organization_id=changes.organization_id, field="organizationId"
            )
        elif changes.organization_id is None and role is Role.CUSTOMER:
            # An explicit null for a customer: the role's rule refuses it by name.
            user.organization_id = None
        apply_role(session, user=user, role=role, organization=organization)
    if not isinstance(changes.language, Unchanged):
        user.language = stored_language(changes.language)
    if not isinstance(changes.display_name, Unchanged):
        cleaned = changes.display_name.strip()
        if not cleaned:
            raise InvalidInputError(MUST_NOT_BE_EMPTY(field="displayName"))
        user.display_name = cleaned
    if not isinstance(changes.is_active, Unchanged):
        user.is_active = changes.is_active
        if not changes.is_active:
            end_sessions(session, user=user)
    if user_state(session, user=user) != before:
        action: AuditAction = "user.update"
        if before["isActive"] != user.is_active:  # the change of most weight names the entry
            action = "user.activate" if user.is_active else "user.deactivate"
        audit_user_change(session, user=user, before=before, action=action, by=by)
    session.commit()
    return user


def reset_password(session: Session, *, user: User, by: Actor) -> str:
    """A new temporary password, returned once; every session of the user ends."""
    password = temporary_password()
    set_password(session, user=user, password=password, by=by, temporary=True)
    return password


def delete_user(session: Session, *, user: User, by: Actor) -> None:
    """Delete a user for good (not oneself: a superuser keeps the way back in). Their
    sessions, saved settings and partner links go with them; the audit log keeps what they
    did under their email, and this deletion with the user as it was."""
    if _is_self(user, by):
        raise InvalidInputError(CANNOT_DELETE_SELF())
    record_change(
        session,
        by=by,
        action="user.delete",
        entity_type="user",
        entity_id=user.id,
        before=user_state(session, user=user),
    )
    session.delete(user)  # sessions, settings, partner links: ON DELETE CASCADE
    session.commit()
