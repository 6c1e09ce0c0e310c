"""Shapes of the Administration API (camelCase JSON), built from the store's rows."""

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from fleetscope.appstore.admin_organizations import OrganizationSummary
from fleetscope.appstore.admin_sites import rule_patterns
from fleetscope.appstore.jobs import job_progress
from fleetscope.appstore.models import AuditEntry, Organization, RederiveJob, Role, Site, User
from fleetscope.appstore.models import Vehicle as VehicleRow
from fleetscope.appstore.schemas import CHOSEN_LANGUAGE, CamelModel, Language, chosen_language
from fleetscope.appstore.site_version import site_version


class OrganizationAdmin(CamelModel):
    id: int
    name: str
    created_at: datetime
    site_count: int
    user_count: int


class ShiftAdmin(CamelModel):
    id: str
    name: str
    start: str
    end: str
    weekdays: list[int]


class SiteAdmin(CamelModel):
    id: int
    organization_id: int
    organization_name: str
    name: str
    time_zone: str
    mqtt_interface: str | None
    shifts: list[ShiftAdmin]
    workflow_rules: list[str]
    load_action_types: list[str]
    vehicle_count: int
    version: str = Field(
        description="changes with every change of the site; send it back "
        "with a change (`SitePatch.version`) to refuse one made on an older state"
    )


class RulePreviewOut(CamelModel):
    index: int
    pattern: str
    error: str | None = Field(description="why the rule is invalid (and left out), else null")
    matched: int = Field(description="order ids this rule assigns (the first match wins)")


class OrderPreviewOut(CamelModel):
    order_id: str
    workflow: str | None = Field(description="null: unassigned")
    rule_index: int | None = Field(description="null: unassigned, or by the default rule")


class WorkflowPreviewOut(CamelModel):
    rules: list[RulePreviewOut]
    orders: list[OrderPreviewOut] = Field(description="the site's recent order ids, newest first")
    assigned: int
    unassigned: int
    default_rule_applies: bool = Field(
        description="no valid rule: the derivation's default rule (the orderId without its "
        "trailing separator and number) assigns the workflows"
    )


class JobOut(CamelModel):
    id: int
    state: Literal["queued", "running", "done", "failed"]
    reason: Literal["workflowRules", "vehicleSite", "loadActionTypes", "timeZone"]
    site_id: int | None
    vehicle_ids: list[int]
    frames_total: int
    frames_done: int
    percent: float
    seconds_left: float | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    error: str | None
    created_by: str


class SiteUpdated(CamelModel):
    site: SiteAdmin
    job: JobOut | None = Field(description="the re-derivation the change started, if any")


class VehicleAdmin(CamelModel):
    id: int
    site_id: int
    site_name: str
    organization_id: int
    manufacturer: str
    serial_number: str
    name: str
    model: str | None
    battery_capacity_wh: float | None
    protocol_version: str | None
    retired_at: datetime | None = Field(description="out of service since; null: in service")


class VehicleUpdated(CamelModel):
    vehicle: VehicleAdmin
    job: JobOut | None = Field(description="the re-derivation a move started, if any")


class UserAdmin(CamelModel):
    id: int
    email: str
    display_name: str
    role: Role
    organization_id: int | None
    organization_name: str | None
    language: Language | None = Field(description=CHOSEN_LANGUAGE)
    is_active: bool
    password_temporary: bool = Field(
        description="the password is an administrator's (new user, reset) until the user "
        "chooses their own"
    )
    created_at: datetime
    last_login_at: datetime | None
    partner_organization_ids: list[int]


class UserCreated(CamelModel):
    user: UserAdmin
    temporary_password: str = Field(description="shown only in this answer")


class PasswordResetOut(CamelModel):
    temporary_password: str = Field(description="shown only in this answer")


class AuditEntryOut(CamelModel):
    id: int
    at: datetime
    actor: str
    via: Literal["web", "cli"]
    action: str
    entity_type: str
    entity_id: str | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None


def organization_admin(summary: OrganizationSummary) -> OrganizationAdmin:
    org = summary.organization
    return OrganizationAdmin(
        id=org.id,
        name=org.name,
        created_at=org.created_at,
        site_count=summary.site_count,
        user_count=summary.user_count,
    )


def site_admin(site: Site, *, vehicle_count: int) -> SiteAdmin:
    return SiteAdmin(
        id=site.id,
        organization_id=site.organization_id,
        organization_name=site.organization.name,
        name=site.name,
        time_zone=site.time_zone,
        mqtt_interface=site.mqtt_interface,
        shifts=[
            ShiftAdmin.model_validate({"name": shift.get("id"), **shift}) for shift in site.shifts
        ],
        workflow_rules=rule_patterns(site),
        load_action_types=[str(kind) for kind in site.load_action_types or []],
        vehicle_count=vehicle_count,
        version=site_version(site),
    )


def job_out(job: RederiveJob) -> JobOut:
    percent, seconds_left = job_progress(job)
    return JobOut.model_validate(
        {
            "id": job.id,
            "state": job.state,
            "reason": job.reason,
            "site_id": job.site_id,
            "vehicle_ids": [int(v) for v in job.vehicle_ids or []],
            "frames_total": job.frames_total,
            "frames_done": job.frames_done,
            "percent": round(percent, 1),
            "seconds_left": None if seconds_left is None else round(seconds_left),
            "created_at": job.created_at,
            "started_at": job.started_at,
            "finished_at": job.finished_at,
            "error": job.error,
            "created_by": job.created_by,
        }
    )


def vehicle_admin(vehicle: VehicleRow) -> VehicleAdmin:
    return VehicleAdmin(
        id=vehicle.id,
        site_id=vehicle.site_id,
        site_name=vehicle.site.name,
        organization_id=vehicle.site.organization_id,
        manufacturer=vehicle.manufacturer,
        serial_number=vehicle.serial_number,
        name=vehicle.name,
        model=vehicle.model,
        battery_capacity_wh=vehicle.battery_capacity_wh,
        protocol_version=vehicle.protocol_version,
        retired_at=vehicle.retired_at,
    )


def user_admin(
    user: User, *, organization: Organization | None, partner_organization_ids: list[int]
) -> UserAdmin:
    return UserAdmin(
        id=user.id,
        email=user.email,
        display_name=user.display_name,
        role=Role(user.role),
        organization_id=user.organization_id,
        organization_name=organization.name if organization is not None else None,
        language=chosen_language(user),
        is_active=user.is_active,
        password_temporary=bool(user.password_temporary),
        created_at=user.created_at,
        last_login_at=user.last_login_at,
        partner_organization_ids=partner_organization_ids,
    )


def audit_entry_out(entry: AuditEntry) -> AuditEntryOut:
    return AuditEntryOut.model_validate(
        {
            "id": entry.id,
            "at": entry.at,
            "actor": entry.actor,
            "via": entry.via,
            "action": entry.action,
            "entity_type": entry.entity_type,
            "entity_id": entry.entity_id,
            "before": entry.before,
            "after": entry.after,
        }
    )
