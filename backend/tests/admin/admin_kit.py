"""Shared by the Administration API tests of organizations, sites, vehicles, users and the
audit log: the demo logins, the routes and a look at the audit log."""

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import AuditEntry

SUPERUSER = "superuser@demo.fleetscope"
OTHER_ROLES = (
    "customer@demo.fleetscope",
    "partner@demo.fleetscope",
    "support@demo.fleetscope",
    "service@demo.fleetscope",
)


def audit_entries(session_factory: SessionFactory) -> list[AuditEntry]:
    with session_factory() as session:
        return list(session.scalars(select(AuditEntry).order_by(AuditEntry.id)))


def last_audit(session_factory: SessionFactory) -> AuditEntry:
    entries = audit_entries(session_factory)
    assert entries, "no audit entry written"
    return entries[-1]


def data(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()["data"]


def refused(response: Any, status: int) -> str:
    """The failure's message, after checking the status and the envelope."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["status"] is False and body["data"] is None
    message: str = body["msg"]
    return message


def superuser_client(client: TestClient, login: Any) -> TestClient:
    login(client, SUPERUSER)
    return client
