"""Bad input is a 4xx that names the field, never a 500; an empty period is data, not an
error; saved settings obey the rules of the analysis parameters they stand in for."""

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient

from fleetscope.analytics.core.param_rules import (
    EARLIEST_DAY,
    LATEST_DAY,
    MAX_PERIOD_DAYS,
    check_period,
)
from fleetscope.analytics.core.params import QUERY_PERIOD
from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.appstore.models import UserSettings
from fleetscope.appstore.settings_service import SAVED_PERIOD
from fleetscope.demo.seed import DemoData
from fleetscope.i18n import render
from tests.core.support import CUSTOMER, CUSTOMER2, SUPERUSER, LoginFn, envelope_error

ID_LIMIT = 2**31  # the app store's ids: INTEGER, signed 32-bit on PostgreSQL


def _current_week() -> tuple[str, str]:
    today = datetime.now(ZoneInfo("Europe/Berlin")).date()
    monday = today - timedelta(days=today.weekday())
    return monday.isoformat(), (monday + timedelta(days=6)).isoformat()


def _analytics_paths(client: TestClient) -> list[str]:
    """Every analytics GET of the OpenAPI document, path parameters filled in."""
    paths = client.get("/v2/openapi.json").json()["paths"]
    return sorted(
        path.replace("{workflow}", "Picking").replace("{actionType}", "pick")
        for path, operations in paths.items()
        if path.startswith("/v2/Analytics/") and "get" in operations
    )


# --- An empty period ----------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "?from=2024-03-04&to=2024-03-10&combined=true"])
def test_battery_of_a_period_without_data_is_empty_and_says_why(
    client: TestClient, seeded: DemoData, login: LoginFn, query: str
) -> None:
    login(client, CUSTOMER2)
    response = client.get(f"/v2/Analytics/Battery{query}")
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert [series["points"] for series in data["series"]] == [[]] * len(data["series"])
    for entry in [*data["entries"], data["fleet"]]:
        for figures in (entry["current"], entry["previous"]):
            # As productivity says it: all of T without data, and no figure.
            assert figures["noDataSeconds"] == pytest.approx(figures["periodSeconds"], abs=1e-3)
            assert figures["meanCharge"] is None
            assert figures["healthLatest"] is None
            assert figures["sessions"]["count"] == 0
    if query:  # a past week: T is 7 days of each of customer2's 4 vehicles (no DST change)
        assert data["fleet"]["current"]["periodSeconds"] == 4 * 7 * 86400


# --- Days outside the calendar an analysis can cover --------------------------------------------


@pytest.mark.parametrize(
    ("query", "msg"),
    [
        (
            "from=0001-01-01&to=0001-01-07",
            "from: Input should be greater than or equal to 1970-01-01; "
            "to: Input should be greater than or equal to 1970-01-01",
        ),
        (
            "from=9999-12-25&to=9999-12-31",
            "from: Input should be less than or equal to 2999-12-31; "
            "to: Input should be less than or equal to 2999-12-31",
        ),
        ("from=2026-01-01&to=9999-12-31", "to: Input should be less than or equal to 2999-12-31"),
    ],
)
def test_days_outside_the_calendar_are_a_422_naming_the_field_on_every_analytics_call(
    client: TestClient, seeded: DemoData, login: LoginFn, query: str, msg: str
) -> None:
    login(client, SUPERUSER)
    paths = _analytics_paths(client)
    assert len(paths) >= 12
    for path in paths:
        response = client.get(f"{path}?{query}")
        assert (response.status_code, response.json()) == (422, envelope_error(msg)), path


def test_the_first_and_last_day_are_allowed(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER2)
    for first in (EARLIEST_DAY, LATEST_DAY - timedelta(days=6)):
        last = first + timedelta(days=6)
        response = client.get(f"/v2/Analytics/Productivity?from={first}&to={last}")
        assert response.status_code == 200, response.text
        assert response.json()["data"]["period"]["to"] == last.isoformat()


def test_the_period_rule_names_the_field_at_fault() -> None:
    """The rule as a function (saved settings are read with it): each failure names its
    field in the caller's words, in English and German."""
    cases = [
        (
            (date(1, 1, 1), date(2026, 1, 1), QUERY_PERIOD),
            "from: 0001-01-01 is outside the days an analysis can cover (1970-01-01 to 2999-12-31)",
            "from: 0001-01-01 liegt außerhalb der Tage, die eine Auswertung abdecken kann "
            "(1970-01-01 bis 2999-12-31)",
        ),
        (
            (date(2026, 1, 1), date(9999, 12, 31), SAVED_PERIOD),
            "dateSelector.to: 9999-12-31 is outside the days an analysis can cover "
            "(1970-01-01 to 2999-12-31)",
            None,
        ),
        (
            (date(2026, 1, 2), date(2026, 1, 1), SAVED_PERIOD),
            "dateSelector: from (2026-01-02) is after to (2026-01-01)",
            "dateSelector: from (2026-01-02) liegt nach to (2026-01-01)",
        ),
        (
            (date(2025, 1, 1), date(2026, 2, 5), QUERY_PERIOD),  # 400 days + 1
            "to: the period has 401 days; at most 400 are allowed",
            "to: der Zeitraum hat 401 Tage; höchstens 400 sind erlaubt",
        ),
    ]
    for (first, last, fields), english, german in cases:
        with pytest.raises(InvalidInputError) as refused:
            check_period(first, last, fields=fields)
        assert refused.value.msg == english
        if german is not None:
            assert render(refused.value.message, "de") == german
    span = check_period(date(2025, 1, 1), date(2026, 2, 4), fields=SAVED_PERIOD)
    assert span.days == MAX_PERIOD_DAYS


def test_a_day_out_of_range_is_explained_in_german(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER2)
    response = client.get("/v2/Analytics/Failures?to=0001-01-01", headers={"Accept-Language": "de"})
    assert (response.status_code, response.json()) == (
        422,
        envelope_error("to: muss mindestens 1970-01-01 sein"),
    )


def test_a_depth_between_the_histogram_bars_is_explained_in_each_language(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER2)
    for language, message in (
        ("en", "depth: Input should be a multiple of 10"),
        ("de", "depth: muss ein Vielfaches von 10 sein"),
    ):
        response = client.get(
            "/v2/Analytics/Battery/Sessions?depth=15", headers={"Accept-Language": language}
        )
        assert (response.status_code, response.json()) == (422, envelope_error(message))


# --- Ids beyond the store's integers -----------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "field"),
    [
        ("GET", f"/v2/Admin/Sites/{2**63}/Tokens", "siteId"),
        ("POST", f"/v2/Admin/Sites/{ID_LIMIT}/Tokens", "siteId"),
        ("DELETE", f"/v2/Admin/Sites/1/Tokens/{2**63}", "tokenId"),
        ("DELETE", f"/v2/Admin/Sites/{2**64}/Tokens/1", "siteId"),
    ],
)
def test_an_id_beyond_the_store_is_a_422_naming_it(
    client: TestClient, seeded: DemoData, login: LoginFn, method: str, path: str, field: str
) -> None:
    login(client, SUPERUSER)
    response = client.request(method, path, json={"name": "x"} if method == "POST" else None)
    assert (response.status_code, response.json()) == (
        422,
        envelope_error(f"{field}: Input should be less than or equal to {ID_LIMIT - 1}"),
    )


def test_the_largest_id_of_the_store_is_simply_not_found(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, SUPERUSER)
    site_id = seeded.site_ids["Hamburg DC"]
    for path, msg in (
        (f"/v2/Admin/Sites/{ID_LIMIT - 1}/Tokens", f"site {ID_LIMIT - 1} not found"),
        (f"/v2/Admin/Sites/{site_id}/Tokens/{ID_LIMIT - 1}", f"token {ID_LIMIT - 1} not found"),
    ):
        response = client.request("GET" if path.endswith("Tokens") else "DELETE", path)
        assert (response.status_code, response.json()) == (404, envelope_error(msg))


# --- Text the app store cannot hold ------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("POST", "/v2/User/login", {"email": "a\x00@b.c", "password": "x"}, "email"),
        ("POST", "/v2/Events", {"event": "page_view", "path": "/a\x00"}, "path"),
        ("PATCH", "/v2/User/me", {"displayName": "Ann\x00"}, "displayName"),
        ("POST", "/v2/Admin/Sites/{site}/Tokens", {"name": "robot\x00"}, "name"),
    ],
)
def test_text_with_a_nul_character_is_a_422_naming_the_field(
    client: TestClient,
    seeded: DemoData,
    login: LoginFn,
    method: str,
    path: str,
    body: dict[str, str],
    field: str,
) -> None:
    """PostgreSQL's text cannot hold NUL: such a value would fail in the driver (a 500)."""
    login(client, SUPERUSER)
    url = path.format(site=seeded.site_ids["Hamburg DC"])
    response = client.request(method, url, json=body)
    assert (response.status_code, response.json()) == (
        422,
        envelope_error(f"{field}: String should not contain the NUL character"),
    )
    german = client.request(method, url, json=body, headers={"Accept-Language": "de"})
    assert german.json()["msg"] == f"{field}: darf das NUL-Zeichen nicht enthalten"


# --- Saved settings by the rules of the analysis parameters ------------------------------------


def _patch_settings(client: TestClient, body: Any) -> tuple[int, dict[str, Any]]:
    response = client.patch("/v2/User/settings", json=body)
    return response.status_code, response.json()


@pytest.mark.parametrize(
    ("selector", "msg"),
    [
        (
            {"from": "2000-01-01", "to": "2026-11-20"},  # 9,821 days
            "dateSelector: the period has 9821 days; at most 400 are allowed",
        ),
        (
            {"from": "0001-01-01"},
            "dateSelector.from: Input should be greater than or equal to 1970-01-01",
        ),
        (
            {"to": "9999-12-31"},
            "dateSelector.to: Input should be less than or equal to 2999-12-31",
        ),
        (
            {"workflowShift": "x" * 65},
            "dateSelector.workflowShift: String should have at most 64 characters",
        ),
    ],
)
def test_settings_that_analytics_would_refuse_are_refused_and_nothing_is_stored(
    client: TestClient, seeded: DemoData, login: LoginFn, selector: dict[str, str], msg: str
) -> None:
    login(client, CUSTOMER)
    before = client.get("/v2/User/settings").json()
    assert _patch_settings(client, {"dateSelector": selector}) == (422, envelope_error(msg))
    assert client.get("/v2/User/settings").json() == before
    assert client.get("/v2/Analytics/Productivity").status_code == 200


def test_the_longest_period_analytics_take_can_be_saved(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    first = date(2025, 1, 1)
    last = first + timedelta(days=MAX_PERIOD_DAYS - 1)
    status, _ = _patch_settings(
        client, {"dateSelector": {"from": first.isoformat(), "to": last.isoformat()}}
    )
    assert status == 200
    period = client.get("/v2/Analytics/Productivity").json()["data"]["period"]
    assert (period["from"], period["to"], period["days"]) == (
        first.isoformat(),
        last.isoformat(),
        MAX_PERIOD_DAYS,
    )


def test_more_selected_vehicles_than_analytics_take_are_refused(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    status, body = _patch_settings(client, {"selectedMachines": list(range(1, 2002))})
    assert (status, body["msg"]) == (
        422,
        "selectedMachines: List should have at most 2000 items after validation, not 2001",
    )


@pytest.mark.parametrize(
    ("first", "last"),
    [
        (date(2000, 1, 1), date(2026, 11, 20)),  # longer than 400 days
        (date(1, 1, 1), date(1, 1, 5)),  # before the calendar of analyses
        (date(2026, 5, 3), date(2026, 5, 1)),  # reversed
    ],
)
def test_a_stored_period_that_breaks_the_rules_falls_back_to_the_current_week(
    client: TestClient,
    seeded: DemoData,
    login: LoginFn,
    session_factory: SessionFactory,
    first: date,
    last: date,
) -> None:
    """Rows saved before the rules (or under older ones) must not break analytics."""
    login(client, CUSTOMER)
    with session_factory() as session:
        session.add(
            UserSettings(
                user_id=seeded.user_ids[CUSTOMER],
                date_mode="custom",
                date_from=first,
                date_to=last,
                combined=False,
                workflow_shift="all",
                selected_machines=[],
                onboarding_watched=False,
            )
        )
        session.commit()
    monday, sunday = _current_week()
    selector = client.get("/v2/User/settings").json()["data"]["dateSelector"]
    assert (selector["from"], selector["to"]) == (monday, sunday)
    response = client.get("/v2/Analytics/Productivity")
    assert response.status_code == 200, response.text
    period = response.json()["data"]["period"]
    assert (period["from"], period["to"]) == (monday, sunday)
    # A query's own period still counts, and a new valid period can be saved over the old.
    explicit = client.get("/v2/Analytics/Productivity?from=2026-03-02&to=2026-03-08")
    assert explicit.json()["data"]["period"]["days"] == 7
    assert _patch_settings(client, {"dateSelector": {"from": "2026-03-02"}})[0] == 200


# --- The OpenAPI document lists the failures -----------------------------------------------------


def test_every_operation_documents_its_failures_with_the_envelope(client: TestClient) -> None:
    document = client.get("/v2/openapi.json").json()
    failure = {"$ref": "#/components/schemas/Failure"}
    public = {("post", "/v2/User/login"), ("post", "/v2/User/logout")}
    token_only = {("post", "/v2/Ingest/vda5050")}
    checked = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            failures = {int(code) for code in responses if not code.startswith("2")}
            for code in failures:
                schema = responses[str(code)]["content"]["application/json"]["schema"]
                assert schema == failure, (method, path, code)
            assert 503 in failures, (method, path)  # admission control, for every call
            if (method, path) not in public:
                assert 401 in failures, (method, path)
            changes = method in {"post", "put", "patch", "delete"}
            if changes and (method, path) not in public | token_only:
                assert 403 in failures, (method, path)  # CSRF
            if operation.get("parameters") or "requestBody" in operation:
                assert 422 in failures, (method, path)
            checked += 1
    assert checked >= 30


@pytest.mark.parametrize(
    ("body", "status", "language", "msg"),
    [
        (
            b'{"dateSelector": "\xff\xfe"}',
            400,
            "en",
            "body: could not be read (expected JSON in UTF-8)",
        ),
        (
            b'{"dateSelector": "\xff\xfe"}',
            400,
            "de",
            "body: konnte nicht gelesen werden (erwartet: JSON in UTF-8)",
        ),
        # Broken JSON: where it breaks.
        (
            b'{"combined": true,\n "workflowShift": "early" "x": 1}',
            422,
            "en",
            "body: Invalid JSON at line 2, column 27: Expecting ',' delimiter",
        ),
        (
            b'{"combined": true,\n "workflowShift": "early" "x": 1}',
            422,
            "de",
            "body: ungültiges JSON in Zeile 2, Spalte 27",
        ),
    ],
)
def test_an_unreadable_body_is_named_in_the_readers_language(
    client: TestClient,
    seeded: DemoData,
    login: LoginFn,
    body: bytes,
    status: int,
    language: str,
    msg: str,
) -> None:
    login(client, CUSTOMER)
    before = client.get("/v2/User/settings").json()
    response = client.patch(
        "/v2/User/settings",
        content=body,
        headers={"Content-Type": "application/json", "Accept-Language": language},
    )
    assert (response.status_code, response.json()) == (status, envelope_error(msg))
    assert client.get("/v2/User/settings").json() == before


@pytest.mark.parametrize(
    ("content_type", "language", "msg"),
    [
        (
            "text/plain",
            "en",
            "body: send it as JSON (Content-Type: application/json), not as text/plain",
        ),
        (
            "application/x-www-form-urlencoded; charset=utf-8",
            "de",
            "body: als JSON senden (Content-Type: application/json), nicht als "
            "application/x-www-form-urlencoded",
        ),
    ],
)
def test_a_body_sent_as_another_media_type_is_a_415_naming_it(
    client: TestClient, seeded: DemoData, login: LoginFn, content_type: str, language: str, msg: str
) -> None:
    login(client, CUSTOMER)
    before = client.get("/v2/User/settings").json()
    response = client.patch(
        "/v2/User/settings",
        content=b'{"onboardingWatched": true}',
        headers={"Content-Type": content_type, "Accept-Language": language},
    )
    assert (response.status_code, response.json()) == (415, envelope_error(msg))
    assert client.get("/v2/User/settings").json() == before
    # A JSON media type with a suffix is JSON (RFC 6839).
    suffixed = client.patch(
        "/v2/User/settings",
        content=b'{"onboardingWatched": true}',
        headers={"Content-Type": "application/merge-patch+json"},
    )
    assert suffixed.status_code == 200, suffixed.text


# --- Text that is not Unicode: half of a surrogate pair ---------------------------------------

NOT_READ = envelope_error("body: could not be read (expected JSON in UTF-8)")


def test_every_json_body_with_a_lone_surrogate_is_refused_before_its_fields(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    """An escaped half of a UTF-16 pair decodes into a string no UTF-8 encoder takes: every
    operation that reads a JSON body refuses it as unreadable (not as an unknown field ``x``,
    which its fields' validation would say), never with a 500."""
    login(client, SUPERUSER)
    document = client.get("/v2/openapi.json").json()
    operations = [
        (method, path)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    ]
    assert len(operations) >= 15
    for method, path in operations:
        url = path.format_map(defaultdict(lambda: "1"))
        for body in (b'{"x": "\\ud800"}', b'{"x": ["\\udc00 and more"]}', b'{"\\ud800": 1}'):
            response = client.request(
                method, url, content=body, headers={"Content-Type": "application/json"}
            )
            if "{letterId}" in path:  # dead letter 1 does not exist: its check comes first
                assert response.status_code == 404, (method, path)
            else:
                assert (response.status_code, response.json()) == (400, NOT_READ), (method, path)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("PUT", "/v2/User/dashboard-layout", b'[{"id": "w1", "kind": "kpi", "title": "\\ud800"}]'),
        ("PATCH", "/v2/Admin/Sites/{site}", b'{"loadActionTypes": ["audit-\\ud800"]}'),
        ("PATCH", "/v2/User/me", b'{"displayName": "x\xed\xa0\x80"}'),  # raw CESU-8 bytes
        ("POST", "/v2/Admin/Organizations", b'{"name": "audit-\\udfff"}'),
    ],
)
def test_a_lone_surrogate_stores_nothing_and_later_reads_still_work(
    client: TestClient, seeded: DemoData, login: LoginFn, method: str, path: str, body: bytes
) -> None:
    """Stored in a JSON column it broke every later read of the layout, the site list and the
    audit log (500)."""
    login(client, SUPERUSER)
    reads = ("/v2/User/dashboard-layout", "/v2/Admin/Sites", "/v2/Admin/Audit", "/v2/User/me")
    before = [client.get(read).json() for read in reads]
    url = path.format(site=seeded.site_ids["Hamburg DC"])
    headers = {"Content-Type": "application/json", "Accept-Language": "de"}
    response = client.request(method, url, content=body, headers=headers)
    assert response.status_code == 400
    assert response.json()["msg"] == "body: konnte nicht gelesen werden (erwartet: JSON in UTF-8)"
    assert [client.get(read).json() for read in reads] == before


def test_a_well_formed_surrogate_pair_is_one_character(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    response = client.patch(
        "/v2/User/me",
        content=b'{"displayName": "Ann \\ud83d\\ude9a"}',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 200, response.text
    assert client.get("/v2/User/me").json()["data"]["displayName"] == "Ann \U0001f69a"


# --- Broken JSON: told after the route's own checks -------------------------------------------


def _json_body_operations(client: TestClient) -> list[tuple[str, str]]:
    document = client.get("/v2/openapi.json").json()
    return [
        (method, path.format_map(defaultdict(lambda: "1")))
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    ]


UNREADABLE_BODIES = (b"{", b'{"x": "\xff"}', b'{"x": "\\ud800"}')


def test_without_a_session_every_body_is_answered_authentication_failed(
    client: TestClient, seeded: DemoData
) -> None:
    """product.md 5: not logged in is a 401, whatever the request holds; a broken body was
    answered first and told a caller without a session which paths take one."""
    operations = _json_body_operations(client)
    assert len(operations) >= 15
    for method, url in operations:
        if url == "/v2/User/login":
            continue
        sent = [(body, "application/json") for body in UNREADABLE_BODIES]
        for body, media_type in [*sent, (b"{}", "text/plain")]:
            response = client.request(
                method, url, content=body, headers={"Content-Type": media_type}
            )
            assert (response.status_code, response.json()) == (
                401,
                envelope_error("authentication failed"),
            ), (method, url, body)


def test_another_role_s_broken_body_to_the_administration_api_is_not_found(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    """Nothing shows a customer that the administration API exists (docs/administration.md),
    with or without the CSRF token."""
    login(client, CUSTOMER)
    token = client.cookies.get("fleetscope_csrf") or ""
    for method, url in _json_body_operations(client):
        if not url.startswith("/v2/Admin/"):
            continue
        # Broken JSON, and a body sent as another media type.
        bodies = ((b"{", "application/json"), (b"{}", "text/plain"))
        for headers in ({}, {"X-CSRF-Token": token}):
            for content, media_type in bodies:
                response = client.request(
                    method, url, content=content, headers={"Content-Type": media_type, **headers}
                )
                assert (response.status_code, response.json()) == (
                    404,
                    envelope_error(f"not found: {url}"),
                ), (method, url, headers)
