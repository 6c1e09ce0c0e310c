"""The JSON parsers' and the schema validator's own explanation of a refusal (a refusal's
``detail``), in English and German.

msgspec, orjson and fastjsonschema explain in English, with a small set of sentences. Each
known sentence is a catalogue message whose English is the parser's text character for
character (it is also the pattern the text is matched with), so that a dead letter reads
as before in English and in German in German. Names, paths, types and values inside a
sentence (``$.batteryState``, `` `int` ``, ``'X'``) are the message's own and stay as they
are; a ``{problem}`` is itself a sentence. A sentence not known here (a newer parser's
wording) is kept in English in both languages rather than guessed.
"""

import re
from string import Formatter

from fleetscope.i18n.text import Template, Text, define

# (id, English as the parser writes it, German); "{{" and "}}" are a literal brace.
_SENTENCES = (
    # Where: msgspec names the path after the problem, the JSON parsers a position.
    ("at_path", "{problem} - at `{path}`", "{problem} (bei `{path}`)"),
    (
        "at_byte",
        "JSON is malformed: {problem} (byte {byte})",
        "JSON fehlerhaft: {problem} (Byte {byte})",
    ),
    (
        "at_line",
        "{problem}: line {line} column {column} (char {char})",
        "{problem}: Zeile {line}, Spalte {column} (Zeichen {char})",
    ),
    # msgspec: values
    (
        "expected_got",
        "Expected `{expected}`, got `{got}`",
        "`{expected}` erwartet, `{got}` erhalten",
    ),
    ("with_zone", "Expected `{type}` with a timezone component", "`{type}` mit Zeitzone erwartet"),
    (
        "without_zone",
        "Expected `{type}` with no timezone component",
        "`{type}` ohne Zeitzone erwartet",
    ),
    (
        "length",
        "Expected `{type}` of length {bound} {limit}",
        "`{type}` der Länge {bound} {limit} erwartet",
    ),
    ("bound", "Expected `{type}` {bound} {limit}", "`{type}` {bound} {limit} erwartet"),
    ("regex", "Expected `str` matching regex {pattern}", "Text passend zu {pattern} erwartet"),
    (
        "missing_field",
        "Object missing required field `{field}`",
        "dem Objekt fehlt das Pflichtfeld `{field}`",
    ),
    (
        "unknown_field",
        "Object contains unknown field `{field}`",
        "das Objekt enthält das unbekannte Feld `{field}`",
    ),
    ("enum", "Invalid enum value {value}", "{value} ist keiner der erlaubten Werte"),
    ("value", "Invalid value {value}", "ungültiger Wert {value}"),
    ("rfc3339", "Invalid RFC3339 encoded {kind}", "ungültiger RFC-3339-Wert für {kind}"),
    ("integer_range", "Integer value out of range", "ganze Zahl außerhalb des Wertebereichs"),
    ("number_range", "Number out of range", "Zahl außerhalb des Wertebereichs"),
    # msgspec and orjson: JSON syntax
    ("truncated", "Input data was truncated", "die Daten enden mittendrin"),
    ("end", "unexpected end of data", "die Daten enden mittendrin"),
    ("trailing", "trailing characters", "Zeichen nach dem Ende"),
    ("content_after", "unexpected content after document", "Inhalt nach dem Ende des Dokuments"),
    ("character", "invalid character", "ungültiges Zeichen"),
    ("number", "invalid number", "ungültige Zahl"),
    ("colon", "expected ':'", "':' erwartet"),
    ("quote", "expected '\"'", "'\"' erwartet"),
    ("array_next", "expected ',' or ']'", "',' oder ']' erwartet"),
    ("object_next", "expected ',' or '}}'", "',' oder '}}' erwartet"),
    ("keys", "object keys must be strings", "Schlüssel eines Objekts müssen Texte sein"),
    ("array_comma", "trailing comma in array", "Komma nach dem letzten Eintrag eines Arrays"),
    ("object_comma", "trailing comma in object", "Komma nach dem letzten Eintrag eines Objekts"),
    ("comma", "trailing comma is not allowed", "Komma nach dem letzten Eintrag"),
    ("escape", "invalid escape character in string", "ungültige Escape-Sequenz in einem Text"),
    ("control", "unexpected control character in string", "Steuerzeichen in einem Text"),
    (
        "value_expected",
        "unexpected character, expected a JSON value",
        "unerwartetes Zeichen, JSON-Wert erwartet",
    ),
    (
        "key_expected",
        "unexpected character, expected a string key",
        "unerwartetes Zeichen, Schlüssel erwartet",
    ),
    (
        "colon_expected",
        "unexpected character, expected ':' after key",
        "unerwartetes Zeichen, ':' erwartet",
    ),
    (
        "array_expected",
        "unexpected character, expected ',' or ']'",
        "unerwartetes Zeichen, ',' oder ']' erwartet",
    ),
    (
        "object_expected",
        "unexpected character, expected ',' or '}}'",
        "unerwartetes Zeichen, ',' oder '}}' erwartet",
    ),
    (
        "surrogate",
        "str is not valid UTF-8: surrogates not allowed",
        "der Text ist kein gültiges UTF-8: Ersatzzeichen (Surrogates) sind nicht erlaubt",
    ),
    (
        "low_surrogate",
        "no low surrogate in string",
        "unvollständiges Ersatzzeichenpaar in einem Text",
    ),
    ("utf8", "invalid UTF-8 encoding in string", "ungültige UTF-8-Kodierung in einem Text"),
    # fastjsonschema, its "data" written as the message's root ("$.nodeStates[1]")
    ("schema_type", "{path} must be {type}", "{path} muss vom Typ {type} sein"),
    ("schema_enum", "{path} must be one of {values}", "{path} muss einer der Werte {values} sein"),
    (
        "schema_required",
        "{path} must contain {names} properties",
        "{path} muss die Felder {names} enthalten",
    ),
    (
        "schema_extra",
        "{path} must not contain {names} properties",
        "{path} darf die Felder {names} nicht enthalten",
    ),
    (
        "schema_minimum",
        "{path} must be bigger than or equal to {limit}",
        "{path} muss mindestens {limit} sein",
    ),
    ("schema_above", "{path} must be bigger than {limit}", "{path} muss größer als {limit} sein"),
    (
        "schema_maximum",
        "{path} must be smaller than or equal to {limit}",
        "{path} darf höchstens {limit} sein",
    ),
    ("schema_below", "{path} must be smaller than {limit}", "{path} muss kleiner als {limit} sein"),
    (
        "schema_min_length",
        "{path} must be longer than or equal to {limit} characters",
        "{path} muss mindestens {limit} Zeichen lang sein",
    ),
    (
        "schema_max_length",
        "{path} must be shorter than or equal to {limit} characters",
        "{path} darf höchstens {limit} Zeichen lang sein",
    ),
    (
        "schema_pattern",
        "{path} must match pattern {pattern}",
        "{path} muss zum Muster {pattern} passen",
    ),
    (
        "schema_min_items",
        "{path} must contain at least {limit} items",
        "{path} muss mindestens {limit} Einträge enthalten",
    ),
    (
        "schema_one_of",
        "{path} must be valid exactly by one definition ({count} matches found)",
        "{path} muss genau einer Definition entsprechen ({count} passende gefunden)",
    ),
)


def _pattern(english: str) -> tuple[re.Pattern[str], tuple[bool, int]]:
    """The sentence's English as a pattern (each placeholder a group) and its rank."""
    parts = list(Formatter().parse(english))
    # A problem reaches to the last "where" (a value inside it might read like one).
    groups = {
        name: f"(?P<{name}>{'.+' if name == 'problem' else '.+?'})" for _, name, *_ in parts if name
    }
    regex = "".join(re.escape(literal) + groups.get(name or "", "") for literal, name, *_ in parts)
    # The "where" sentences first (they hold another), then the longest literal text first:
    # "must be bigger than or equal to {limit}" before "must be {type}".
    return re.compile(regex), ("problem" not in groups, -sum(len(part[0]) for part in parts))


_RULES: list[tuple[re.Pattern[str], Template]] = [
    (pattern, define(f"detail.{key}", en=en, de=de))
    for (pattern, _), key, en, de in sorted(
        ((_pattern(en), key, en, de) for key, en, de in _SENTENCES), key=lambda rule: rule[0][1]
    )
]


def parser_detail(detail: str) -> Text:
    """A parser's or validator's explanation as a message in every language (as is if unknown)."""
    for pattern, template in _RULES:
        match = pattern.fullmatch(detail)
        if match is not None:
            params: dict[str, object] = dict(match.groupdict())
            if "problem" in params:
                params["problem"] = parser_detail(match["problem"])
            return template(**params)
    return detail
