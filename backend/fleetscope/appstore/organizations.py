"""Organizations (tenants) and their sites, with time zone and shift calendar."""

import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import select
from sqlalchemy.orm import Session

from fleetscope.appstore.errors import ConflictError, InvalidInputError, NotFoundError
from fleetscope.appstore.models import Organization, Site
from fleetscope.i18n.messages import (
    MQTT_INTERFACE_INVALID,
    MQTT_INTERFACE_TAKEN,
    MUST_NOT_BE_EMPTY,
    ORGANIZATION_EXISTS,
    ORGANIZATION_NOT_FOUND,
    SHIFT_ID_DUPLICATE,
    SHIFT_ID_INVALID,
    SHIFT_TIME_INVALID,
    SHIFT_WEEKDAYS_INVALID,
    SITE_EXISTS,
    UNKNOWN_TIME_ZONE,
)

DEFAULT_TIME_ZONE = "Europe/Berlin"
EVERY_DAY = [0, 1, 2, 3, 4, 5, 6]  # Monday = 0, as Python's date.weekday()
_CLOCK = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
# One topic level: the subscriber listens on ``{interface}/+/+/+/state`` and the like.
_MQTT_INTERFACE = re.compile(r"[^/+#\x00]{1,100}")


def default_shifts() -> list[dict[str, Any]]:
    """Early, late and night shift every day; the night shift crosses midnight."""
    return [
        {"id": "early", "name": "Early", "start": "06:00", "end": "14:00", "weekdays": EVERY_DAY},
        {"id": "late", "name": "Late", "start": "14:00", "end": "22:00", "weekdays": EVERY_DAY},
        {"id": "night", "name": "Night", "start": "22:00", "end": "06:00", "weekdays": EVERY_DAY},
    ]


def validate_time_zone(time_zone: str) -> str:
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInputError(UNKNOWN_TIME_ZONE(time_zone=time_zone)) from None
    return time_zone


def validate_shifts(shifts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[str] = set()
    for index, shift in enumerate(shifts):
        where = f"shifts[{index}]"
        shift_id = shift.get("id")
        if not isinstance(shift_id, str) or not shift_id or shift_id == "all":
            raise InvalidInputError(SHIFT_ID_INVALID(where=where))
        if shift_id in seen:
            raise InvalidInputError(SHIFT_ID_DUPLICATE(where=where, shift=shift_id))
        seen.add(shift_id)
        for bound in ("start", "end"):
            value = shift.get(bound)
            if not isinstance(value, str) or not _CLOCK.match(value):
                raise InvalidInputError(SHIFT_TIME_INVALID(where=where, bound=bound))
        weekdays = shift.get("weekdays")
        if not isinstance(weekdays, list) or not all(
            isinstance(day, int) and 0 <= day <= 6 for day in weekdays
        ):
            raise InvalidInputError(SHIFT_WEEKDAYS_INVALID(where=where))
    return shifts


def validate_mqtt_interface(interface: str) -> str:
    if not _MQTT_INTERFACE.fullmatch(interface):
        raise InvalidInputError(MQTT_INTERFACE_INVALID(interface=interface))
    return interface


def create_organization(session: Session, *, name: str) -> Organization:
    name = name.strip()
    if not name:
        raise InvalidInputError(MUST_NOT_BE_EMPTY(field="name"))
    if find_organization(session, name=name) is not None:
        raise ConflictError(ORGANIZATION_EXISTS(name=name))
    organization = Organization(name=name)
    session.add(organization)
    session.commit()
    return organization


def find_organization(session: Session, *, name: str) -> Organization | None:
    return session.scalars(select(Organization).where(Organization.name == name.strip())).first()


def get_organization(session: Session, *, name: str) -> Organization:
    organization = find_organization(session, name=name)
    if organization is None:
        raise NotFoundError(ORGANIZATION_NOT_FOUND(name=name))
    return organization


def list_organizations(session: Session) -> list[Organization]:
    return list(session.scalars(select(Organization).order_by(Organization.name)))


def create_site(
    session: Session,
    *,
    organization: Organization,
    name: str,
    time_zone: str = DEFAULT_TIME_ZONE,
    shifts: list[dict[str, Any]] | None = None,
    mqtt_interface: str | None = None,
) -> Site:
    name = name.strip()
    if not name:
        raise InvalidInputError(MUST_NOT_BE_EMPTY(field="name"))
    existing = session.scalars(
        select(Site).where(Site.organization_id == organization.id, Site.name == name)
    ).first()
    if existing is not None:
        raise ConflictError(SITE_EXISTS(name=name, organization=organization.name))
    if mqtt_interface is not None:
        _check_mqtt_interface(session, mqtt_interface=mqtt_interface, site_id=None)
    site = Site(
        organization_id=organization.id,
        name=name,
        time_zone=validate_time_zone(time_zone),
        shifts=validate_shifts(shifts if shifts is not None else default_shifts()),
        workflow_rules=[],
        mqtt_interface=mqtt_interface,
    )
    session.add(site)
    session.commit()
    return site


def set_mqtt_interface(session: Session, *, site: Site, mqtt_interface: str | None) -> Site:
    """Messages on ``mqtt_interface`` are for this site's vehicles from now on (None: none).

    Vehicles registered through the previous interface stay in the site.
    """
    if mqtt_interface is not None:
        _check_mqtt_interface(session, mqtt_interface=mqtt_interface, site_id=site.id)
    site.mqtt_interface = mqtt_interface
    session.commit()
    return site


# Bounds of a site's own load-handling action types (operator input of the CLI).
MAX_LOAD_ACTION_TYPES = 50
MAX_LOAD_ACTION_TYPE_LENGTH = 100


def set_load_action_types(session: Session, *, site: Site, action_types: list[str]) -> Site:
    """The site's own load-handling action types (besides VDA 5050's pick, drop, load and
    unload), counted as loads handled in any case: names stripped, repeats (in any case)
    dropped, in the given order; ``[]`` for none. ValueError for a name too long or too many.
    """
    chosen: list[str] = []
    seen: set[str] = set()
    for raw in action_types:
        name = raw.strip()
        if not name or name.lower() in seen:
            continue
        if len(name) > MAX_LOAD_ACTION_TYPE_LENGTH:
            raise ValueError(
                f"action type {name[:20]!r}... is longer than {MAX_LOAD_ACTION_TYPE_LENGTH}"
            )
        seen.add(name.lower())
        chosen.append(name)
    if len(chosen) > MAX_LOAD_ACTION_TYPES:
        raise ValueError(f"more than {MAX_LOAD_ACTION_TYPES} action types")
    site.load_action_types = chosen
    session.commit()
    return site


def _check_mqtt_interface(session: Session, *, mqtt_interface: str, site_id: int | None) -> None:
    validate_mqtt_interface(mqtt_interface)
    # Unique per site: an interface names the one site its messages are for.
    taken = session.scalars(
        select(Site).where(Site.mqtt_interface == mqtt_interface, Site.id != site_id)
    ).first()
    if taken is not None:
        raise ConflictError(MQTT_INTERFACE_TAKEN(interface=mqtt_interface, site=taken.name))


def list_sites(session: Session) -> list[Site]:
    return list(
        session.scalars(select(Site).join(Site.organization).order_by(Organization.name, Site.name))
    )
