"""Tenant rules of product.md section 1: the ONE place that decides what a user may see.

Every endpoint that returns data about vehicles scopes it with these functions.
"""

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from fleetscope.appstore.models import Organization, PartnerLink, Role, Site, User, Vehicle

# Superuser administers; support and service help every customer, read-only.
ALL_ORGANIZATIONS_ROLES = frozenset({Role.SUPERUSER, Role.SUPPORT, Role.SERVICE})
ADMINISTRATOR_ROLES = frozenset({Role.SUPERUSER})


def role_of(user: User) -> Role | None:
    """The user's role, or None for a value this version does not know (sees nothing)."""
    try:
        return Role(user.role)
    except ValueError:
        return None


def can_administer(user: User) -> bool:
    return role_of(user) in ADMINISTRATOR_ROLES


def visible_organization_ids(session: Session, *, user: User) -> set[int]:
    role = role_of(user)
    if not user.is_active or role is None:
        return set()
    if role in ALL_ORGANIZATIONS_ROLES:
        return set(session.scalars(select(Organization.id)))
    if role is Role.CUSTOMER:
        return {user.organization_id} if user.organization_id is not None else set()
    # Partner: exactly the organizations linked to this partner, never its own.
    return set(
        session.scalars(select(PartnerLink.organization_id).where(PartnerLink.user_id == user.id))
    )


def visible_sites(session: Session, *, user: User) -> list[Site]:
    organization_ids = visible_organization_ids(session, user=user)
    if not organization_ids:
        return []
    statement = (
        select(Site)
        .join(Site.organization)
        .options(joinedload(Site.organization))
        .where(Site.organization_id.in_(organization_ids))
        .order_by(Organization.name, Site.name, Site.id)
    )
    return list(session.scalars(statement))


def visible_vehicles(session: Session, *, user: User) -> list[Vehicle]:
    organization_ids = visible_organization_ids(session, user=user)
    if not organization_ids:
        return []
    statement = (
        select(Vehicle)
        .join(Vehicle.site)
        .join(Site.organization)
        .options(joinedload(Vehicle.site).joinedload(Site.organization))
        .where(Site.organization_id.in_(organization_ids))
        .order_by(Organization.name, Site.name, Vehicle.name, Vehicle.id)
    )
    return list(session.scalars(statement))


def visible_vehicle_rows(
    session: Session, *, user: User
) -> list[tuple[int, str, int, float | None, datetime | None]]:
    """(id, name, site id, battery capacity in Wh, retired at) of the vehicles ``visible_vehicles``
    returns, in its order: without loading entities, for the analytics scope that every
    analytics request resolves."""
    organization_ids = visible_organization_ids(session, user=user)
    if not organization_ids:
        return []
    statement = (
        select(
            Vehicle.id,
            Vehicle.name,
            Vehicle.site_id,
            Vehicle.battery_capacity_wh,
            Vehicle.retired_at,
        )
        .join(Vehicle.site)
        .join(Site.organization)
        .where(Site.organization_id.in_(organization_ids))
        .order_by(Organization.name, Site.name, Vehicle.name, Vehicle.id)
    )
    return [
        (int(v), str(name), int(site), None if capacity is None else float(capacity), retired)
        for v, name, site, capacity, retired in session.execute(statement)
    ]


def visible_vehicle_ids(session: Session, *, user: User) -> set[int]:
    organization_ids = visible_organization_ids(session, user=user)
    if not organization_ids:
        return set()
    statement = (
        select(Vehicle.id).join(Vehicle.site).where(Site.organization_id.in_(organization_ids))
    )
    return set(session.scalars(statement))


def visible_shift_ids(session: Session, *, user: User) -> set[str]:
    return {
        str(shift.get("id"))
        for site in visible_sites(session, user=user)
        for shift in site.shifts
        if isinstance(shift, dict)
    }
