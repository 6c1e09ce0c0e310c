"""Helpers shared by the core tests (fixtures live in ``tests/conftest.py``)."""

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

LoginFn = Callable[..., dict[str, Any]]
ClientFactory = Callable[[], TestClient]

SUPERUSER = "superuser@demo.fleetscope"
CUSTOMER = "customer@demo.fleetscope"
CUSTOMER2 = "customer2@demo.fleetscope"
PARTNER = "partner@demo.fleetscope"
SUPPORT = "support@demo.fleetscope"
SERVICE = "service@demo.fleetscope"
AUTH_FAILED = {"status": False, "msg": "authentication failed", "data": None}


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def envelope_error(msg: str) -> dict[str, Any]:
    return {"status": False, "msg": msg, "data": None}
