"""The period parameters of ``/v2/Analytics/``: a rolling period (``hours``, ``since``/
``until``) and its 422s, and a saved relative range read as of now, on an application store
seeded with the demo tenants (Hamburg DC: Europe/Berlin; early, late and night shifts every
day) and an empty fact store.
"""

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from fleetscope.analytics.core.params import AnalyticsParams, AnalyticsScope, resolve_scope
from fleetscope.analytics.core.periods import Shift, Window
from fleetscope.analytics.core.relative_ranges import (
    RELATIVE_RANGES,
    ResolvedRange,
    resolve_relative_range,
)
from fleetscope.api.deps import CSRF_COOKIE, CSRF_HEADER
from fleetscope.api.main import create_app
from fleetscope.appstore.db import make_session_factory
from fleetscope.appstore.models import Organization, Role, Site, User
from fleetscope.appstore.schemas import AppSettingsPatch
from fleetscope.appstore.settings_service import read_settings, update_settings

from .conftest import BERLIN, seeded_store

RESOURCES = (
    "Productivity",
    "ProductivityHistory",
    "Dashboard",
    "Processes",
    "Workflows",
    "Actions",
    "Failures",
    "FailureMatrix",
    "FailureMap",
    "ErrorHistory",
    "Battery",
    "Battery/Sessions",
)
# Wednesday 25 November 2026, 15:10 in Hamburg (CET).
NOW = datetime(2026, 11, 25, 15, 10, tzinfo=BERLIN)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Engine]]:
    settings, engine, _ = seeded_store(tmp_path_factory.mktemp("period-params"))
    yield settings, engine
    engine.dispose()


@pytest.fixture(scope="module")
def client(store: tuple[Any, Engine]) -> Iterator[TestClient]:
    with TestClient(create_app(store[0])) as client:
        response = client.post(
            "/v2/User/login", json={"email": "customer@demo.fleetscope", "password": "demo"}
        )
        assert response.status_code == 200, response.text
        client.headers[CSRF_HEADER] = client.cookies[CSRF_COOKIE]
        yield client


@pytest.fixture
def session(store: tuple[Any, Engine]) -> Iterator[Session]:
    with make_session_factory(store[1])() as session:
        yield session


def _user(session: Session) -> User:
    user = session.scalars(select(User).where(User.email == "customer@demo.fleetscope")).one()
    return user


def _saved(session: Session, **selector: Any) -> User:
    user = _user(session)
    update_settings(
        session, user=user, patch=AppSettingsPatch.model_validate({"dateSelector": selector})
    )
    return user


def _scope(session: Session, user: User, now: datetime, **query: Any) -> AnalyticsScope:
    return resolve_scope(session, user=user, params=AnalyticsParams(**query), now=now)


# --- 422s ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "names"),
    [
        ({"hours": "24", "from": "2026-11-24"}, "hours: a period is either days"),
        ({"since": "2026-11-24T14:00:00Z", "to": "2026-11-25"}, "since: a period is either days"),
        ({"hours": "24", "since": "2026-11-24T14:00:00Z"}, "hours: the last hours up to now"),
        ({"until": "2026-11-24T14:00:00Z"}, "until: needs since"),
        (
            {"since": "2026-11-25T14:00:00Z", "until": "2026-11-25T13:00:00+00:00"},
            "until: 2026-11-25T13:00:00+00:00 is not after since",
        ),
        ({"since": "2025-01-01T00:00:00Z", "until": "2026-11-25T00:00:00Z"}, "until: the period"),
        # Without until the period ends now: its length is since's fault.
        ({"since": "2025-01-01T00:00:00Z"}, "since: the period lasts"),
        ({"since": "1969-12-31T23:00:00Z"}, "since: 1969-12-31T23:00:00+00:00 is outside"),
        ({"since": "2999-01-01T00:00:00Z"}, "since: 2999-01-01T00:00:00+00:00 is not before now"),
        ({"since": "2026-11-24T14:00:00"}, "since"),  # no offset: which instant is it?
        ({"since": "yesterday"}, "since"),
        ({"hours": "0"}, "hours"),
        ({"hours": "9601"}, "hours"),
        ({"hours": "1.5"}, "hours"),
    ],
)
@pytest.mark.parametrize("resource", RESOURCES)
def test_bad_rolling_periods_are_422_naming_the_parameter(
    client: TestClient, resource: str, params: dict[str, str], names: str
) -> None:
    response = client.get(f"/v2/Analytics/{resource}", params=params)
    assert response.status_code == 422, response.text
    assert response.json()["msg"].startswith(names), response.json()["msg"]


DAY_FORMAT = "Input should be a valid date in the format YYYY-MM-DD"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        # Numbers are not read as Unix times, timestamps not as their day.
        ({"from": "0", "to": "0"}, f"from: {DAY_FORMAT}; to: {DAY_FORMAT}"),
        ({"from": "1794960000"}, f"from: {DAY_FORMAT}"),
        ({"to": "2026-11-25T00:00:00+05:00"}, f"to: {DAY_FORMAT}"),
        ({"from": "2026-11-25T00:00:00"}, f"from: {DAY_FORMAT}"),
        ({"from": "20261125"}, f"from: {DAY_FORMAT}"),
        ({"from": "2026-11-1"}, f"from: {DAY_FORMAT}"),
        ({"from": "\uff12\uff10\uff12\uff16-11-25"}, f"from: {DAY_FORMAT}"),  # fullwidth digits
    ],
)
def test_days_are_written_yyyy_mm_dd(
    client: TestClient, params: dict[str, str], message: str
) -> None:
    response = client.get("/v2/Analytics/Dashboard", params=params)
    assert response.status_code == 422, response.text
    assert response.json()["msg"] == message
    german = client.get(
        "/v2/Analytics/Dashboard", params={"from": "0"}, headers={"Accept-Language": "de"}
    )
    assert german.json()["msg"] == "from: muss ein gültiges Datum im Format JJJJ-MM-TT sein"


def test_a_vehicle_list_without_ids_selects_as_none_given(client: TestClient) -> None:
    answers = [
        client.get("/v2/Analytics/Statusboard", params=vehicles)
        for vehicles in ({}, {"vehicles": ""}, {"vehicles": ",,,"}, {"vehicles": " , "})
    ]
    assert all(answer.status_code == 200 for answer in answers), answers[-1].text
    selected = {
        tuple(tile["vehicleId"] for tile in answer.json()["data"]["vehicles"]) for answer in answers
    }
    assert len(selected) == 1 and len(selected.pop()) > 0


def test_the_message_is_german_too(client: TestClient) -> None:
    response = client.get(
        "/v2/Analytics/Productivity",
        params={"hours": "24", "to": "2026-11-25"},
        headers={"Accept-Language": "de"},
    )
    assert response.status_code == 422
    assert response.json()["msg"] == (
        "hours: ein Zeitraum besteht entweder aus Tagen (from, to) oder aus Zeitpunkten "
        "(since, until oder hours); hours lässt sich nicht mit to kombinieren"
    )


@pytest.mark.parametrize("resource", RESOURCES)
def test_every_resource_answers_the_instants_of_the_last_24_hours(
    client: TestClient, resource: str
) -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    response = client.get(f"/v2/Analytics/{resource}", params={"hours": "24"})
    after = datetime.now(UTC)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    if resource in ("ErrorHistory", "Battery/Sessions"):  # a page of a list, no period
        assert data["total"] == 0
        return
    period = data["period"]
    start, end = (datetime.fromisoformat(period[key]) for key in ("start", "end"))
    assert before <= end <= after and end - start == timedelta(hours=24)
    assert datetime.fromisoformat(period["previousEnd"]) == start
    assert datetime.fromisoformat(period["previousStart"]) == start - timedelta(hours=24)


def test_since_until_are_answered_exactly(client: TestClient) -> None:
    params = {"since": "2026-11-24T16:10:00+01:00", "until": "2026-11-25T03:40:00+01:00"}
    period = client.get("/v2/Analytics/Processes", params=params).json()["data"]["period"]
    assert {key: period[key] for key in ("from", "to", "previousFrom", "previousTo")} == {
        "from": "2026-11-24",
        "to": "2026-11-25",
        "previousFrom": "2026-11-24",
        "previousTo": "2026-11-24",
    }
    assert (period["start"], period["end"]) == ("2026-11-24T15:10:00Z", "2026-11-25T02:40:00Z")
    # 11 h 30 min right before: 03:40 to 15:10 on the 24th (Berlin).
    assert (period["previousStart"], period["previousEnd"]) == (
        "2026-11-24T03:40:00Z",
        "2026-11-24T15:10:00Z",
    )
    assert period["running"] is False


# --- a saved relative range, read as of now -----------------------------------------------


def test_a_range_saved_yesterday_means_today_s_days(session: Session) -> None:
    # Saved on Wednesday: "yesterday" gave Tuesday then.
    user = _saved(
        session, mode="day", **{"from": "2026-11-24", "to": "2026-11-24"}, relativeRange="yesterday"
    )
    try:
        today = _scope(session, user, NOW + timedelta(days=1))  # Thursday
        assert (today.span.first, today.span.last) == (date(2026, 11, 25), date(2026, 11, 25))
        assert today.span.clip is None
        # A query's own days win over the saved range.
        asked = _scope(session, user, NOW, date_from=date(2026, 11, 2), date_to=date(2026, 11, 3))
        assert (asked.span.first, asked.span.last) == (date(2026, 11, 2), date(2026, 11, 3))
        # 00:30 on Thursday in Hamburg is still Wednesday in UTC: the site's calendar counts.
        just_after = datetime(2026, 11, 26, 0, 30, tzinfo=BERLIN)
        assert _scope(session, user, just_after).span.first == date(2026, 11, 25)
    finally:
        _saved(session, relativeRange=None, **{"from": "2026-11-23", "to": "2026-11-29"})


def test_saved_last_24_hours_is_rolling_as_of_now(session: Session) -> None:
    user = _saved(
        session,
        mode="custom",
        **{"from": "2026-11-23", "to": "2026-11-24"},
        relativeRange="last24Hours",
    )
    try:
        scope = _scope(session, user, NOW)
        assert scope.span.clip == Window(NOW - timedelta(hours=24), NOW)
        assert (scope.span.first, scope.span.last) == (date(2026, 11, 24), date(2026, 11, 25))
        previous = scope.span.previous()
        assert previous.clip == Window(NOW - timedelta(hours=48), NOW - timedelta(hours=24))
    finally:
        _saved(session, relativeRange=None, **{"from": "2026-11-23", "to": "2026-11-29"})


def test_saved_current_shift_names_the_running_shift(session: Session) -> None:
    user = _saved(
        session,
        mode="day",
        **{"from": "2026-11-20", "to": "2026-11-20"},
        relativeRange="currentShift",
    )
    try:
        # Thursday 02:00: the night shift that began on Wednesday 22:00.
        scope = _scope(session, user, datetime(2026, 11, 26, 2, tzinfo=BERLIN))
        assert (scope.span.first, scope.shift_id) == (date(2026, 11, 25), "night")
        assert scope.sites[0].shift is not None and scope.sites[0].shift.id == "night"
        # A shift in the query wins over the one the range names.
        early = _scope(session, user, datetime(2026, 11, 26, 2, tzinfo=BERLIN), shift="early")
        assert (early.span.first, early.shift_id) == (date(2026, 11, 25), "early")
    finally:
        _saved(session, relativeRange=None, **{"from": "2026-11-23", "to": "2026-11-29"})


def test_a_fixed_saved_period_stays_fixed(session: Session) -> None:
    user = _saved(session, mode="week", **{"from": "2026-11-09", "to": "2026-11-15"})
    scope = _scope(session, user, NOW)
    assert (scope.span.first, scope.span.last, scope.span.clip) == (
        date(2026, 11, 9),
        date(2026, 11, 15),
        None,
    )


def test_the_default_week_is_the_week_of_the_user_s_sites(session: Session) -> None:
    """Until a user picks dates the period is the current week: at 19:00 on Sunday in New
    York it is already Monday in Berlin, whose week lies wholly in the future there."""
    organization = Organization(name="Hudson Freight")
    session.add(Site(organization=organization, name="Newark", time_zone="America/New_York"))
    session.flush()
    user = _new_user(session, email="ops@hudson.example", organization_id=organization.id)
    try:
        sunday_evening = datetime(2026, 11, 29, 19, tzinfo=ZoneInfo("America/New_York"))
        selector = read_settings(session, user=user, now=sunday_evening).date_selector
        assert (selector.from_, selector.to) == (date(2026, 11, 23), date(2026, 11, 29))
        # Hamburg's customer, at the same instant: Berlin's new week.
        hamburg = _new_user(
            session, email="new@demo.fleetscope", organization_id=_user(session).organization_id
        )
        berlin = read_settings(session, user=hamburg, now=sunday_evening)
        assert (berlin.date_selector.from_, berlin.date_selector.to) == (
            date(2026, 11, 30),
            date(2026, 12, 6),
        )
    finally:
        session.rollback()


def _new_user(session: Session, *, email: str, organization_id: int | None) -> User:
    """A customer with nothing saved yet."""
    user = User(email=email, password_hash="-", role=Role.CUSTOMER, organization_id=organization_id)
    session.add(user)
    session.flush()
    return user


# --- the same cases as the frontend -------------------------------------------------------

CASES = Path(__file__).resolve().parents[3] / "frontend/src/lib/relativeRange.cases.json"


def test_the_cases_name_every_range() -> None:
    cases = json.loads(CASES.read_text())["cases"]
    assert {case["range"] for case in cases} == set(RELATIVE_RANGES)


def _cases() -> list[dict[str, Any]]:
    document = json.loads(CASES.read_text())
    return [
        case | {"shifts": document["shifts"][case["shifts"]] if case["shifts"] else []}
        for case in document["cases"]
    ]


@pytest.mark.parametrize("case", _cases(), ids=lambda case: f"{case['range']}@{case['now']}")
def test_each_range_means_what_the_frontend_reads(case: dict[str, Any]) -> None:
    resolved = resolve_relative_range(
        case["range"],
        now=datetime.fromisoformat(case["now"]),
        zone=ZoneInfo(case["timeZone"]),
        shifts=[Shift.from_site(shift) for shift in case["shifts"]],
    )
    expected = case["expected"]
    assert resolved == ResolvedRange(
        expected["mode"],
        date.fromisoformat(expected["from"]),
        date.fromisoformat(expected["to"]),
        shift=expected.get("shift"),
        hours=expected.get("hours"),
    )


def test_an_analytics_call_without_dates_reads_the_saved_range_now(client: TestClient) -> None:
    """Over HTTP, on the real clock: "yesterday" saved with days of long ago."""
    saved = {"mode": "day", "from": "2026-01-05", "to": "2026-01-05", "relativeRange": "yesterday"}
    response = client.patch("/v2/User/settings", json={"dateSelector": saved})
    assert response.status_code == 200, response.text
    try:
        before = datetime.now(BERLIN).date() - timedelta(days=1)
        period = client.get("/v2/Analytics/Dashboard").json()["data"]["period"]
        after = datetime.now(BERLIN).date() - timedelta(days=1)
        assert period["from"] == period["to"] and period["from"] in {
            before.isoformat(),
            after.isoformat(),
        }
        # The saved last 24 hours: the rolling period up to now.
        client.patch("/v2/User/settings", json={"dateSelector": {"relativeRange": "last24Hours"}})
        rolling = client.get("/v2/Analytics/Failures").json()["data"]["period"]
        start, end = (datetime.fromisoformat(rolling[key]) for key in ("start", "end"))
        assert end - start == timedelta(hours=24) and rolling["running"] is False
    finally:
        client.patch(
            "/v2/User/settings",
            json={"dateSelector": {"from": "2026-11-23", "to": "2026-11-29"}},
        )
