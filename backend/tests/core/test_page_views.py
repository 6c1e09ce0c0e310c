"""Page views are bounded: so many per user and minute (429 with Retry-After beyond, another
user unaffected), kept for a retention period, and the budget's memory is bounded."""

from collections.abc import Callable
from datetime import timedelta

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import PageView, utc_now
from fleetscope.appstore.page_views import PageViewBudget
from fleetscope.demo.seed import DemoData
from tests.core.support import CUSTOMER, CUSTOMER2, FakeClock, LoginFn

VIEW = {"event": "page_view", "path": "/dashboards/dashboard"}


def test_a_user_records_a_bounded_number_of_page_views_a_minute(
    app: FastAPI,
    client: TestClient,
    make_client: Callable[[], TestClient],
    seeded: DemoData,
    login: LoginFn,
) -> None:
    clock = FakeClock()
    app.state.page_view_budget = PageViewBudget(per_minute=3, clock=clock)
    first, second = client, make_client()
    login(first, CUSTOMER)
    login(second, CUSTOMER2)
    assert [first.post("/v2/Events", json=VIEW).status_code for _ in range(3)] == [200] * 3
    clock.now += 20
    refused = first.post("/v2/Events", json=VIEW)
    assert (refused.status_code, refused.headers["Retry-After"]) == (429, "40")
    assert refused.json()["msg"] == "more than 3 page views a minute; try again in 40 seconds"
    german = first.post("/v2/Events", json=VIEW, headers={"Accept-Language": "de"})
    assert german.json()["msg"].startswith("mehr als 3 Seitenaufrufe pro Minute")
    assert second.post("/v2/Events", json=VIEW).status_code == 200  # another user
    clock.now += 40  # the minute is over
    assert first.post("/v2/Events", json=VIEW).status_code == 200


def test_page_views_older_than_the_retention_are_swept_when_one_is_stored(
    client: TestClient, seeded: DemoData, login: LoginFn, session_factory: SessionFactory
) -> None:
    now = utc_now()
    with session_factory() as session:
        session.add_all(
            [
                PageView(at=now - timedelta(days=401), role="customer", path="/old"),
                PageView(at=now - timedelta(days=399), role="customer", path="/kept"),
            ]
        )
        session.commit()
    login(client, CUSTOMER)
    assert client.post("/v2/Events", json=VIEW).status_code == 200  # retention: 400 days
    with session_factory() as session:
        paths = session.scalars(select(PageView.path).order_by(PageView.at)).all()
    assert paths == ["/kept", "/dashboards/dashboard"]


def test_the_budget_forgets_ended_minutes_when_it_is_full() -> None:
    clock = FakeClock()
    budget = PageViewBudget(per_minute=1, max_users=2, clock=clock)
    assert [budget.take(1), budget.take(2), budget.take(1)] == [None, None, 60.0]
    clock.now += 60
    assert budget.take(3) is None  # full: the ended minutes of users 1 and 2 are forgotten
    assert budget.take(1) is None  # a new minute for user 1
    assert budget.take(3) == 60.0
