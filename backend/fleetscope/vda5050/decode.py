"""``decode(topic, payload)``: one VDA 5050 message of any supported version -> ``Message``.

Pure: no I/O, no clock. Every failure raises ``DecodeError`` whose ``reason`` is the dead
letter's, in English and German (``fleetscope.i18n.refusals``): invalid JSON, bad topic,
unsupported version, schema violation naming the field, a header timestamp outside
``DecodeLimits``, topic and payload disagreeing about the vehicle.

Validation policy (measured with benchmarks/bench_decode_derive.py, 1.6 KB 2.0 states, CPU
time of one process on the 2-core dev machine): typed msgspec parsing enforces the schemas'
required fields, JSON types and enumerations of everything the derivation reads, at 70,000
to 95,000 messages/s including normalization; with fastjsonschema and the official schema
on top, decode manages 9,000 to 19,000/s, too slow for the 30,000/s decode + derive
target. States and connections therefore use typed parsing by default and full schema
validation on request (``validate_schema=True``); factsheets, a few per connect, are always
validated against the schema. 1.1 has no schema files, so 1.1 is checked by typed parsing
only.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

import msgspec
import orjson

from fleetscope.i18n import refusals
from fleetscope.vda5050 import normalize, schemas
from fleetscope.vda5050.dialects import DIALECT_1, DIALECT_2, DIALECT_3, Dialect
from fleetscope.vda5050.limits import (
    CONTROL_CHARACTER,
    DEFAULT_LIMITS,
    TOPIC_MAX,
    VERSION_MAX,
    DecodeLimits,
)
from fleetscope.vda5050.model import DecodeError, Header, Message, MessageKind
from fleetscope.vda5050.topic import Topic, parse_topic
from fleetscope.vda5050.wire import (
    WireConnection,
    WireFactsheet,
    WireHeaderProbe,
    WireStateV2,
    WireStateV3,
)

SUPPORTED_VERSIONS = ((1, 1), (2, 0), (2, 1), (3, 0))


@dataclass(frozen=True, slots=True)
class _Family:
    """Versions sharing one wire layout: 1.1, 2.x, 3.0."""

    dialect: Dialect
    state: msgspec.json.Decoder[Any]
    connection: msgspec.json.Decoder[WireConnection]
    factsheet: msgspec.json.Decoder[WireFactsheet] | None


_FAMILIES = {
    1: _Family(
        DIALECT_1,
        msgspec.json.Decoder(WireStateV2),
        msgspec.json.Decoder(WireConnection),
        None,  # the factsheet topic came with 2.0
    ),
    2: _Family(
        DIALECT_2,
        msgspec.json.Decoder(WireStateV2),
        msgspec.json.Decoder(WireConnection),
        msgspec.json.Decoder(WireFactsheet),
    ),
    3: _Family(
        DIALECT_3,
        msgspec.json.Decoder(WireStateV3),
        msgspec.json.Decoder(WireConnection),
        msgspec.json.Decoder(WireFactsheet),
    ),
}
_PROBE = msgspec.json.Decoder(WireHeaderProbe)
_SUPPORTED_TEXT = "1.1, 2.0, 2.1, 3.0"
_PLANS_MAX = 4096  # topics remembered; forgotten wholesale beyond (a fleet has few)
_VERSIONS_MAX = 16  # payload version strings remembered per topic


@dataclass(slots=True)
class _Plan:
    """What decode works out once per topic: its parts, decoder and caches.

    ``recent`` holds the topic's previous state lists (``normalize.Recent``) and
    ``versions`` the payload versions already accepted on the topic: caches that change no
    result, so decode stays a pure function.
    """

    route: Topic
    family: _Family
    decoder: msgspec.json.Decoder[Any]
    recent: normalize.Recent
    versions: dict[str, tuple[int, int]]


_PLANS: dict[str, _Plan] = {}


def _plan(topic: str) -> _Plan:
    route = parse_topic(topic)
    family = _FAMILIES.get(route.major)
    if family is None:
        raise DecodeError(
            refusals.MAJOR_UNSUPPORTED(major=route.major_version, supported=_SUPPORTED_TEXT)
        )
    kind = route.kind
    decoder: msgspec.json.Decoder[Any] = (
        family.state if kind is MessageKind.STATE else family.connection
    )
    if kind is MessageKind.FACTSHEET:
        if family.factsheet is None:
            raise DecodeError(refusals.NO_FACTSHEET_IN_V1())
        decoder = family.factsheet
    if len(_PLANS) >= _PLANS_MAX:
        _PLANS.clear()
    plan = _PLANS[topic] = _Plan(route, family, decoder, normalize.Recent(), {})
    return plan


def decode(
    topic: str,
    payload: bytes,
    *,
    validate_schema: bool = False,
    received_at: datetime | None = None,
    limits: DecodeLimits = DEFAULT_LIMITS,
) -> Message:
    """Decodes and normalizes one message; raises DecodeError with the reason.

    ``received_at`` stands in for the timestamp of a factsheet without one (2.1 allows it)
    and bounds the header timestamp from above (``limits.allowed_skew``).
    """
    limit = limits.max_payload_bytes
    if limit is not None and len(payload) > limit:
        raise DecodeError(refusals.PAYLOAD_TOO_LARGE(size=len(payload), limit=limit))
    plan = _PLANS.get(topic)
    if plan is None:
        if len(topic) > TOPIC_MAX:  # before the topic is quoted in a reason or remembered
            raise DecodeError(refusals.TOPIC_TOO_LONG(length=len(topic), limit=TOPIC_MAX))
        plan = _plan(topic)
    route = plan.route
    try:
        wire = plan.decoder.decode(payload)
    except msgspec.ValidationError as error:
        raise _explain(payload, route, error) from None
    except (msgspec.DecodeError, UnicodeDecodeError) as error:
        raise DecodeError(refusals.invalid_json(str(error))) from None

    version = wire.version
    checked = plan.versions.get(version)
    if checked is None:
        checked = _version(version, route)
        if len(plan.versions) < _VERSIONS_MAX:
            plan.versions[version] = checked
    if wire.manufacturer != route.manufacturer:
        raise DecodeError(
            refusals.MANUFACTURER_NOT_TOPIC(payload=wire.manufacturer, topic=route.manufacturer)
        )
    if wire.serialNumber != route.serial_number:
        raise DecodeError(
            refusals.SERIAL_NOT_TOPIC(payload=wire.serialNumber, topic=route.serial_number)
        )
    kind = route.kind
    if validate_schema or kind is MessageKind.FACTSHEET:
        try:
            document = orjson.loads(payload)
        except orjson.JSONDecodeError as error:  # stricter than msgspec on lone surrogates
            raise DecodeError(refusals.invalid_json(str(error))) from None
        schemas.validate(document, major=checked[0], minor=checked[1], kind=kind)

    timestamp = wire.timestamp if wire.timestamp is not None else received_at
    if timestamp is None:
        raise DecodeError(refusals.FACTSHEET_WITHOUT_TIME())
    if timestamp.tzinfo is not UTC:
        timestamp = _utc(timestamp)
    if timestamp < limits.earliest or (
        received_at is not None
        and limits.allowed_skew is not None
        and timestamp > received_at + limits.allowed_skew
    ):
        raise _out_of_time(timestamp, received_at, limits)
    header = Header(
        route.interface,
        route.major_version,
        version,
        wire.manufacturer,
        wire.serialNumber,
        wire.headerId,
        timestamp,
    )
    family = plan.family
    if isinstance(wire, WireStateV2):
        return normalize.state_v2(wire, header, family.dialect, plan.recent)
    if isinstance(wire, WireStateV3):
        return normalize.state_v3(wire, header, family.dialect, plan.recent)
    if isinstance(wire, WireConnection):
        return normalize.connection(wire, header, family.dialect)
    return normalize.factsheet(wire, header)


def _utc(timestamp: datetime) -> datetime:
    if timestamp.tzinfo is UTC:
        return timestamp
    if timestamp.tzinfo is None:  # VDA 5050 timestamps are UTC; tolerate a missing "Z"
        return timestamp.replace(tzinfo=UTC)
    try:
        return timestamp.astimezone(UTC)
    except OverflowError:  # "9999-12-31T23:00:00-05:00" lies after the year 9999 in UTC
        raise DecodeError(
            refusals.TIMESTAMP_OUT_OF_RANGE(timestamp=timestamp.isoformat())
        ) from None


def _out_of_time(
    timestamp: datetime, received_at: datetime | None, limits: DecodeLimits
) -> DecodeError:
    if timestamp < limits.earliest:
        return DecodeError(
            refusals.TIMESTAMP_TOO_EARLY(timestamp=_iso(timestamp), earliest=_iso(limits.earliest))
        )
    skew = limits.allowed_skew or timedelta(0)
    return DecodeError(
        refusals.TIMESTAMP_AHEAD(
            timestamp=_iso(timestamp),
            skew=f"{skew.total_seconds():g}",
            received=_iso(received_at or timestamp),
        )
    )


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def _version(version: str, route: Topic) -> tuple[int, int]:
    major, minor = _parse_version(version)
    if (major, minor) not in SUPPORTED_VERSIONS:
        raise DecodeError(refusals.VERSION_UNSUPPORTED(version=version, supported=_SUPPORTED_TEXT))
    if major != route.major:
        raise DecodeError(
            refusals.VERSION_NOT_TOPIC_MAJOR(version=version, major=route.major_version)
        )
    return major, minor


@lru_cache(maxsize=64)
def _parse_version(version: str) -> tuple[int, int]:
    """ "2.0.0" -> (2, 0); patch and pre-release parts are ignored."""
    parts = version.split(".")
    # A control character would also be out of the app store's reach (PostgreSQL: U+0000).
    malformed = CONTROL_CHARACTER.search(version) is not None
    # ASCII digits only: "²".isdigit() is true, int("²") is not.
    numbers = parts[:2]
    if malformed or len(parts) < 2 or not all(p.isascii() and p.isdigit() for p in numbers):
        raise DecodeError(refusals.VERSION_FORMAT(version=version))
    return int(parts[0]), int(parts[1])


def _explain(payload: bytes, route: Topic, error: msgspec.ValidationError) -> DecodeError:
    """A typed decode failed: an unsupported version explains it better than the schema."""
    try:
        probe = _PROBE.decode(payload)
    except msgspec.ValidationError:  # not an object at all
        return DecodeError(refusals.schema_violation(str(error)))
    except (msgspec.DecodeError, UnicodeDecodeError) as invalid:
        return DecodeError(refusals.invalid_json(str(invalid)))
    if isinstance(probe.version, str) and len(probe.version) <= VERSION_MAX:
        try:
            _version(probe.version, route)
        except DecodeError as version_error:
            return version_error
    return DecodeError(refusals.schema_violation(str(error)))
