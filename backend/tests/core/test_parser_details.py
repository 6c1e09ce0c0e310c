"""The parsers' own words in a refusal: English exactly as the parser wrote it, German where
the sentence is known, and the English kept where it is not."""

from typing import Any

import fastjsonschema
import msgspec
import orjson
import pytest

from fleetscope.i18n.parser_details import parser_detail
from fleetscope.i18n.text import Message, render


class Point(msgspec.Struct):
    x: float
    y: float


class Reading(msgspec.Struct, forbid_unknown_fields=True):
    charge: float


def msgspec_error(data: bytes, kind: Any = Point) -> str:
    with pytest.raises((msgspec.ValidationError, msgspec.DecodeError)) as caught:
        msgspec.json.decode(data, type=kind)
    return str(caught.value)


def orjson_error(data: bytes) -> str:
    with pytest.raises(orjson.JSONDecodeError) as caught:
        orjson.loads(data)
    return str(caught.value)


def schema_error(schema: dict[str, Any], document: Any) -> str:
    with pytest.raises(fastjsonschema.JsonSchemaValueException) as caught:
        fastjsonschema.compile(schema)(document)
    # As the decoder names the root: "data.a" -> "$.a".
    return caught.value.message.replace("data", "$", 1)


@pytest.mark.parametrize(
    ("detail", "german"),
    [
        (msgspec_error(b'{"x": "1", "y": 2}'), "`float` erwartet, `str` erhalten (bei `$.x`)"),
        (msgspec_error(b'{"x": 1}'), "dem Objekt fehlt das Pflichtfeld `y`"),
        (
            msgspec_error(b'[{"x": 1}]', list[Point]),
            "dem Objekt fehlt das Pflichtfeld `y` (bei `$[0]`)",
        ),
        (
            msgspec_error(b'{"charge": 1, "z": 0}', Reading),
            "das Objekt enthält das unbekannte Feld `z`",
        ),
        (msgspec_error(b'{"x": 1,'), "die Daten enden mittendrin"),
        (msgspec_error(b'{"x": 1, "y": 2}}'), "JSON fehlerhaft: Zeichen nach dem Ende (Byte 17)"),
        (
            msgspec_error(b'{"x": 1,}'),
            "JSON fehlerhaft: Komma nach dem letzten Eintrag eines Objekts (Byte 8)",
        ),
        (msgspec_error(b'{"x" 1}'), "JSON fehlerhaft: ':' erwartet (Byte 5)"),
        (msgspec_error(b'{"x": 1 "y": 2}'), "JSON fehlerhaft: ',' oder '}' erwartet (Byte 8)"),
        (orjson_error(b'{"x": 1'), "die Daten enden mittendrin: Zeile 1, Spalte 8 (Zeichen 7)"),
        (
            orjson_error(b'{"x": 1 "y"'),
            "unerwartetes Zeichen, ',' oder '}' erwartet: Zeile 1, Spalte 9 (Zeichen 8)",
        ),
        (
            schema_error({"properties": {"a": {"type": "number"}}}, {"a": "x"}),
            "$.a muss vom Typ number sein",
        ),
        (
            schema_error({"properties": {"a": {"minimum": 0}}}, {"a": -1}),
            "$.a muss mindestens 0 sein",
        ),
        (
            schema_error({"properties": {"a": {"exclusiveMinimum": 0}}}, {"a": 0}),
            "$.a muss größer als 0 sein",
        ),
        (
            schema_error({"properties": {"a": {"maxLength": 2}}}, {"a": "xyz"}),
            "$.a darf höchstens 2 Zeichen lang sein",
        ),
        (schema_error({"required": ["a", "b"]}, {}), "$ muss die Felder ['a', 'b'] enthalten"),
        (
            schema_error({"additionalProperties": False}, {"q": 1}),
            "$ darf die Felder {'q'} nicht enthalten",
        ),
    ],
)
def test_a_known_sentence_is_german_and_the_english_is_the_parsers(
    detail: str, german: str
) -> None:
    explained = parser_detail(detail)
    assert isinstance(explained, Message)
    assert render(explained, "en") == detail
    assert render(explained, "de") == german


def test_the_longest_matching_sentence_wins() -> None:
    # "must be {type}" also matches the text; the longer, more specific sentence is meant.
    detail = "$.batteryCharge must be smaller than or equal to 100"
    assert render(parser_detail(detail), "de") == "$.batteryCharge darf höchstens 100 sein"


def test_a_value_that_reads_like_a_place_stays_inside_the_problem() -> None:
    detail = "Invalid enum value 'a - at `b`' - at `$.operatingMode`"
    assert render(parser_detail(detail), "de") == (
        "'a - at `b`' ist keiner der erlaubten Werte (bei `$.operatingMode`)"
    )


def test_an_unknown_sentence_is_kept_in_english_in_every_language() -> None:
    assert parser_detail("Expected the unexpected") == "Expected the unexpected"
    # Known place, unknown problem: the place is German, the problem as the parser wrote it.
    detail = "JSON is malformed: something new (byte 3)"
    assert render(parser_detail(detail), "de") == "JSON fehlerhaft: something new (Byte 3)"
    assert render(parser_detail(detail), "en") == detail
