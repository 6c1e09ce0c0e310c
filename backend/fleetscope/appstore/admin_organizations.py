"""Organizations and partner links in the Administration API and ``fleetscope
organizations``/``users``: counts, rename, delete (only when empty), the organizations a
partner sees. Creation is ``organizations.create_organization``."""

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from fleetscope.appstore.audit import Actor, record_change
from fleetscope.appstore.errors import ConflictError, InvalidInputError, NotFoundError
from fleetscope.appstore.models import Organization, PartnerLink, Role, Site, User
from fleetscope.appstore.organizations import check_organization_name_free
from fleetscope.appstore.snapshots import organization_snapshot
from fleetscope.i18n.admin_messages import (
    ORGANIZATION_ID_NOT_FOUND,
    ORGANIZATION_ID_UNKNOWN,
    ORGANIZATION_NOT_EMPTY,
    PARTNER_LINKS_CHANGED_MEANWHILE,
    PARTNER_LINKS_NOT_PARTNER,
)
from fleetscope.i18n.messages import MUST_NOT_BE_EMPTY


@dataclass(frozen=True, slots=True)
class OrganizationSummary:
    organization: Organization
    site_count: int
    user_count: int


def organization_summaries(session: Session) -> list[OrganizationSummary]:
    """Every organization by name, with its number of sites and of users belonging to it."""
    site_rows = session.execute(
        select(Site.organization_id, func.count()).group_by(Site.organization_id)
    )
    user_rows = session.execute(
        select(User.organization_id, func.count())
        .where(User.organization_id.is_not(None))
        .group_by(User.organization_id)
    )
    sites = {int(org): int(count) for org, count in site_rows}
    users = {int(org): int(count) for org, count in user_rows if org is not None}
    organizations = session.scalars(select(Organization).order_by(Organization.name))
    return [
        OrganizationSummary(org, sites.get(org.id, 0), users.get(org.id, 0))
        for org in organizations
    ]


def summary_of(session: Session, *, organization: Organization) -> OrganizationSummary:
    sites = session.scalar(
        select(func.count()).select_from(Site).where(Site.organization_id == organization.id)
    )
    users = session.scalar(
        select(func.count()).select_from(User).where(User.organization_id == organization.id)
    )
    return OrganizationSummary(organization, int(sites or 0), int(users or 0))


def organization_by_id(session: Session, *, organization_id: int) -> Organization:
    """The organization of a path id; a 404 if there is none."""
    organization = session.get(Organization, organization_id)
    if organization is None:
        raise NotFoundError(ORGANIZATION_ID_NOT_FOUND(organization=organization_id))
    return organization


def organization_of_field(session: Session, *, organization_id: int, field: str) -> Organization:
    """The organization a body field names; a 422 naming the field if there is none."""
    organization = session.get(Organization, organization_id)
    if organization is None:
        raise InvalidInputError(ORGANIZATION_ID_UNKNOWN(field=field, organization=organization_id))
    return organization


def rename_organization(
    session: Session, *, organization: Organization, name: str, by: Actor
) -> Organization:
    name = name.strip()
    if not name:
        raise InvalidInputError(MUST_NOT_BE_EMPTY(field="name"))
    if name == organization.name:
        return organization
    check_organization_name_free(session, name=name, organization_id=organization.id)
    before = organization_snapshot(organization)
    organization.name = name
    record_change(
        session,
        by=by,
        action="organization.update",
        entity_type="organization",
        entity_id=organization.id,
        before=before,
        after=organization_snapshot(organization),
    )
    session.commit()
    return organization


def delete_organization(session: Session, *, organization: Organization, by: Actor) -> None:
    """Delete an organization without sites and users (a 409 saying how many remain):
    deleting one with sites would delete their vehicles and the way to their facts."""
    summary = summary_of(session, organization=organization)
    if summary.site_count or summary.user_count:
        raise ConflictError(
            ORGANIZATION_NOT_EMPTY(
                name=organization.name, sites=summary.site_count, users=summary.user_count
            )
        )
    record_change(
        session,
        by=by,
        action="organization.delete",
        entity_type="organization",
        entity_id=organization.id,
        before=organization_snapshot(organization),
    )
    session.delete(organization)  # partner links go with it (ON DELETE CASCADE)
    session.commit()


def partner_organization_ids(session: Session, *, user: User) -> list[int]:
    return sorted(
        session.scalars(select(PartnerLink.organization_id).where(PartnerLink.user_id == user.id))
    )


def partner_links_of(session: Session, *, user_ids: Sequence[int]) -> dict[int, list[int]]:
    """The linked organization ids of each of ``user_ids`` (one query for a page of users)."""
    links: dict[int, list[int]] = {}
    if not user_ids:
        return links
    rows = session.execute(
        select(PartnerLink.user_id, PartnerLink.organization_id)
        .where(PartnerLink.user_id.in_(list(user_ids)))
        .order_by(PartnerLink.organization_id)
    )
    for user_id, organization_id in rows:
        links.setdefault(int(user_id), []).append(int(organization_id))
    return links


def set_partner_organizations(
    session: Session,
    *,
    user: User,
    organization_ids: Sequence[int],
    by: Actor,
    edited_from: Sequence[int] | None = None,
) -> list[int]:
    """The organizations a partner sees are exactly ``organization_ids`` from now on. With
    ``edited_from`` (the list the change was made on), a change made while another one landed
    is refused (409) instead of silently undoing it. The user's row is locked until the change
    commits (PostgreSQL; SQLite writes one at a time anyway)."""
    if user.role != Role.PARTNER.value:
        raise InvalidInputError(PARTNER_LINKS_NOT_PARTNER(email=user.email, role=user.role))
    wanted = sorted(set(organization_ids))
    for organization_id in wanted:
        organization_of_field(session, organization_id=organization_id, field="organizationIds")
    if edited_from is not None:
        session.refresh(user, with_for_update={"of": User})
    before = partner_organization_ids(session, user=user)
    if edited_from is not None and sorted(set(edited_from)) != before:
        raise ConflictError(PARTNER_LINKS_CHANGED_MEANWHILE(email=user.email))
    if before == wanted:
        return wanted
    session.execute(delete(PartnerLink).where(PartnerLink.user_id == user.id))
    session.add_all(PartnerLink(user_id=user.id, organization_id=org) for org in wanted)
    record_change(
        session,
        by=by,
        action="user.partnerLinks",
        entity_type="user",
        entity_id=user.id,
        before={"id": user.id, "email": user.email, "partnerOrganizationIds": before},
        after={"id": user.id, "email": user.email, "partnerOrganizationIds": wanted},
    )
    session.commit()
    return wanted
