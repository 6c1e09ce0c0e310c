"""Logic of the app store without HTTP: users, organizations, sites, seed, rate limiter."""

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.errors import ConflictError, InvalidInputError, NotFoundError
from fleetscope.appstore.models import Organization, PartnerLink, Role, Site, User, Vehicle
from fleetscope.appstore.organizations import (
    create_organization,
    create_site,
    default_shifts,
    get_organization,
    validate_shifts,
)
from fleetscope.appstore.sessions import open_session, resolve_session
from fleetscope.appstore.users import (
    authenticate,
    create_user,
    link_partner,
    set_password,
    set_role,
)
from fleetscope.demo.seed import DEMO_LOGINS, seed_demo


def test_seed_is_idempotent(session_factory: SessionFactory) -> None:
    with session_factory() as session:
        first = seed_demo(session)
        second = seed_demo(session)
        assert first == second
        assert session.scalar(select(func.count()).select_from(Vehicle)) == 12
        assert session.scalar(select(func.count()).select_from(User)) == len(DEMO_LOGINS) == 6
        with_capacity = session.scalars(
            select(Vehicle.serial_number).where(Vehicle.battery_capacity_wh.is_not(None))
        ).all()
        assert sorted(with_capacity) == ["HAM-01", "HAM-03", "HAM-05", "HAM-07"]


def test_demo_sites_carry_their_mqtt_interface(session_factory: SessionFactory) -> None:
    with session_factory() as session:
        seed_demo(session)
        interfaces = {
            name: mqtt for name, mqtt in session.execute(select(Site.name, Site.mqtt_interface))
        }
    assert interfaces == {"Hamburg DC": "uagv", "Munich Hub": "uagv-muc"}


def test_user_rules(session_factory: SessionFactory) -> None:
    with session_factory() as session:
        acme = create_organization(session, name="Acme")
        with pytest.raises(ConflictError, match="already exists"):
            create_organization(session, name=" Acme ")
        with pytest.raises(InvalidInputError, match="needs an organization"):
            create_user(session, email="c@acme.io", password="x" * 8, role=Role.CUSTOMER)
        with pytest.raises(InvalidInputError, match="belongs to none"):
            create_user(
                session, email="s@acme.io", password="x" * 8, role=Role.SUPPORT, organization=acme
            )
        with pytest.raises(InvalidInputError, match="not a valid email"):
            create_user(session, email="nobody", password="x" * 8, role=Role.SUPPORT)
        customer = create_user(
            session, email="C@Acme.io", password="secret-1", role=Role.CUSTOMER, organization=acme
        )
        assert customer.email == "c@acme.io"
        with pytest.raises(ConflictError):
            create_user(session, email="c@acme.io", password="x" * 8, role=Role.SUPPORT)
        with pytest.raises(InvalidInputError, match="not a partner"):
            link_partner(session, user=customer, organization=acme)

        partner = create_user(
            session, email="p@x.io", password="x" * 8, role=Role.PARTNER, organization=acme
        )
        assert partner.organization_id is None
        assert session.get(PartnerLink, (partner.id, acme.id)) is not None
        set_role(session, user=partner, role=Role.SERVICE)
        assert session.get(PartnerLink, (partner.id, acme.id)) is None


def test_password_change_ends_sessions(session_factory: SessionFactory) -> None:
    with session_factory() as session:
        user = create_user(session, email="s@x.io", password="old-secret", role=Role.SUPPORT)
        issued = open_session(session, user=user, lifetime=timedelta(hours=1))
        assert resolve_session(session, token=issued.token) is not None
        with pytest.raises(InvalidInputError, match="at least 8"):
            set_password(session, user=user, password="short")
        set_password(session, user=user, password="new-secret")
        assert resolve_session(session, token=issued.token) is None
        assert authenticate(session, email="s@x.io", password="old-secret") is None
        assert authenticate(session, email="S@x.io", password="new-secret") is not None


def test_site_validation(session_factory: SessionFactory) -> None:
    with session_factory() as session:
        acme = create_organization(session, name="Acme")
        site = create_site(session, organization=acme, name="Plant", mqtt_interface="acme")
        assert (site.time_zone, site.shifts) == ("Europe/Berlin", default_shifts())
        with pytest.raises(InvalidInputError, match="unknown time zone 'Mars/Base'"):
            create_site(session, organization=acme, name="Moon", time_zone="Mars/Base")
        with pytest.raises(InvalidInputError, match="unknown time zone"):
            create_site(session, organization=acme, name="Moon", time_zone="../../etc/passwd")
        with pytest.raises(ConflictError, match="already exists"):
            create_site(session, organization=acme, name="Plant")
        with pytest.raises(ConflictError, match="mqttInterface"):
            create_site(session, organization=acme, name="Other", mqtt_interface="acme")
        assert session.get(Organization, acme.id) is not None


@pytest.mark.parametrize(
    ("shifts", "msg"),
    [
        ([{"id": "all", "start": "06:00", "end": "14:00", "weekdays": [0]}], r"shifts\[0\]\.id"),
        ([{"id": "a", "start": "6:00", "end": "14:00", "weekdays": [0]}], r"shifts\[0\]\.start"),
        ([{"id": "a", "start": "06:00", "end": "24:00", "weekdays": [0]}], r"shifts\[0\]\.end"),
        ([{"id": "a", "start": "06:00", "end": "14:00", "weekdays": [7]}], "weekdays"),
        (
            [
                {"id": "a", "start": "06:00", "end": "14:00", "weekdays": [0]},
                {"id": "a", "start": "14:00", "end": "22:00", "weekdays": [0]},
            ],
            "duplicate shift id",
        ),
    ],
)
def test_shift_validation(shifts: list[dict[str, object]], msg: str) -> None:
    with pytest.raises(InvalidInputError, match=msg):
        validate_shifts(shifts)


def test_missing_organization_is_not_found(session_factory: SessionFactory) -> None:
    with session_factory() as session, pytest.raises(NotFoundError, match="'Nope' not found"):
        get_organization(session, name="Nope")
