"""``/v2/Admin/Organizations`` and the partner links of ``/v2/Admin/Users/{id}``."""

from fastapi import APIRouter

from fleetscope.api.deps import SessionDep, StoreId, SuperUser
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.json_body import JsonBodyRoute
from fleetscope.api.routes.admin.common import CHANGE, READ
from fleetscope.appstore.admin_bodies import (
    OrganizationBody,
    PartnerLinksChange,
    PartnerOrganizations,
)
from fleetscope.appstore.admin_organizations import (
    delete_organization,
    organization_by_id,
    organization_summaries,
    partner_organization_ids,
    rename_organization,
    set_partner_organizations,
    summary_of,
)
from fleetscope.appstore.admin_schemas import OrganizationAdmin, organization_admin
from fleetscope.appstore.admin_users import user_by_id
from fleetscope.appstore.audit import Actor
from fleetscope.appstore.organizations import create_organization

router = APIRouter(responses=READ, route_class=JsonBodyRoute)


@router.get("/Organizations", response_model=Envelope[list[OrganizationAdmin]])
def list_organizations(_: SuperUser, db: SessionDep) -> Envelope[list[OrganizationAdmin]]:
    """Every organization by name, with its number of sites and users."""
    return ok([organization_admin(summary) for summary in organization_summaries(db)])


@router.post(
    "/Organizations",
    response_model=Envelope[OrganizationAdmin],
    status_code=201,
    responses=CHANGE,
)
def create(body: OrganizationBody, user: SuperUser, db: SessionDep) -> Envelope[OrganizationAdmin]:
    """A new organization (409 for a name that exists)."""
    organization = create_organization(db, name=body.name, by=Actor.web(user))
    return ok(organization_admin(summary_of(db, organization=organization)))


@router.patch(
    "/Organizations/{organizationId}",
    response_model=Envelope[OrganizationAdmin],
    responses=CHANGE,
)
def rename(
    organizationId: StoreId, body: OrganizationBody, user: SuperUser, db: SessionDep
) -> Envelope[OrganizationAdmin]:
    """Rename (409 for a name another organization has)."""
    organization = organization_by_id(db, organization_id=organizationId)
    rename_organization(db, organization=organization, name=body.name, by=Actor.web(user))
    return ok(organization_admin(summary_of(db, organization=organization)))


@router.delete("/Organizations/{organizationId}", response_model=Envelope[None], responses=CHANGE)
def delete(organizationId: StoreId, user: SuperUser, db: SessionDep) -> Envelope[None]:
    """Delete an organization without sites and users (409 names how many remain)."""
    organization = organization_by_id(db, organization_id=organizationId)
    delete_organization(db, organization=organization, by=Actor.web(user))
    return ok(None)


@router.get("/Users/{userId}/PartnerOrganizations", response_model=Envelope[PartnerOrganizations])
def get_partner_organizations(
    userId: StoreId, _: SuperUser, db: SessionDep
) -> Envelope[PartnerOrganizations]:
    """The organizations a partner user sees (empty for other roles)."""
    ids = partner_organization_ids(db, user=user_by_id(db, user_id=userId))
    return ok(PartnerOrganizations(organization_ids=ids))


@router.put(
    "/Users/{userId}/PartnerOrganizations",
    response_model=Envelope[PartnerOrganizations],
    responses=CHANGE,
)
def put_partner_organizations(
    userId: StoreId, body: PartnerLinksChange, user: SuperUser, db: SessionDep
) -> Envelope[PartnerOrganizations]:
    """The partner sees exactly these organizations from now on (422 for another role or
    an organization id that does not exist). With ``editedFrom``, a change made on a list
    another administrator has changed since is refused (409)."""
    ids = set_partner_organizations(
        db,
        user=user_by_id(db, user_id=userId),
        organization_ids=body.organization_ids,
        by=Actor.web(user),
        edited_from=body.edited_from,
    )
    return ok(PartnerOrganizations(organization_ids=ids))
