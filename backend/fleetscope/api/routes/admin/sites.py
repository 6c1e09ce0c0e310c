"""``/v2/Admin/Sites``: sites with time zone, MQTT interface, shifts, workflow rules (with a
live preview against the site's recent order ids) and load action types, deleted once they
have no vehicles;
``/v2/Admin/TimeZones`` for the time zone select."""

from typing import Annotated

from fastapi import APIRouter, Query, Request

from fleetscope.api.analytics_deps import FactStoreDep, reading
from fleetscope.api.deps import RequestLanguage, SessionDep, StoreId, SuperUser, release_connection
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.json_body import JsonBodyRoute
from fleetscope.api.routes.admin.common import (
    CHANGE,
    PREVIEW,
    READ,
    follow_site_interfaces,
    wake_job_runner,
)
from fleetscope.appstore.admin_bodies import (
    MAX_STORE_ID,
    SiteCreate,
    SitePatch,
    WorkflowPreviewBody,
)
from fleetscope.appstore.admin_organizations import organization_of_field
from fleetscope.appstore.admin_schemas import (
    OrderPreviewOut,
    RulePreviewOut,
    SiteAdmin,
    SiteUpdated,
    WorkflowPreviewOut,
    job_out,
    site_admin,
)
from fleetscope.appstore.admin_sites import (
    SiteChanges,
    delete_site,
    list_admin_sites,
    site_by_id,
    site_vehicle_ids,
    update_site,
    vehicle_counts,
)
from fleetscope.appstore.audit import Actor
from fleetscope.appstore.models import Site
from fleetscope.appstore.organizations import create_site, time_zone_names
from fleetscope.appstore.workflow_rules import preview_workflows, recent_order_ids
from fleetscope.i18n import render

router = APIRouter(responses=READ, route_class=JsonBodyRoute)

OrganizationFilter = Annotated[
    int | None, Query(alias="organizationId", ge=1, le=MAX_STORE_ID, description="only its sites")
]


def _admin(db: SessionDep, site: Site) -> SiteAdmin:
    count = vehicle_counts(db, site_ids=[site.id]).get(site.id, 0)
    return site_admin(site, vehicle_count=count)


@router.get("/TimeZones", response_model=Envelope[list[str]])
def list_time_zones(_: SuperUser) -> Envelope[list[str]]:
    """Every IANA time zone name a site may have, sorted."""
    return ok(list(time_zone_names()))


@router.get("/Sites", response_model=Envelope[list[SiteAdmin]])
def list_sites(
    _: SuperUser, db: SessionDep, organization_id: OrganizationFilter = None
) -> Envelope[list[SiteAdmin]]:
    """Every site (of one organization if given), by organization and name."""
    sites = list_admin_sites(db, organization_id=organization_id)
    counts = vehicle_counts(db, site_ids=[site.id for site in sites])
    return ok([site_admin(site, vehicle_count=counts.get(site.id, 0)) for site in sites])


@router.get("/Sites/{siteId}", response_model=Envelope[SiteAdmin])
def get_site(siteId: StoreId, _: SuperUser, db: SessionDep) -> Envelope[SiteAdmin]:
    return ok(_admin(db, site_by_id(db, site_id=siteId)))


@router.post("/Sites", response_model=Envelope[SiteAdmin], status_code=201, responses=CHANGE)
def create(
    body: SiteCreate,
    request: Request,
    user: SuperUser,
    db: SessionDep,
    language: RequestLanguage,
) -> Envelope[SiteAdmin]:
    """A new site with the default shifts (early, late, night, every day; named in the
    request's language) and no workflow rules (the default rule applies)."""
    organization = organization_of_field(
        db, organization_id=body.organization_id, field="organizationId"
    )
    site = create_site(
        db,
        organization=organization,
        name=body.name,
        time_zone=body.time_zone,
        mqtt_interface=body.mqtt_interface,
        by=Actor.web(user),
        language=language,
    )
    follow_site_interfaces(request)
    return ok(_admin(db, site))


def _changes(body: SitePatch) -> SiteChanges:
    """The fields the body gives; ``null`` changes only the MQTT interface (removes it)."""
    given = {
        name: getattr(body, name)
        for name in body.model_fields_set - {"version"}
        if getattr(body, name) is not None or name == "mqtt_interface"
    }
    if "shifts" in given:
        given["shifts"] = [shift.model_dump() for shift in body.shifts or []]
    return SiteChanges(**given)


@router.patch("/Sites/{siteId}", response_model=Envelope[SiteUpdated], responses=CHANGE)
def patch_site(
    siteId: StoreId, body: SitePatch, request: Request, user: SuperUser, db: SessionDep
) -> Envelope[SiteUpdated]:
    """Change the given fields. A change of ``workflowRules``, ``loadActionTypes`` or
    ``timeZone`` (the days of the rollups) starts a re-derivation of the site's vehicles
    (``job``); shifts need none. With ``version``, a change made on an older state of the
    site is refused (409)."""
    site, job = update_site(
        db,
        site=site_by_id(db, site_id=siteId),
        changes=_changes(body),
        by=Actor.web(user),
        version=body.version,
    )
    if job is not None:
        wake_job_runner(request)
    if "mqtt_interface" in body.model_fields_set:
        follow_site_interfaces(request)
    return ok(SiteUpdated(site=_admin(db, site), job=None if job is None else job_out(job)))


@router.delete("/Sites/{siteId}", response_model=Envelope[None], responses=CHANGE)
def delete(siteId: StoreId, request: Request, user: SuperUser, db: SessionDep) -> Envelope[None]:
    """Delete a site without vehicles, with its API tokens (409 names how many vehicles it
    has: move them to another site first). Its MQTT interface is no longer heard. The fact
    store holds nothing of it any more: moving a vehicle away sums the site's rollups again
    without it."""
    delete_site(db, site=site_by_id(db, site_id=siteId), by=Actor.web(user))
    follow_site_interfaces(request)
    return ok(None)


@router.post(
    "/Sites/{siteId}/WorkflowPreview",
    response_model=Envelope[WorkflowPreviewOut],
    responses=PREVIEW,
)
def workflow_preview(
    siteId: StoreId,
    body: WorkflowPreviewBody,
    _: SuperUser,
    db: SessionDep,
    store: FactStoreDep,
    language: RequestLanguage,
) -> Envelope[WorkflowPreviewOut]:
    """Which of the given rules assigns which workflow to the site's most recent 1,000
    order ids, as the derivation would; invalid rules are reported per rule, not refused.
    Changes nothing."""
    vehicle_ids = site_vehicle_ids(db, site_id=site_by_id(db, site_id=siteId).id)
    release_connection(db)  # no app-store connection held while the fact store is read
    with reading(store) as cursor:
        order_ids = recent_order_ids(cursor, vehicle_ids=vehicle_ids)
    preview = preview_workflows(rules=body.workflow_rules, order_ids=order_ids)
    return ok(
        WorkflowPreviewOut(
            rules=[
                RulePreviewOut(
                    index=rule.index,
                    pattern=rule.pattern,
                    error=None if rule.error is None else render(rule.error, language),
                    matched=rule.matched,
                )
                for rule in preview.rules
            ],
            orders=[
                OrderPreviewOut(
                    order_id=order.order_id, workflow=order.workflow, rule_index=order.rule_index
                )
                for order in preview.orders
            ],
            assigned=preview.assigned,
            unassigned=preview.unassigned,
            default_rule_applies=preview.default_rule_applies,
        )
    )
