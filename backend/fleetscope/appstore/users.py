"""Users: creation, roles, partner links, passwords and the profile a user edits."""

import re

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from fleetscope.appstore.errors import ConflictError, InvalidInputError, NotFoundError
from fleetscope.appstore.models import Organization, PartnerLink, Role, User, UserSession
from fleetscope.appstore.schemas import LANGUAGES, Language
from fleetscope.appstore.security import hash_password, password_needs_rehash, verify_password
from fleetscope.i18n.messages import (
    EMAIL_TAKEN,
    INVALID_EMAIL,
    MUST_NOT_BE_EMPTY,
    ORGANIZATION_NOT_ALLOWED,
    ORGANIZATION_REQUIRED,
    PASSWORD_TOO_SHORT,
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


def validate_password(password: str) -> str:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InvalidInputError(PASSWORD_TOO_SHORT(min_length=MIN_PASSWORD_LENGTH))
    return password


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
    language: Language = "en",
    display_name: str = "",
) -> User:
    """A new user; a partner given an organization is linked to it instead of belonging to it."""
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
        language=parse_language(language),
        is_active=True,
    )
    session.add(user)
    session.flush()
    if role is Role.PARTNER and organization is not None:
        session.add(PartnerLink(user_id=user.id, organization_id=organization.id))
    session.commit()
    return user


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
    session: Session, *, user: User, role: Role, organization: Organization | None = None
) -> User:
    """Change the role; the organization follows the rules of the new role.

    A customer keeps its organization unless another is given; a partner given an
    organization is linked to it; links of a user who stops being a partner are removed.
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
    session.commit()
    return user


def _link(session: Session, *, user: User, organization: Organization) -> None:
    if session.get(PartnerLink, (user.id, organization.id)) is None:
        session.add(PartnerLink(user_id=user.id, organization_id=organization.id))


def link_partner(session: Session, *, user: User, organization: Organization) -> None:
    """Let a partner see an organization; linking twice is harmless."""
    if user.role != Role.PARTNER.value:
        raise InvalidInputError(USER_NOT_PARTNER(email=user.email, role=user.role))
    _link(session, user=user, organization=organization)
    session.commit()


def unlink_partner(session: Session, *, user: User, organization: Organization) -> None:
    link = session.get(PartnerLink, (user.id, organization.id))
    if link is None:
        raise NotFoundError(USER_NOT_LINKED(email=user.email, organization=organization.name))
    session.delete(link)
    session.commit()


def set_password(session: Session, *, user: User, password: str) -> None:
    """New password; every open session of the user ends."""
    user.password_hash = hash_password(validate_password(password))
    session.execute(delete(UserSession).where(UserSession.user_id == user.id))
    session.commit()


def set_active(session: Session, *, user: User, active: bool) -> None:
    """Switch a login on or off; switching off ends every open session of the user."""
    user.is_active = active
    if not active:
        session.execute(delete(UserSession).where(UserSession.user_id == user.id))
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
    language: Language | None = None,
    display_name: str | None = None,
) -> User:
    if language is not None:
        user.language = parse_language(language)
    if display_name is not None:
        cleaned = display_name.strip()
        if not cleaned:
            raise InvalidInputError(MUST_NOT_BE_EMPTY(field="displayName"))
        user.display_name = cleaned
    session.commit()
    return user
