"""Sites in the Administration API and ``fleetscope sites``: read with their vehicle
counts, changed field by field; a change of workflow rules, load action types or time zone
queues a re-derivation of the site's vehicles (``appstore.jobs``). A site without vehicles
can be deleted."""

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, delete, exists, func, select
from sqlalchemy.orm import Session, joinedload

from fleetscope.appstore.audit import Actor, record_change
from fleetscope.appstore.errors import ConflictError, InvalidInputError, NotFoundError
from fleetscope.appstore.jobs import JobReason, start_job
from fleetscope.appstore.models import ApiToken, Organization, RederiveJob, Site, Vehicle
from fleetscope.appstore.organizations import (
    check_mqtt_interface,
    check_site_name_free,
    clean_load_action_types,
    validate_time_zone,
)
from fleetscope.appstore.shifts import validate_shifts
from fleetscope.appstore.site_version import require_version
from fleetscope.appstore.snapshots import changed_fields, site_snapshot
from fleetscope.appstore.unchanged import UNCHANGED, Unchanged
from fleetscope.appstore.workflow_rules import validate_workflow_rules
from fleetscope.i18n.admin_messages import SITE_HAS_VEHICLES
from fleetscope.i18n.messages import MUST_NOT_BE_EMPTY, SITE_NOT_FOUND


@dataclass(frozen=True, slots=True)
class SiteChanges:
    name: str | Unchanged = UNCHANGED
    time_zone: str | Unchanged = UNCHANGED
    mqtt_interface: str | Unchanged | None = UNCHANGED
    shifts: list[dict[str, Any]] | Unchanged = UNCHANGED
    workflow_rules: list[str] | Unchanged = UNCHANGED
    load_action_types: list[str] | Unchanged = UNCHANGED


def site_by_id(session: Session, *, site_id: int) -> Site:
    site = session.get(Site, site_id, options=[joinedload(Site.organization)])
    if site is None:
        raise NotFoundError(SITE_NOT_FOUND(site=site_id))
    return site


def rule_patterns(site: Site) -> list[str]:
    """The site's workflow rules as patterns (older rows may hold ``{"pattern": ...}``)."""
    return [
        str(rule.get("pattern")) if isinstance(rule, dict) else str(rule)
        for rule in site.workflow_rules or []
    ]


def vehicle_counts(session: Session, *, site_ids: list[int]) -> dict[int, int]:
    if not site_ids:
        return {}
    rows = session.execute(
        select(Vehicle.site_id, func.count())
        .where(Vehicle.site_id.in_(site_ids))
        .group_by(Vehicle.site_id)
    )
    return {int(site): int(count) for site, count in rows}


def site_vehicle_ids(session: Session, *, site_id: int) -> list[int]:
    return list(session.scalars(select(Vehicle.id).where(Vehicle.site_id == site_id)))


def list_admin_sites(session: Session, *, organization_id: int | None = None) -> list[Site]:
    statement = (
        select(Site)
        .join(Site.organization)
        .options(joinedload(Site.organization))
        .order_by(Organization.name, Site.name, Site.id)
    )
    if organization_id is not None:
        statement = statement.where(Site.organization_id == organization_id)
    return list(session.scalars(statement))


def _rename(session: Session, *, site: Site, name: str) -> None:
    name = name.strip()
    if not name:
        raise InvalidInputError(MUST_NOT_BE_EMPTY(field="name"))
    check_site_name_free(session, organization=site.organization, name=name, site_id=site.id)
    site.name = name


def _job_reason(before: dict[str, Any], after: dict[str, Any]) -> JobReason | None:
    # One job re-derives every fact of the vehicles, so two reasons need one job only.
    if before["workflowRules"] != after["workflowRules"]:
        return "workflowRules"
    if before["loadActionTypes"] != after["loadActionTypes"]:
        return "loadActionTypes"
    if before["timeZone"] != after["timeZone"]:
        return "timeZone"  # the daily rollups are cut at the site's midnights
    return None


def update_site(
    session: Session, *, site: Site, changes: SiteChanges, by: Actor, version: str | None = None
) -> tuple[Site, RederiveJob | None]:
    """Apply ``changes`` (each validated, a 4xx naming the field), write one audit entry
    with the changed fields, and queue a re-derivation when derived facts change; the
    site's shifts only cut periods at read time and need none. With ``version``, a change
    made on an older state of the site is refused (409, ``site_version``)."""
    require_version(session, site=site, version=version)
    before = site_snapshot(site)
    if not isinstance(changes.name, Unchanged):
        _rename(session, site=site, name=changes.name)
    if not isinstance(changes.time_zone, Unchanged):
        site.time_zone = validate_time_zone(changes.time_zone)
    if not isinstance(changes.mqtt_interface, Unchanged):
        if changes.mqtt_interface is not None:
            check_mqtt_interface(session, mqtt_interface=changes.mqtt_interface, site_id=site.id)
        site.mqtt_interface = changes.mqtt_interface
    if not isinstance(changes.shifts, Unchanged):
        site.shifts = validate_shifts(changes.shifts)
    if not isinstance(changes.workflow_rules, Unchanged):
        site.workflow_rules = validate_workflow_rules(changes.workflow_rules)
    if not isinstance(changes.load_action_types, Unchanged):
        site.load_action_types = clean_load_action_types(changes.load_action_types)
    after = site_snapshot(site)
    if after == before:
        return site, None  # nothing changed: no audit entry, no job
    old, new = changed_fields(before, after)
    record_change(
        session,
        by=by,
        action="site.update",
        entity_type="site",
        entity_id=site.id,
        before=old,
        after=new,
    )
    job: RederiveJob | None = None
    reason = _job_reason(before, after)
    vehicle_ids = site_vehicle_ids(session, site_id=site.id) if reason else []
    if reason is not None and vehicle_ids:
        job = start_job(session, reason=reason, site_id=site.id, vehicle_ids=vehicle_ids, by=by)
    session.commit()
    return site, job


def delete_site(session: Session, *, site: Site, by: Actor) -> None:
    """Delete a site that has no vehicles (409 naming how many it has: deleting them would
    lose the way to their facts; an administrator moves them first). Its API tokens go with
    it. The site's row is locked first (PostgreSQL), so a vehicle registering through the
    site meanwhile either finds the site gone or is seen by the delete, which happens only
    while no vehicle belongs to the site (one statement, so also under SQLite)."""
    session.refresh(site, with_for_update={"of": Site})
    tokens = session.scalar(
        select(func.count()).select_from(ApiToken).where(ApiToken.site_id == site.id)
    )
    record_change(
        session,
        by=by,
        action="site.delete",
        entity_type="site",
        entity_id=site.id,
        before={**site_snapshot(site), "apiTokens": int(tokens or 0)},
    )
    deleted = session.execute(
        delete(Site).where(Site.id == site.id, ~exists().where(Vehicle.site_id == site.id))
    )
    # ``Session.execute`` is typed as a plain ``Result``; a DELETE's is a cursor result.
    if not cast("CursorResult[Any]", deleted).rowcount:
        session.rollback()  # the audit entry too
        count = vehicle_counts(session, site_ids=[site.id]).get(site.id, 0)
        raise ConflictError(SITE_HAS_VEHICLES(site=site.name, count=count))
    session.commit()
