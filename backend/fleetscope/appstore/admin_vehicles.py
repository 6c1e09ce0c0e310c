"""Vehicles in the Administration API: display name, battery capacity, retirement (out of
service: no live tile, not in "all machines" for later periods, history kept), and the move
to another site of the same organization, which queues a re-derivation of the vehicle's
facts (its orders get the new site's workflow rules, its periods the new site's time zone)."""

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from fleetscope.appstore.audit import Actor, record_change
from fleetscope.appstore.errors import ConflictError, InvalidInputError, NotFoundError
from fleetscope.appstore.jobs import start_job
from fleetscope.appstore.models import Organization, RederiveJob, Site, Vehicle, utc_now
from fleetscope.appstore.names import name_key, name_taken
from fleetscope.appstore.snapshots import changed_fields, vehicle_snapshot
from fleetscope.appstore.unchanged import UNCHANGED, Unchanged
from fleetscope.i18n.admin_messages import (
    VEHICLE_EXISTS_AT_SITE,
    VEHICLE_NAME_TAKEN,
    VEHICLE_SITE_FOREIGN,
)
from fleetscope.i18n.messages import MUST_NOT_BE_EMPTY, VEHICLE_NOT_FOUND


def vehicle_by_id(session: Session, *, vehicle_id: int) -> Vehicle:
    vehicle = session.get(
        Vehicle, vehicle_id, options=[joinedload(Vehicle.site).joinedload(Site.organization)]
    )
    if vehicle is None:
        raise NotFoundError(VEHICLE_NOT_FOUND(vehicle=vehicle_id))
    return vehicle


def list_admin_vehicles(
    session: Session, *, site_id: int | None = None, organization_id: int | None = None
) -> list[Vehicle]:
    statement = (
        select(Vehicle)
        .join(Vehicle.site)
        .join(Site.organization)
        .options(joinedload(Vehicle.site).joinedload(Site.organization))
        .order_by(Organization.name, Site.name, Vehicle.name, Vehicle.id)
    )
    if site_id is not None:
        statement = statement.where(Vehicle.site_id == site_id)
    if organization_id is not None:
        statement = statement.where(Site.organization_id == organization_id)
    return list(session.scalars(statement))


@dataclass(frozen=True, slots=True)
class VehicleChanges:
    name: str | Unchanged = UNCHANGED
    battery_capacity_wh: float | Unchanged | None = UNCHANGED
    site_id: int | Unchanged = UNCHANGED
    retired: bool | Unchanged = UNCHANGED


def _target_site(session: Session, *, vehicle: Vehicle, site_id: int) -> Site:
    """The site a vehicle moves to: one of its organization (a 422 otherwise, the same for a
    site that does not exist), without a vehicle of the same identity (a 409)."""
    site = session.get(Site, site_id)
    if site is None or site.organization_id != vehicle.site.organization_id:
        raise InvalidInputError(VEHICLE_SITE_FOREIGN(site=site_id))
    twin = session.scalars(
        select(Vehicle.id).where(
            Vehicle.site_id == site.id,
            Vehicle.manufacturer == vehicle.manufacturer,
            Vehicle.serial_number == vehicle.serial_number,
            Vehicle.id != vehicle.id,
        )
    ).first()
    if twin is not None:
        raise ConflictError(
            VEHICLE_EXISTS_AT_SITE(
                site=site.name, manufacturer=vehicle.manufacturer, serial=vehicle.serial_number
            )
        )
    return site


def _check_name_free(session: Session, *, vehicle: Vehicle, field: str) -> None:
    """A 409 when another vehicle of the vehicle's (new) site has its (new) name, trimmed and
    in any case (``appstore.names``): the name is the vehicle's only label in charts and in
    the machine selector. A rule on what an administrator changes: vehicles registered from
    messages are named by their serial number and may share a name (as may older rows)."""
    others = (
        select(Vehicle.name)
        .where(Vehicle.site_id == vehicle.site.id, Vehicle.id != vehicle.id)
        .order_by(Vehicle.id)
    )
    taken = name_taken(session.scalars(others), name=vehicle.name)
    if taken is not None:
        raise ConflictError(VEHICLE_NAME_TAKEN(field=field, site=vehicle.site.name, name=taken))


def update_vehicle(
    session: Session, *, vehicle: Vehicle, changes: VehicleChanges, by: Actor
) -> tuple[Vehicle, RederiveJob | None]:
    """Apply ``changes``, write one audit entry, and queue the vehicle's re-derivation when
    it moved to another site. A new name, or a move, must leave the vehicle a name no other
    vehicle of its site has (a 409 naming the field)."""
    before = vehicle_snapshot(vehicle)
    renamed = False
    if not isinstance(changes.name, Unchanged):
        name = changes.name.strip()
        if not name:
            raise InvalidInputError(MUST_NOT_BE_EMPTY(field="name"))
        renamed = name_key(name) != name_key(vehicle.name)
        vehicle.name = name
    if not isinstance(changes.battery_capacity_wh, Unchanged):
        vehicle.battery_capacity_wh = changes.battery_capacity_wh
    if not isinstance(changes.retired, Unchanged) and changes.retired != (
        vehicle.retired_at is not None
    ):  # retiring again keeps the first date
        vehicle.retired_at = utc_now().replace(microsecond=0) if changes.retired else None
    moved = False
    if not isinstance(changes.site_id, Unchanged) and changes.site_id != vehicle.site_id:
        vehicle.site = _target_site(session, vehicle=vehicle, site_id=changes.site_id)
        moved = True
    if renamed or moved:
        _check_name_free(session, vehicle=vehicle, field="name" if renamed else "siteId")
    session.flush()
    after = vehicle_snapshot(vehicle)
    if after == before:
        return vehicle, None
    old, new = changed_fields(before, after)
    record_change(
        session,
        by=by,
        action="vehicle.update",
        entity_type="vehicle",
        entity_id=vehicle.id,
        before=old,
        after=new,
    )
    job = None
    if before["siteId"] != after["siteId"]:
        job = start_job(
            session, reason="vehicleSite", site_id=vehicle.site_id, vehicle_ids=[vehicle.id], by=by
        )
    session.commit()
    return vehicle, job
