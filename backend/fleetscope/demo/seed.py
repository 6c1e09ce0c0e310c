"""Demo tenants, vehicles and one user per role; ``seed_demo`` can run any number of times."""

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from fleetscope.appstore.models import Organization, PartnerLink, Role, Site, User, Vehicle
from fleetscope.appstore.organizations import DEFAULT_TIME_ZONE
from fleetscope.appstore.security import hash_password
from fleetscope.appstore.shifts import default_shifts

DEMO_PASSWORD = "demo"
DEMO_MANUFACTURER = "Fleetscope Sim"
NORDLICHT = "Nordlicht Logistik"
ALPENFRACHT = "Alpenfracht AG"


@dataclass(frozen=True)
class DemoLogin:
    email: str
    password: str
    role: Role
    organization: str | None
    # Partners see these organizations through partner links.
    linked_organizations: tuple[str, ...] = ()


@dataclass(frozen=True)
class DemoSite:
    organization: str
    name: str
    mqtt_interface: str
    serial_prefix: str
    vehicle_count: int
    name_prefix: str


DEMO_LOGINS: tuple[DemoLogin, ...] = (
    DemoLogin("superuser@demo.fleetscope", DEMO_PASSWORD, Role.SUPERUSER, None),
    DemoLogin("customer@demo.fleetscope", DEMO_PASSWORD, Role.CUSTOMER, NORDLICHT),
    DemoLogin("partner@demo.fleetscope", DEMO_PASSWORD, Role.PARTNER, None, (NORDLICHT,)),
    DemoLogin("support@demo.fleetscope", DEMO_PASSWORD, Role.SUPPORT, None),
    DemoLogin("service@demo.fleetscope", DEMO_PASSWORD, Role.SERVICE, None),
    DemoLogin("customer2@demo.fleetscope", DEMO_PASSWORD, Role.CUSTOMER, ALPENFRACHT),
)

DEMO_SITES: tuple[DemoSite, ...] = (
    DemoSite(NORDLICHT, "Hamburg DC", "uagv", "HAM", 8, "AGV"),
    DemoSite(ALPENFRACHT, "Munich Hub", "uagv-muc", "MUC", 4, "MUC AGV"),
)

_MODELS = ("Tugger T200", "Forklift FX12", "AMR Compact 500")
_HAM_BATTERY_WH = 2400.0


@dataclass(frozen=True)
class DemoData:
    organization_ids: dict[str, int]
    site_ids: dict[str, int]
    # Vehicle ids by serial number ("HAM-01" ...).
    vehicle_ids: dict[str, int]
    user_ids: dict[str, int]


def _organization(session: Session, name: str) -> Organization:
    organization = session.scalars(select(Organization).where(Organization.name == name)).first()
    if organization is None:
        organization = Organization(name=name)
        session.add(organization)
        session.flush()
    return organization


def _site(session: Session, spec: DemoSite, organization: Organization) -> Site:
    site = session.scalars(
        select(Site).where(Site.organization_id == organization.id, Site.name == spec.name)
    ).first()
    if site is None:
        site = Site(
            organization_id=organization.id,
            name=spec.name,
            time_zone=DEFAULT_TIME_ZONE,
            shifts=default_shifts(),
            workflow_rules=[],
            mqtt_interface=spec.mqtt_interface,
        )
        session.add(site)
        session.flush()
    return site


def _vehicles(session: Session, spec: DemoSite, site: Site) -> dict[str, int]:
    serials = [f"{spec.serial_prefix}-{number:02d}" for number in range(1, spec.vehicle_count + 1)]
    existing = {
        vehicle.serial_number: vehicle
        for vehicle in session.scalars(
            select(Vehicle).where(
                Vehicle.site_id == site.id,
                Vehicle.manufacturer == DEMO_MANUFACTURER,
                Vehicle.serial_number.in_(serials),
            )
        )
    }
    for number, serial in enumerate(serials, start=1):
        if serial in existing:
            continue
        # Half of the Hamburg fleet reports its capacity: energy KPIs show where it is known.
        capacity = _HAM_BATTERY_WH if spec.serial_prefix == "HAM" and number % 2 == 1 else None
        existing[serial] = Vehicle(
            site_id=site.id,
            manufacturer=DEMO_MANUFACTURER,
            serial_number=serial,
            name=f"{spec.name_prefix} {number:02d}",
            model=_MODELS[(number - 1) % len(_MODELS)],
            battery_capacity_wh=capacity,
        )
        session.add(existing[serial])
    session.flush()
    return {serial: existing[serial].id for serial in serials}


def _users(session: Session, organizations: dict[str, Organization]) -> dict[str, int]:
    emails = [login.email for login in DEMO_LOGINS]
    users = {
        user.email: user for user in session.scalars(select(User).where(User.email.in_(emails)))
    }
    missing = [login for login in DEMO_LOGINS if login.email not in users]
    # One hash for the shared demo password keeps seeding fast (Argon2 is slow on purpose).
    password_hash = hash_password(DEMO_PASSWORD) if missing else ""
    for login in missing:
        organization = organizations[login.organization] if login.organization else None
        users[login.email] = User(
            email=login.email,
            password_hash=password_hash,
            role=login.role.value,
            organization_id=organization.id if organization else None,
            display_name=login.email.split("@", 1)[0].capitalize(),
            language="",  # the browser's, until the user chooses
            is_active=True,
        )
        session.add(users[login.email])
    session.flush()
    links = {
        (user_id, organization_id)
        for user_id, organization_id in session.execute(
            select(PartnerLink.user_id, PartnerLink.organization_id)
        )
    }
    for login in DEMO_LOGINS:
        for name in login.linked_organizations:
            link = (users[login.email].id, organizations[name].id)
            if link not in links:
                session.add(PartnerLink(user_id=link[0], organization_id=link[1]))
    return {email: users[email].id for email in emails}


def seed_demo(session: Session) -> DemoData:
    """Create what is missing of the demo tenants and users; existing rows are left as they are."""
    organizations = {name: _organization(session, name) for name in (NORDLICHT, ALPENFRACHT)}
    site_ids: dict[str, int] = {}
    vehicle_ids: dict[str, int] = {}
    for spec in DEMO_SITES:
        site = _site(session, spec, organizations[spec.organization])
        site_ids[spec.name] = site.id
        vehicle_ids.update(_vehicles(session, spec, site))
    user_ids = _users(session, organizations)
    session.commit()
    return DemoData(
        organization_ids={name: org.id for name, org in organizations.items()},
        site_ids=site_ids,
        vehicle_ids=vehicle_ids,
        user_ids=user_ids,
    )
