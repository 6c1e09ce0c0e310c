"""Users: creation, roles, partner links, passwords and the profile a user edits."""

import re
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from fleetscope.appstore.audit import Actor, AuditAction, record_change
from fleetscope.appstore.errors import ConflictError, InvalidInputError, NotFoundError
from fleetscope.appstore.models import Organization, PartnerLink, Role, User, UserSession
from fleetscope.appstore.schemas import LANGUAGES, Language
from fleetscope.appstore.security import hash_password, password_needs_rehash, verify_password
from fleetscope.appstore.snapshots import changed_fields, user_snapshot
from fleetscope.appstore.unchanged import UNCHANGED, Unchanged
from fleetscope.i18n.messages import (
    EMAIL_TAKEN,
    INVALID_EMAIL,
    MUST_NOT_BE_EMPTY,
    ORGANIZATION_NOT_ALLOWED,
    ORGANIZATION_REQUIRED,
    PASSWORD_NOT_CURRENT,
    PASSWORD_TOO_SHORT,
    PASSWORD_UNCHANGED,
    UNKNOWN_LANGUAGE,
    UNKNOWN_ROLE,
    USER_NOT_FOUND,
    USER_NOT_LINKED,
    USER_NOT_PARTNER,
)

MIN_PASSWORD_LENGTH = 8
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
# Roles whose users belong to exactly one organization / to none (they see all or linked ones).
ORGANIZATION_ROLES = frozenset({Role.CUSTOMER})
UNBOUND_ROLES = frozenset({Role.SUPERUSER, Role.SUPPORT, Role.SERVICE})


def normalize_email(email: str) -> str:
    normalized = email.strip().lower()
    if len(normalized) > 320 or not _EMAIL.match(normalized):
        raise InvalidInputError(INVALID_EMAIL(email=email))
    return normalized


def parse_role(value: str) -> Role:
    try:
        return Role(value.strip().lower())
    except ValueError:
        choices = ", ".join(role.value for role in Role)
        raise InvalidInputError(UNKNOWN_ROLE(role=value, choices=choices)) from None


def parse_language(value: str) -> Language:
    for language in LANGUAGES:
        if value == language:
            return language
    raise InvalidInputError(UNKNOWN_LANGUAGE(language=value))


def stored_language(language: Language | None) -> str:
    """A language as the user's row keeps it: none chosen ("") lets the browser decide."""
    return "" if language is None else parse_language(language)


def validate_password(password: str, *, field: str = "password") -> str:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InvalidInputError(PASSWORD_TOO_SHORT(field=field, min_length=MIN_PASSWORD_LENGTH))
    return password


def check_new_password(*, current: str, new: str) -> None:
    """422 unless ``new`` may replace ``current`` (before the current one is checked)."""
    validate_password(new, field="newPassword")
    if new == current:
        raise InvalidInputError(PASSWORD_UNCHANGED())


def _check_role_organization(role: Role, organization: Organization | None) -> None:
    if role in ORGANIZATION_ROLES and organization is None:
        raise InvalidInputError(ORGANIZATION_REQUIRED(role=role.value))
    if role in UNBOUND_ROLES and organization is not None:
        raise InvalidInputError(ORGANIZATION_NOT_ALLOWED(role=role.value))


def create_user(
    session: Session,
    *,
    email: str,
    password: str,
    role: Role,
    organization: Organization | None = None,
    language: Language | None = None,
    display_name: str = "",
    by: Actor | None = None,
    password_temporary: bool = False,
) -> User:
    """A new user; a partner given an organization is linked to it instead of belonging to it.
    ``by``: who creates it, for the audit log (None: the demo seed and tests).
    ``password_temporary``: an administrator's password, for the user to replace."""
    email = normalize_email(email)
    if find_user(session, email=email) is not None:
        raise ConflictError(EMAIL_TAKEN(email=email))
    own_organization = None if role is Role.PARTNER else organization
    _check_role_organization(role, own_organization)
    user = User(
        email=email,
        password_hash=hash_password(password),
        role=role.value,
        organization_id=own_organization.id if own_organization else None,
        display_name=display_name.strip() or email.split("@", 1)[0],
        language=stored_language(language),
        is_active=True,
        password_temporary=password_temporary,
    )
    session.add(user)
    session.flush()
    linked = [organization.id] if role is Role.PARTNER and organization is not None else []
    session.add_all(PartnerLink(user_id=user.id, organization_id=org) for org in linked)
    if by is not None:
        after = user_snapshot(user, partner_organization_ids=linked)
        record_change(
            session, by=by, action="user.create", entity_type="user", entity_id=user.id, after=after
        )
    session.commit()
    return user


def audit_user_change(
    session: Session, *, user: User, before: dict[str, Any], action: AuditAction, by: Actor | None
) -> None:
    """One audit entry with the fields of ``user`` that changed since ``before``."""
    if by is None:
        return
    after = user_snapshot(user, partner_organization_ids=_linked_ids(session, user=user))
    old, new = changed_fields(before, after)
    record_change(
        session, by=by, action=action, entity_type="user", entity_id=user.id, before=old, after=new
    )


def user_state(session: Session, *, user: User) -> dict[str, Any]:
    """``user_snapshot`` with the partner links, as ``audit_user_change`` compares it."""
    return user_snapshot(user, partner_organization_ids=_linked_ids(session, user=user))


def _linked_ids(session: Session, *, user: User) -> list[int]:
    session.flush()
    return sorted(
        session.scalars(select(PartnerLink.organization_id).where(PartnerLink.user_id == user.id))
    )


def find_user(session: Session, *, email: str) -> User | None:
    return session.scalars(select(User).where(User.email == email.strip().lower())).first()


def get_user(session: Session, *, email: str) -> User:
    user = find_user(session, email=email)
    if user is None:
        raise NotFoundError(USER_NOT_FOUND(email=email))
    return user


def list_users(session: Session) -> list[User]:
    return list(session.scalars(select(User).order_by(User.email)))


def partner_organizations(session: Session, *, user: User) -> list[Organization]:
    statement = (
        select(Organization)
        .join(PartnerLink, PartnerLink.organization_id == Organization.id)
        .where(PartnerLink.user_id == user.id)
        .order_by(Organization.name)
    )
    return list(session.scalars(statement))


def set_role(
    session: Session,
    *,
    user: User,
    role: Role,
    organization: Organization | None = None,
    by: Actor | None = None,
) -> User:
    """Change the role; the organization follows the rules of the new role (``apply_role``)."""
    before = user_state(session, user=user)
    apply_role(session, user=user, role=role, organization=organization)
    audit_user_change(session, user=user, before=before, action="user.update", by=by)
    session.commit()
    return user


def apply_role(
    session: Session, *, user: User, role: Role, organization: Organization | None
) -> None:
    """Change the role in ``session`` (not committed); the organization follows the rules of
    the new role. A customer keeps its organization unless another is given; a partner given
    an organization is linked to it; links of a user who stops being a partner are removed.
    """
    own_organization: Organization | None = None
    if role is Role.CUSTOMER:
        own_organization = organization or (
            session.get(Organization, user.organization_id) if user.organization_id else None
        )
    elif role is not Role.PARTNER:
        own_organization = organization
    _check_role_organization(role, own_organization)
    if role is Role.PARTNER:
        if organization is not None:
            _link(session, user=user, organization=organization)
    else:
        session.execute(delete(PartnerLink).where(PartnerLink.user_id == user.id))
    user.role = role.value
    user.organization_id = own_organization.id if own_organization else None


def _link(session: Session, *, user: User, organization: Organization) -> None:
    if session.get(PartnerLink, (user.id, organization.id)) is None:
        session.add(PartnerLink(user_id=user.id, organization_id=organization.id))


def link_partner(
    session: Session, *, user: User, organization: Organization, by: Actor | None = None
) -> None:
    """Let a partner see an organization; linking twice is harmless."""
    if user.role != Role.PARTNER.value:
        raise InvalidInputError(USER_NOT_PARTNER(email=user.email, role=user.role))
    before = user_state(session, user=user)
    _link(session, user=user, organization=organization)
    audit_user_change(session, user=user, before=before, action="user.partnerLinks", by=by)
    session.commit()


def unlink_partner(
    session: Session, *, user: User, organization: Organization, by: Actor | None = None
) -> None:
    link = session.get(PartnerLink, (user.id, organization.id))
    if link is None:
        raise NotFoundError(USER_NOT_LINKED(email=user.email, organization=organization.name))
    before = user_state(session, user=user)
    session.delete(link)
    audit_user_change(session, user=user, before=before, action="user.partnerLinks", by=by)
    session.commit()


def end_sessions(session: Session, *, user: User, keep: UserSession | None = None) -> None:
    """Every open session of the user but ``keep`` ends at once: its next request is a 401."""
    ended = delete(UserSession).where(UserSession.user_id == user.id)
    if keep is not None:
        ended = ended.where(UserSession.token_hash != keep.token_hash)
    session.execute(ended)


def set_password(
    session: Session,
    *,
    user: User,
    password: str,
    by: Actor | None = None,
    temporary: bool = False,
) -> None:
    """New password (``temporary``: for the user to replace); every open session of the user
    ends. The audit entry names the user only: never the password or its hash."""
    user.password_hash = hash_password(validate_password(password))
    user.password_temporary = temporary
    end_sessions(session, user=user)
    if by is not None:
        record_change(
            session,
            by=by,
            action="user.passwordReset",
            entity_type="user",
            entity_id=user.id,
            after={"id": user.id, "email": user.email},
        )
    session.commit()


def change_own_password(
    session: Session, *, user: User, current: str, new: str, kept_session: UserSession
) -> User:
    """The user's own choice of password instead of ``current`` (422 when it is not theirs),
    no longer temporary. Every other session of the user ends: whoever knew the old password
    is signed out, the browser that changed it stays signed in."""
    check_new_password(current=current, new=new)
    if not verify_password(password=current, password_hash=user.password_hash):
        raise InvalidInputError(PASSWORD_NOT_CURRENT())
    user.password_hash = hash_password(new)
    user.password_temporary = False
    end_sessions(session, user=user, keep=kept_session)
    record_change(
        session,
        by=Actor.web(user),
        action="user.passwordChange",
        entity_type="user",
        entity_id=user.id,
        after={"id": user.id, "email": user.email},
    )
    session.commit()
    return user


def set_active(session: Session, *, user: User, active: bool, by: Actor | None = None) -> None:
    """Switch a login on or off; switching off ends every open session of the user."""
    before = user_state(session, user=user)
    user.is_active = active
    if not active:
        end_sessions(session, user=user)
    action: AuditAction = "user.activate" if active else "user.deactivate"
    if before["isActive"] != active:
        audit_user_change(session, user=user, before=before, action=action, by=by)
    session.commit()


def authenticate(session: Session, *, email: str, password: str) -> User | None:
    """The active user with these credentials, or None (same cost whether the email exists)."""
    user = find_user(session, email=email)
    stored_hash = user.password_hash if user is not None and user.is_active else None
    if not verify_password(password=password, password_hash=stored_hash) or user is None:
        return None
    if password_needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
        session.commit()
    return user


def update_profile(
    session: Session,
    *,
    user: User,
    language: Language | Unchanged | None = UNCHANGED,
    display_name: str | None = None,
) -> User:
    """``language``: None forgets the chosen one, the app follows the browser again."""
    if not isinstance(language, Unchanged):
        user.language = stored_language(language)
    if display_name is not None:
        cleaned = display_name.strip()
        if not cleaned:
            raise InvalidInputError(MUST_NOT_BE_EMPTY(field="displayName"))
        user.display_name = cleaned
    session.commit()
    return user
