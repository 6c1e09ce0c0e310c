"""What the audit log keeps of an object before and after a change: its fields as the
Administration API shows them (camelCase), never a password, token or hash."""

from typing import Any

from fleetscope.appstore.models import Organization, Site, User, Vehicle


def organization_snapshot(organization: Organization) -> dict[str, Any]:
    return {"id": organization.id, "name": organization.name}


def site_snapshot(site: Site) -> dict[str, Any]:
    return {
        "id": site.id,
        "organizationId": site.organization_id,
        "name": site.name,
        "timeZone": site.time_zone,
        "mqttInterface": site.mqtt_interface,
        "shifts": list(site.shifts or []),
        "workflowRules": list(site.workflow_rules or []),
        "loadActionTypes": list(site.load_action_types or []),
    }


def vehicle_snapshot(vehicle: Vehicle) -> dict[str, Any]:
    return {
        "id": vehicle.id,
        "siteId": vehicle.site_id,
        "manufacturer": vehicle.manufacturer,
        "serialNumber": vehicle.serial_number,
        "name": vehicle.name,
        "batteryCapacityWh": vehicle.battery_capacity_wh,
        "retiredAt": vehicle.retired_at,
    }


def user_snapshot(
    user: User, *, partner_organization_ids: list[int] | None = None
) -> dict[str, Any]:
    snapshot: dict[str, Any] = {
        "id": user.id,
        "email": user.email,
        "displayName": user.display_name,
        "role": user.role,
        "organizationId": user.organization_id,
        "language": user.language or None,  # none chosen: the browser's
        "isActive": user.is_active,
    }
    if partner_organization_ids is not None:
        snapshot["partnerOrganizationIds"] = sorted(partner_organization_ids)
    return snapshot


def changed_fields(
    before: dict[str, Any], after: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Only the fields a change touched (and the id), so an entry shows what changed."""
    keys = [key for key in after if key == "id" or before.get(key) != after[key]]
    return {key: before.get(key) for key in keys}, {key: after[key] for key in keys}
