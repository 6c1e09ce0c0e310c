"""Server messages in English and German: the catalogue, the request's language, the API."""

from datetime import date, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fleetscope.analytics.core.param_rules import MAX_PERIOD_DAYS
from fleetscope.api.errors import ApiError
from fleetscope.appstore.errors import NotFoundError
from fleetscope.demo.seed import DemoData
from fleetscope.i18n import CATALOGUE, Language, Template, negotiate_language
from fleetscope.i18n.messages import PERIOD_TOO_LONG, VEHICLE_NOT_FOUND
from fleetscope.i18n.text import placeholders
from fleetscope.i18n.validation import describe_validation
from tests.core.support import AUTH_FAILED, CUSTOMER, LoginFn, envelope_error

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"}
UNKNOWN_VEHICLE = 999_999


@pytest.mark.parametrize("template", CATALOGUE.values(), ids=list(CATALOGUE))
def test_every_message_has_both_languages_with_the_same_parameters(template: Template) -> None:
    assert template.en.strip() and template.de.strip()
    assert template.de != template.en, "the German text is a copy of the English one"
    assert placeholders(template.de) == placeholders(template.en)


def test_a_message_renders_per_language_and_reads_english_as_text() -> None:
    message = PERIOD_TOO_LONG(days=500, limit=400)
    assert message.render("de") == "to: der Zeitraum hat 500 Tage; höchstens 400 sind erlaubt"
    assert str(message) == "to: the period has 500 days; at most 400 are allowed"
    assert str(NotFoundError(VEHICLE_NOT_FOUND(vehicle=7))) == "vehicle 7 not found"
    assert ApiError(404, VEHICLE_NOT_FOUND(vehicle=7)).msg == "vehicle 7 not found"


def test_a_message_with_wrong_parameters_is_a_programming_error() -> None:
    with pytest.raises(TypeError, match="takes \\['days', 'limit'\\], got \\['days'\\]"):
        PERIOD_TOO_LONG(days=500)


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("de", "de"),
        ("de-DE", "de"),
        ("DE-at", "de"),
        ("de;q=0.9,en;q=0.8", "de"),
        ("en;q=0.5, de", "de"),
        ("fr, de;q=0.5", "de"),
        ("en", "en"),
        ("en-GB,de;q=0.5", "en"),
        ("fr", "en"),
        ("*", "en"),
        ("de;q=0", "en"),
        ("de;q=oops", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_accept_language_picks_the_preferred_supported_language(
    header: str | None, language: Language
) -> None:
    assert negotiate_language(header) == language


def test_validation_problems_are_german_by_type_and_english_as_pydantic_wrote_them() -> None:
    errors = [
        {"type": "missing", "loc": ("body", "password"), "msg": "Field required"},
        {
            "type": "literal_error",
            "loc": ("query", "granularity"),
            "msg": "Input should be 'day' or 'week'",
            "ctx": {"expected": "'day' or 'week'"},
        },
        {"type": "url_parsing", "loc": ("query", "link"), "msg": "Input should be a valid URL"},
        {"type": "list_type", "loc": ("body",), "msg": "Input should be a valid list"},
    ]
    assert describe_validation(errors, language="en") == (
        "password: Field required; granularity: Input should be 'day' or 'week'; "
        "link: Input should be a valid URL; body: Input should be a valid list"
    )
    # A type without a German text keeps pydantic's English one.
    assert describe_validation(errors, language="de") == (
        "password: Angabe fehlt; granularity: muss 'day' oder 'week' sein; "
        "link: Input should be a valid URL; body: muss eine Liste sein"
    )
    assert describe_validation([], language="de") == "ungültige Anfrage"


def _failure(response: Any, status_code: int, msg: str, language: Language) -> None:
    assert response.status_code == status_code, response.text
    assert response.json() == envelope_error(msg)
    assert response.headers["content-language"] == language


def test_login_failure_answers_in_the_request_language(
    client: TestClient, seeded: DemoData
) -> None:
    body = {"email": CUSTOMER, "password": "wrong"}
    _failure(client.post("/v2/User/login", json=body), 401, "invalid email or password", "en")
    german = client.post("/v2/User/login", json=body, headers=GERMAN)
    _failure(german, 401, "E-Mail-Adresse oder Passwort ist falsch", "de")


def test_authentication_failed_stays_the_same_in_every_language(client: TestClient) -> None:
    # The client recognizes an ended session by this exact text.
    response = client.get("/v2/User/settings", headers=GERMAN)
    assert (response.status_code, response.json()) == (401, AUTH_FAILED)


def test_analytics_parameters_answer_in_the_request_language(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    last = date(2026, 10, 24)
    first = last - timedelta(days=MAX_PERIOD_DAYS)
    period = {"from": first.isoformat(), "to": last.isoformat()}
    days = MAX_PERIOD_DAYS + 1
    url = "/v2/Analytics/Processes"
    too_long = f"to: the period has {days} days; at most {MAX_PERIOD_DAYS} are allowed"
    _failure(client.get(url, params=period), 422, too_long, "en")
    zu_lang = f"to: der Zeitraum hat {days} Tage; höchstens {MAX_PERIOD_DAYS} sind erlaubt"
    _failure(client.get(url, params=period, headers=GERMAN), 422, zu_lang, "de")

    unknown = {"vehicles": str(UNKNOWN_VEHICLE)}
    _failure(client.get(url, params=unknown), 404, f"vehicle {UNKNOWN_VEHICLE} not found", "en")
    german = client.get(url, params=unknown, headers=GERMAN)
    _failure(german, 404, f"Fahrzeug {UNKNOWN_VEHICLE} nicht gefunden", "de")


def test_request_validation_answers_in_the_request_language(
    client: TestClient, seeded: DemoData, login: LoginFn
) -> None:
    login(client, CUSTOMER)
    url = "/v2/Analytics/Processes"
    response = client.get(url, params={"from": "yesterday"}, headers=GERMAN)
    _failure(response, 422, "from: muss ein gültiges Datum im Format JJJJ-MM-TT sein", "de")
    english = client.get(url, params={"from": "yesterday"})
    assert english.status_code == 422
    assert english.json()["msg"].startswith("from: Input should be a valid date")
    missing = client.post(
        "/v2/User/login", json={"email": "a@b.c"}, headers={"Accept-Language": "de"}
    )
    _failure(missing, 422, "password: Angabe fehlt", "de")


def test_unknown_path_and_method_answer_in_the_request_language(client: TestClient) -> None:
    _failure(
        client.get("/v2/Nothing/here", headers=GERMAN),
        404,
        "nicht gefunden: /v2/Nothing/here",
        "de",
    )
    _failure(
        client.delete("/v2/Vehicles", headers=GERMAN),
        405,
        "Methode DELETE ist auf /v2/Vehicles nicht erlaubt",
        "de",
    )
