"""Tenant rules of product.md section 1: who sees which organizations, sites and vehicles."""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import Site, User
from fleetscope.appstore.tenants import (
    can_administer,
    visible_organization_ids,
    visible_shift_ids,
    visible_vehicle_ids,
)
from fleetscope.demo.seed import DemoData
from tests.core.support import (
    CUSTOMER,
    CUSTOMER2,
    PARTNER,
    SERVICE,
    SUPERUSER,
    SUPPORT,
    ClientFactory,
    LoginFn,
)

HAMBURG = [f"HAM-{n:02d}" for n in range(1, 9)]
MUNICH = [f"MUC-{n:02d}" for n in range(1, 5)]

EXPECTED_SERIALS = {
    SUPERUSER: HAMBURG + MUNICH,
    SUPPORT: HAMBURG + MUNICH,
    SERVICE: HAMBURG + MUNICH,
    CUSTOMER: HAMBURG,
    PARTNER: HAMBURG,
    CUSTOMER2: MUNICH,
}


def _user(session: Session, email: str) -> User:
    return session.scalars(select(User).where(User.email == email)).one()


def test_vehicles_endpoint_lists_exactly_the_visible_fleet(
    make_client: ClientFactory, seeded: DemoData, login: LoginFn
) -> None:
    for email, serials in EXPECTED_SERIALS.items():
        client = make_client()
        login(client, email)
        vehicles = client.get("/v2/Vehicles").json()["data"]
        assert sorted(vehicle["serialNumber"] for vehicle in vehicles) == serials, email


def test_vehicle_shape(client: TestClient, seeded: DemoData, login: LoginFn) -> None:
    login(client, CUSTOMER2)
    first = client.get("/v2/Vehicles").json()["data"][0]
    assert first == {
        "id": seeded.vehicle_ids["MUC-01"],
        "name": "MUC AGV 01",
        "manufacturer": "Fleetscope Sim",
        "serialNumber": "MUC-01",
        "model": "Tugger T200",
        "siteId": seeded.site_ids["Munich Hub"],
        "siteName": "Munich Hub",
        "organizationId": seeded.organization_ids["Alpenfracht AG"],
        "organizationName": "Alpenfracht AG",
        "protocolVersion": None,
        "batteryCapacityWh": None,
        "retiredAt": None,
    }


@pytest.mark.parametrize(
    ("email", "sites"),
    [
        (SUPERUSER, ["Munich Hub", "Hamburg DC"]),  # ordered by organization name
        (SERVICE, ["Munich Hub", "Hamburg DC"]),
        (CUSTOMER, ["Hamburg DC"]),
        (PARTNER, ["Hamburg DC"]),
        (CUSTOMER2, ["Munich Hub"]),
    ],
)
def test_sites_endpoint_lists_the_visible_sites(
    client: TestClient, seeded: DemoData, login: LoginFn, email: str, sites: list[str]
) -> None:
    login(client, email)
    assert [site["name"] for site in client.get("/v2/Sites").json()["data"]] == sites


def test_site_shape_with_default_shifts(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    site = client.get("/v2/Sites").json()["data"][0]
    days = [0, 1, 2, 3, 4, 5, 6]
    assert site == {
        "id": seeded.site_ids["Hamburg DC"],
        "name": "Hamburg DC",
        "timeZone": "Europe/Berlin",
        "organizationId": seeded.organization_ids["Nordlicht Logistik"],
        "organizationName": "Nordlicht Logistik",
        "shifts": [
            {
                "id": "early",
                "name": "Early",
                "start": "06:00",
                "end": "14:00",
                "weekdays": days,
            },
            {"id": "late", "name": "Late", "start": "14:00", "end": "22:00", "weekdays": days},
            {
                "id": "night",
                "name": "Night",
                "start": "22:00",
                "end": "06:00",
                "weekdays": days,
            },
        ],
    }


def test_second_customer_learns_nothing_about_the_first_organization(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER2)
    bodies = " ".join(
        client.get(path).text for path in ("/v2/Vehicles", "/v2/Sites", "/v2/User/settings")
    )
    assert "Nordlicht" not in bodies
    assert "Hamburg" not in bodies
    assert "HAM-" not in bodies


def test_foreign_vehicle_in_settings_is_rejected_like_an_unknown_one(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER2)
    foreign = seeded.vehicle_ids["HAM-03"]
    response = client.patch("/v2/User/settings", json={"selectedMachines": [foreign]})
    assert response.status_code == 422
    assert response.json()["msg"] == f"selectedMachines: unknown vehicle id {foreign}"


def test_foreign_shift_is_rejected(
    client: TestClient, seeded: DemoData, login: LoginFn, session_factory: SessionFactory
) -> None:
    with session_factory() as session:
        site = session.get_one(Site, seeded.site_ids["Hamburg DC"])
        site.shifts = [
            *site.shifts,
            {
                "id": "weekend",
                "name": "Weekend",
                "start": "08:00",
                "end": "16:00",
                "weekdays": [5, 6],
            },
        ]
        session.commit()
    login(client, CUSTOMER2)
    response = client.patch(
        "/v2/User/settings", json={"dateSelector": {"workflowShift": "weekend"}}
    )
    assert response.status_code == 422
    assert response.json()["msg"] == "dateSelector.workflowShift: unknown shift 'weekend'"


def test_partner_sees_only_linked_organizations(
    session_factory: SessionFactory, seeded: DemoData
) -> None:
    with session_factory() as session:
        partner = _user(session, PARTNER)
        assert visible_organization_ids(session, user=partner) == {
            seeded.organization_ids["Nordlicht Logistik"]
        }
        assert visible_vehicle_ids(session, user=partner) == {
            seeded.vehicle_ids[serial] for serial in HAMBURG
        }


def test_unknown_role_and_inactive_users_see_nothing(
    session_factory: SessionFactory, seeded: DemoData
) -> None:
    with session_factory() as session:
        support = _user(session, SUPPORT)
        support.role = "auditor"
        assert visible_vehicle_ids(session, user=support) == set()
        superuser = _user(session, SUPERUSER)
        superuser.is_active = False
        assert visible_organization_ids(session, user=superuser) == set()
        session.rollback()


def test_customer_without_organization_sees_nothing(
    session_factory: SessionFactory, seeded: DemoData
) -> None:
    with session_factory() as session:
        customer = _user(session, CUSTOMER)
        customer.organization_id = None
        assert visible_vehicle_ids(session, user=customer) == set()
        assert visible_shift_ids(session, user=customer) == set()
        session.rollback()


def test_support_and_service_cannot_administer(
    session_factory: SessionFactory, seeded: DemoData
) -> None:
    with session_factory() as session:
        assert can_administer(_user(session, SUPERUSER))
        for email in (SUPPORT, SERVICE, CUSTOMER, PARTNER):
            assert not can_administer(_user(session, email))
