"""Organizations (tenants) and their sites, with time zone and shift calendar."""

import re
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from sqlalchemy import select
from sqlalchemy.orm import Session

from fleetscope.appstore.audit import Actor, record_change
from fleetscope.appstore.errors import ConflictError, InvalidInputError, NotFoundError
from fleetscope.appstore.models import Organization, Site
from fleetscope.appstore.names import name_taken
from fleetscope.appstore.shifts import default_shifts, validate_shifts
from fleetscope.appstore.snapshots import organization_snapshot, site_snapshot
from fleetscope.i18n import DEFAULT_LANGUAGE, Language
from fleetscope.i18n.admin_messages import LOAD_ACTION_TYPE_TOO_LONG, TOO_MANY_LOAD_ACTION_TYPES
from fleetscope.i18n.messages import (
    MQTT_INTERFACE_INVALID,
    MQTT_INTERFACE_TAKEN,
    MUST_NOT_BE_EMPTY,
    ORGANIZATION_EXISTS,
    ORGANIZATION_NOT_FOUND,
    SITE_EXISTS,
    UNKNOWN_TIME_ZONE,
)

DEFAULT_TIME_ZONE = "Europe/Berlin"


def zone_or_default(time_zone: str | None) -> ZoneInfo:
    """A site's time zone, or Berlin's for none or one the system no longer knows."""
    try:
        return ZoneInfo(time_zone or DEFAULT_TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIME_ZONE)


# One topic level: the subscriber listens on ``{interface}/+/+/+/state`` and the like. No
# space at either end: "uagv " is a typo that no vehicle's topic matches.
_MQTT_INTERFACE = re.compile(r"(?!\s)[^/+#\x00]{1,100}(?<!\s)")


# The IANA regions of the canonical names (Area/Location); "UTC" besides. Left out: the
# backward links kept for old software (US/Eastern, GB, Cuba, EST5EDT...), "Factory" (no
# zone) and "localtime" (the host's own link, which the fact store's engine does not know:
# every analysis of such a site failed).
_REGIONS = frozenset(
    {
        "Africa",
        "America",
        "Antarctica",
        "Arctic",
        "Asia",
        "Atlantic",
        "Australia",
        "Etc",
        "Europe",
        "Indian",
        "Pacific",
    }
)


@cache
def time_zone_names() -> tuple[str, ...]:
    """The IANA time zone names a site may have, sorted (the admin's select)."""
    return tuple(
        sorted(
            name
            for name in available_timezones()
            if name == "UTC" or ("/" in name and name.split("/", 1)[0] in _REGIONS)
        )
    )


def validate_time_zone(time_zone: str) -> str:
    # The list, not ZoneInfo(): that also opens legacy and "posix/" names of the system's
    # database, which the select never offers.
    if time_zone not in time_zone_names():
        raise InvalidInputError(UNKNOWN_TIME_ZONE(time_zone=time_zone))
    return time_zone


def validate_mqtt_interface(interface: str) -> str:
    if not _MQTT_INTERFACE.fullmatch(interface):
        raise InvalidInputError(MQTT_INTERFACE_INVALID(interface=interface))
    return interface


def create_organization(session: Session, *, name: str, by: Actor | None = None) -> Organization:
    """A new organization; ``by``: who creates it, for the audit log (None: the demo seed
    and tests, which are no administration)."""
    name = name.strip()
    if not name:
        raise InvalidInputError(MUST_NOT_BE_EMPTY(field="name"))
    check_organization_name_free(session, name=name, organization_id=None)
    organization = Organization(name=name)
    session.add(organization)
    session.flush()
    if by is not None:
        record_change(
            session,
            by=by,
            action="organization.create",
            entity_type="organization",
            entity_id=organization.id,
            after=organization_snapshot(organization),
        )
    session.commit()
    return organization


def check_organization_name_free(
    session: Session, *, name: str, organization_id: int | None
) -> None:
    """A 409 naming the organization (other than ``organization_id``) that has ``name``
    already, trimmed and in any case (``appstore.names``)."""
    others = select(Organization.name).where(Organization.id != (organization_id or 0))
    taken = name_taken(session.scalars(others), name=name)
    if taken is not None:
        raise ConflictError(ORGANIZATION_EXISTS(name=taken))


def check_site_name_free(
    session: Session, *, organization: Organization, name: str, site_id: int | None
) -> None:
    """A 409 naming the site of ``organization`` (other than ``site_id``) that has ``name``
    already, trimmed and in any case (``appstore.names``)."""
    others = select(Site.name).where(
        Site.organization_id == organization.id, Site.id != (site_id or 0)
    )
    taken = name_taken(session.scalars(others), name=name)
    if taken is not None:
        raise ConflictError(SITE_EXISTS(name=taken, organization=organization.name))


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
    by: Actor | None = None,
    language: Language = DEFAULT_LANGUAGE,
) -> Site:
    """``shifts``: default, the early, late and night shift named in ``language``."""
    name = name.strip()
    if not name:
        raise InvalidInputError(MUST_NOT_BE_EMPTY(field="name"))
    check_site_name_free(session, organization=organization, name=name, site_id=None)
    if mqtt_interface is not None:
        check_mqtt_interface(session, mqtt_interface=mqtt_interface, site_id=None)
    site = Site(
        organization_id=organization.id,
        name=name,
        time_zone=validate_time_zone(time_zone),
        shifts=validate_shifts(shifts if shifts is not None else default_shifts(language)),
        workflow_rules=[],
        mqtt_interface=mqtt_interface,
        load_action_types=[],
    )
    session.add(site)
    session.flush()
    if by is not None:
        record_change(
            session,
            by=by,
            action="site.create",
            entity_type="site",
            entity_id=site.id,
            after=site_snapshot(site),
        )
    session.commit()
    return site


# Bounds of a site's own load-handling action types (operator input).
MAX_LOAD_ACTION_TYPES = 50
MAX_LOAD_ACTION_TYPE_LENGTH = 100


def clean_load_action_types(action_types: list[str]) -> list[str]:
    """A site's own load-handling action types (besides VDA 5050's pick, drop, load and
    unload), counted as loads handled in any case: names stripped, repeats (in any case)
    dropped, in the given order; ``[]`` for none. A 422 for a name too long or too many."""
    chosen: list[str] = []
    seen: set[str] = set()
    for index, raw in enumerate(action_types):
        name = raw.strip()
        if not name or name.lower() in seen:
            continue
        if len(name) > MAX_LOAD_ACTION_TYPE_LENGTH:
            raise InvalidInputError(
                LOAD_ACTION_TYPE_TOO_LONG(
                    index=index, name=name[:20], limit=MAX_LOAD_ACTION_TYPE_LENGTH
                )
            )
        seen.add(name.lower())
        chosen.append(name)
    if len(chosen) > MAX_LOAD_ACTION_TYPES:
        raise InvalidInputError(TOO_MANY_LOAD_ACTION_TYPES(limit=MAX_LOAD_ACTION_TYPES))
    return chosen


def check_mqtt_interface(session: Session, *, mqtt_interface: str, site_id: int | None) -> None:
    """A 422 for an interface that is no MQTT topic level, a 409 for one another site has."""
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
