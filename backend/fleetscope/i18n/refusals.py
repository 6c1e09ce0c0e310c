"""Why ingestion refused a message, in English and German: the reason of each dead letter
and of each rejected line of an HTTP batch.

The decoder, the vehicle registry and the line parser raise these; the dead letter keeps
the reason rendered in every language, so a superuser reads it in theirs. Field names and
JSON paths (``$.timestamp``, ``"payload"``) are the message's own and stay as they are. A
reason quoting the JSON parser's or the schema validator's own text is made by
``invalid_json``, ``schema_violation`` or ``line_not_json``, which give that text in German
too (``parser_details``).
"""

from fleetscope.i18n.parser_details import parser_detail
from fleetscope.i18n.text import Message, define

# --- The topic -------------------------------------------------------------------------------

TOPIC_TOO_LONG = define(
    "refusal.topic_too_long",
    en="topic has {length} characters, at most {limit} allowed",
    de="Topic hat {length} Zeichen, höchstens {limit} sind erlaubt",
)
PAYLOAD_TOO_LARGE = define(
    "refusal.payload_too_large",
    en="message has {size} bytes, at most {limit} allowed (FLEETSCOPE_MAX_MESSAGE_BYTES)",
    de="Nachricht hat {size} Bytes, höchstens {limit} sind erlaubt (FLEETSCOPE_MAX_MESSAGE_BYTES)",
)
TOPIC_NOT_UTF8 = define(
    "refusal.topic_not_utf8", en="topic not UTF-8", de="Topic ist kein gültiges UTF-8"
)
TOPIC_SHAPE = define(
    "refusal.topic_shape",
    en="topic {topic!r} is not {{interface}}/{{major}}/{{manufacturer}}/{{serial}}"
    "/{{state|connection|factsheet}}",
    de="Topic {topic!r} hat nicht die Form {{interface}}/{{major}}/{{manufacturer}}/{{serial}}"
    "/{{state|connection|factsheet}}",
)
TOPIC_CHARACTER = define(
    "refusal.topic_character",
    en="topic {topic!r} holds {character}, which MQTT does not allow in a topic name",
    de="Topic {topic!r} enthält {character}, das MQTT in einem Topic-Namen nicht erlaubt",
)
TOPIC_SUBTOPIC = define(
    "refusal.topic_subtopic",
    en="topic {topic!r} ends in {subtopic!r}, not in state, connection or factsheet",
    de="Topic {topic!r} endet auf {subtopic!r}, nicht auf state, connection oder factsheet",
)
TOPIC_MAJOR = define(
    "refusal.topic_major",
    en="topic {topic!r} has major version {major!r}, expected v1, v2 or v3",
    de="Topic {topic!r} hat die Hauptversion {major!r}, erwartet v1, v2 oder v3",
)
MAJOR_UNSUPPORTED = define(
    "refusal.major_unsupported",
    en="unsupported VDA 5050 major version {major!r} in topic (supported: {supported})",
    de="nicht unterstützte VDA-5050-Hauptversion {major!r} im Topic (unterstützt: {supported})",
)
NO_FACTSHEET_IN_V1 = define(
    "refusal.no_factsheet_in_v1",
    en="VDA 5050 1.1 has no factsheet topic",
    de="VDA 5050 1.1 kennt kein factsheet-Topic",
)

# --- The payload -----------------------------------------------------------------------------

INVALID_JSON = define(
    "refusal.invalid_json", en="invalid JSON: {detail}", de="ungültiges JSON: {detail}"
)
SCHEMA_VIOLATION = define(
    "refusal.schema_violation",
    en="schema violation: {detail}",
    de="Verstoß gegen das Schema: {detail}",
)
INVALID_VALUE = define(
    "refusal.invalid_value",
    en="schema violation: {path} has invalid value {value!r} ({allowed})",
    de="Verstoß gegen das Schema: {path} hat den ungültigen Wert {value!r} ({allowed})",
)


def invalid_json(detail: str) -> Message:
    """Invalid JSON, in the JSON parser's words (``detail``)."""
    return INVALID_JSON(detail=parser_detail(detail))


def schema_violation(detail: str) -> Message:
    """A schema violation, in the decoder's or the schema validator's words (``detail``)."""
    return SCHEMA_VIOLATION(detail=parser_detail(detail))


VERSION_FORMAT = define(
    "refusal.version_format",
    en="version {version!r} is not [major].[minor].[patch]",
    de="version {version!r} hat nicht die Form [major].[minor].[patch]",
)
NOT_PRINTABLE = define(
    "refusal.not_printable",
    en="{path} holds a control character",
    de="{path} enthält ein Steuerzeichen",
)
VERSION_UNSUPPORTED = define(
    "refusal.version_unsupported",
    en="unsupported VDA 5050 version {version!r} (supported: {supported})",
    de="nicht unterstützte VDA-5050-Version {version!r} (unterstützt: {supported})",
)
VERSION_NOT_TOPIC_MAJOR = define(
    "refusal.version_not_topic_major",
    en="payload version {version!r} does not match topic major version {major!r}",
    de="version {version!r} der Nachricht passt nicht zur Hauptversion {major!r} des Topics",
)
MANUFACTURER_NOT_TOPIC = define(
    "refusal.manufacturer_not_topic",
    en="payload manufacturer {payload!r} does not match topic manufacturer {topic!r}",
    de="manufacturer {payload!r} der Nachricht passt nicht zum Hersteller {topic!r} des Topics",
)
SERIAL_NOT_TOPIC = define(
    "refusal.serial_not_topic",
    en="payload serialNumber {payload!r} does not match topic serial number {topic!r}",
    de="serialNumber {payload!r} der Nachricht passt nicht zur Seriennummer {topic!r} des Topics",
)
FACTSHEET_WITHOUT_TIME = define(
    "refusal.factsheet_without_time",
    en="factsheet has no timestamp and no receive time was given",
    de="das factsheet hat keinen timestamp, und es wurde keine Empfangszeit angegeben",
)
TIMESTAMP_OUT_OF_RANGE = define(
    "refusal.timestamp_out_of_range",
    en="$.timestamp {timestamp} is outside the years 1 to 9999 in UTC",
    de="$.timestamp {timestamp} liegt in UTC außerhalb der Jahre 1 bis 9999",
)
TIMESTAMP_TOO_EARLY = define(
    "refusal.timestamp_too_early",
    en="$.timestamp {timestamp} is before the earliest accepted instant {earliest}",
    de="$.timestamp {timestamp} liegt vor dem frühesten angenommenen Zeitpunkt {earliest}",
)
TIMESTAMP_AHEAD = define(
    "refusal.timestamp_ahead",
    en="$.timestamp {timestamp} is more than {skew} s after the receive time {received} "
    "(clock skew)",
    de="$.timestamp {timestamp} liegt mehr als {skew} s nach der Empfangszeit {received} "
    "(Uhrenabweichung)",
)

# --- The line of an NDJSON batch or file -----------------------------------------------------

GZIP_CUT_OFF = define(
    "refusal.gzip_cut_off",
    en="file: the gzip data breaks off after line {line} (the file is cut short)",
    de="Datei: die gzip-Daten brechen nach Zeile {line} ab (die Datei ist unvollständig)",
)
GZIP_DAMAGED = define(
    "refusal.gzip_damaged",
    en="file: the gzip data is damaged after line {line} ({detail}); nothing after it is read",
    de="Datei: die gzip-Daten sind nach Zeile {line} beschädigt ({detail}); "
    "danach wird nichts gelesen",
)

LINE_NOT_JSON = define(
    "refusal.line_not_json",
    en="line is not valid JSON: {detail}",
    de="die Zeile ist kein gültiges JSON: {detail}",
)


def line_not_json(detail: str) -> Message:
    """A line that is no JSON, in the JSON parser's words (``detail``)."""
    return LINE_NOT_JSON(detail=parser_detail(detail))


LINE_NOT_OBJECT = define(
    "refusal.line_not_object",
    en='line must be a JSON object {{"topic", "payload"}}',
    de='die Zeile muss ein JSON-Objekt {{"topic", "payload"}} sein',
)
LINE_WITHOUT_TOPIC = define(
    "refusal.line_without_topic",
    en='"topic" is missing or not a string',
    de='"topic" fehlt oder ist kein Text',
)
LINE_WITHOUT_PAYLOAD = define(
    "refusal.line_without_payload",
    en='"payload" is missing or not a JSON object',
    de='"payload" fehlt oder ist kein JSON-Objekt',
)

# --- The vehicle and the store ---------------------------------------------------------------

NO_SITE_FOR_INTERFACE = define(
    "refusal.no_site_for_interface",
    en="no site receives vehicles of interface {interface!r}: give a site this MQTT interface "
    "(fleetscope sites set-interface SITE INTERFACE)",
    de="kein Standort empfängt Fahrzeuge der Schnittstelle {interface!r}: einem Standort diese "
    "MQTT-Schnittstelle geben (fleetscope sites set-interface SITE INTERFACE)",
)
SITE_GONE = define(
    "refusal.site_gone", en="site {site} no longer exists", de="Standort {site} gibt es nicht mehr"
)
VEHICLE_GONE = define(
    "refusal.vehicle_gone",
    en="vehicle {vehicle} no longer exists",
    de="Fahrzeug {vehicle} gibt es nicht mehr",
)
VEHICLE_NOT_REGISTERED = define(
    "refusal.vehicle_not_registered",
    en="vehicle {manufacturer}/{serial} could not be registered in site {site}",
    de="Fahrzeug {manufacturer}/{serial} konnte im Standort {site} nicht registriert werden",
)
SITE_FULL = define(
    "refusal.site_full",
    en=(
        "site {site} has reached {limit} vehicles, the most that register themselves"
        " (FLEETSCOPE_MAX_VEHICLES_PER_SITE): vehicle {manufacturer}/{serial} is not registered"
    ),
    de=(
        "Standort {site} hat {limit} Fahrzeuge erreicht, mehr registrieren sich nicht selbst"
        " (FLEETSCOPE_MAX_VEHICLES_PER_SITE): Fahrzeug {manufacturer}/{serial} wird nicht"
        " registriert"
    ),
)
UNDECODABLE = define(
    "refusal.undecodable",
    en="the message could not be decoded: {error}",
    de="die Nachricht ließ sich nicht dekodieren: {error}",
)
VEHICLE_NOT_STORABLE = define(
    "refusal.vehicle_not_storable",
    en="the app store cannot look up or register the message's vehicle: {error}",
    de="der App-Speicher kann das Fahrzeug der Nachricht nicht nachschlagen oder anlegen: {error}",
)
NOT_STORABLE = define(
    "refusal.not_storable",
    en="the fact store cannot store the message: {error}",
    de="der Faktenspeicher kann die Nachricht nicht speichern: {error}",
)
REFUSED = define("refusal.refused", en="rejected", de="abgelehnt")
ALREADY_STORED = define(
    "refusal.already_stored",
    en="already stored (a duplicate): nothing was added",
    de="bereits gespeichert (ein Duplikat): nichts wurde hinzugefügt",
)
