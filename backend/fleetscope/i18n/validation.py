"""Request-validation errors (FastAPI/pydantic) as one message: ``field: problem; ...``.

English keeps pydantic's own text, detail included. German renders the problem from the
error's ``type`` and ``ctx`` with the templates below; a type not listed here (rare for
this API's parameters and bodies) keeps pydantic's English text.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from fleetscope.i18n.messages import INVALID_REQUEST, WHOLE_REQUEST
from fleetscope.i18n.text import Language, Template, define, placeholders

_REQUIRED = define("validation.missing", en="Field required", de="Angabe fehlt")
_EXTRA = define(
    "validation.extra_forbidden",
    en="Extra inputs are not permitted",
    de="zusätzliche Angaben sind nicht erlaubt",
)
_JSON = define(
    "validation.json_invalid",
    en="Invalid JSON at line {line}, column {column}",
    de="ungültiges JSON in Zeile {line}, Spalte {column}",
)
_OBJECT = define(
    "validation.object", en="Input should be a valid dictionary", de="muss ein JSON-Objekt sein"
)
_LIST = define("validation.list", en="Input should be a valid list", de="muss eine Liste sein")
_TEXT = define("validation.string", en="Input should be a valid string", de="muss ein Text sein")
_BOOLEAN = define(
    "validation.boolean",
    en="Input should be a valid boolean",
    de="muss ein Wahrheitswert sein (true oder false)",
)
_INTEGER = define(
    "validation.integer", en="Input should be a valid integer", de="muss eine ganze Zahl sein"
)
_NUMBER = define("validation.number", en="Input should be a valid number", de="muss eine Zahl sein")
# Also the English of a day written otherwise (``AnalysisDay``): pydantic names no format.
DAY_FORMAT = define(
    "validation.date",
    en="Input should be a valid date in the format YYYY-MM-DD",
    de="muss ein gültiges Datum im Format JJJJ-MM-TT sein",
)
_DATETIME = define(
    "validation.datetime",
    en="Input should be a valid datetime",
    de="muss ein gültiger Zeitpunkt sein (ISO 8601)",
)
_TIME = define(
    "validation.time", en="Input should be a valid time", de="muss eine gültige Uhrzeit sein"
)
_TIMEZONE = define(
    "validation.timezone_aware",
    en="Input should have timezone info",
    de="muss eine Zeitzone enthalten",
)
_CHOICE = define("validation.choice", en="Input should be {expected}", de="muss {expected} sein")

# A PATCH field that cannot be empty (``appstore.admin_bodies.Kept``); pydantic's English is ours.
NOT_NULL = define(
    "validation.not_null",
    en="Input should not be null: leave the field out to keep its value",
    de="darf nicht null sein: ohne die Angabe bleibt der Wert, wie er ist",
)

_TEMPLATES: dict[str, Template] = {
    "missing": _REQUIRED,
    "not_null": NOT_NULL,
    "extra_forbidden": _EXTRA,
    "json_invalid": _JSON,
    "json_type": _OBJECT,
    "dict_type": _OBJECT,
    "model_type": _OBJECT,
    "model_attributes_type": _OBJECT,
    "list_type": _LIST,
    "string_type": _TEXT,
    "bool_type": _BOOLEAN,
    "bool_parsing": _BOOLEAN,
    "int_type": _INTEGER,
    "int_parsing": _INTEGER,
    "int_parsing_size": _INTEGER,
    "int_from_float": _INTEGER,
    "float_type": _NUMBER,
    "float_parsing": _NUMBER,
    "finite_number": _NUMBER,
    "date_type": DAY_FORMAT,
    "date_parsing": DAY_FORMAT,
    "date_from_datetime_parsing": DAY_FORMAT,
    "date_from_datetime_inexact": DAY_FORMAT,
    "datetime_type": _DATETIME,
    "datetime_parsing": _DATETIME,
    "datetime_from_date_parsing": _DATETIME,
    "time_type": _TIME,
    "time_parsing": _TIME,
    "timezone_aware": _TIMEZONE,
    "enum": _CHOICE,
    "literal_error": _CHOICE,
    "greater_than": define(
        "validation.greater_than",
        en="Input should be greater than {gt}",
        de="muss größer als {gt} sein",
    ),
    "greater_than_equal": define(
        "validation.greater_than_equal",
        en="Input should be greater than or equal to {ge}",
        de="muss mindestens {ge} sein",
    ),
    "less_than": define(
        "validation.less_than", en="Input should be less than {lt}", de="muss kleiner als {lt} sein"
    ),
    "less_than_equal": define(
        "validation.less_than_equal",
        en="Input should be less than or equal to {le}",
        de="darf höchstens {le} sein",
    ),
    "multiple_of": define(
        "validation.multiple_of",
        en="Input should be a multiple of {multiple_of}",
        de="muss ein Vielfaches von {multiple_of} sein",
    ),
    "string_too_short": define(
        "validation.string_too_short",
        en="String should have at least {min_length} characters",
        de="muss mindestens {min_length} Zeichen haben",
    ),
    "string_too_long": define(
        "validation.string_too_long",
        en="String should have at most {max_length} characters",
        de="darf höchstens {max_length} Zeichen haben",
    ),
    "string_nul": define(
        "validation.string_nul",
        en="String should not contain the NUL character",
        de="darf das NUL-Zeichen nicht enthalten",
    ),
    "string_pattern_mismatch": define(
        "validation.string_pattern_mismatch",
        en="String should match pattern '{pattern}'",
        de="muss dem Muster '{pattern}' entsprechen",
    ),
    "too_short": define(
        "validation.too_short",
        en="List should have at least {min_length} items",
        de="muss mindestens {min_length} Einträge haben",
    ),
    "too_long": define(
        "validation.too_long",
        en="List should have at most {max_length} items",
        de="darf höchstens {max_length} Einträge haben",
    ),
}


def _german_value(value: object) -> object:
    # pydantic lists choices as "'a', 'b' or 'c'"; the values themselves stay as they are.
    return value.replace(" or ", " oder ") if isinstance(value, str) else value


def _problem(error: Mapping[str, Any], language: Language) -> str:
    english = str(error.get("msg") or INVALID_REQUEST().render("en"))
    template = _TEMPLATES.get(str(error.get("type", "")))
    if language == "en" or template is None:
        return english
    context = error.get("ctx") or {}
    names = placeholders(template.de)
    if not names <= set(context):
        return english
    return template(**{name: _german_value(context[name]) for name in names}).render(language)


# Where a parameter was sent (the first part of its location); the message names the
# parameter alone.
_WHERE = frozenset({"body", "query", "path", "header", "cookie"})


def _as_text_length(error: Mapping[str, Any]) -> Mapping[str, Any]:
    """A length checked after a validator (``StoredText``) is checked as a collection's:
    pydantic says "Value should have at least 1 item after validation". Of text, the problem
    is told in characters, as pydantic tells it of a plain string."""
    kind = error.get("type")
    if kind not in ("too_short", "too_long") or not isinstance(error.get("input"), str):
        return error
    short = kind == "too_short"
    limit = (error.get("ctx") or {}).get("min_length" if short else "max_length")
    plural = "" if limit == 1 else "s"
    bound = "least" if short else "most"
    english = f"String should have at {bound} {limit} character{plural}"
    return {**error, "type": f"string_{kind}", "msg": english}


def describe_validation(errors: Iterable[Mapping[str, Any]], *, language: Language) -> str:
    """``field: problem`` per error, joined by ``; ``; the field as the API spells it."""
    parts = []
    for error in map(_as_text_length, errors):
        loc = whole = tuple(error.get("loc", ()))
        if loc and loc[0] in _WHERE:  # only where it was sent: a body may have a field "path"
            loc = loc[1:]
        location = ".".join(str(p) for p in loc)
        # The body as a whole (a list sent where an object belongs), or a character position
        # in it (invalid JSON): "body".
        if error.get("type") == "json_invalid" or whole == ("body",):
            location = "body"
        parts.append(f"{location or WHOLE_REQUEST().render(language)}: {_problem(error, language)}")
    return "; ".join(parts) or INVALID_REQUEST().render(language)
