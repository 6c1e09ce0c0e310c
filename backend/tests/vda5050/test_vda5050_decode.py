"""decode(topic, payload): every supported version and every failure reason."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from fleetscope.vda5050.decode import decode
from fleetscope.vda5050.limits import DecodeLimits
from fleetscope.vda5050.model import (
    ActionStatus,
    ConnectionMessage,
    ConnectionState,
    DecodeError,
    ErrorLevel,
    ErrorReference,
    FactsheetMessage,
    OperatingMode,
    StateMessage,
)

PAYLOADS = Path(__file__).parent / "payloads"


def payload(name: str) -> bytes:
    return (PAYLOADS / name).read_bytes()


def edited(name: str, **changes: Any) -> bytes:
    document = json.loads(payload(name))
    document.update(changes)
    return json.dumps(document).encode()


def factsheet_with(**specification: Any) -> bytes:
    document = json.loads(payload("factsheet_2.0.json"))
    document["typeSpecification"].update(specification)
    return json.dumps(document).encode()


def state(topic: str, data: bytes, **options: Any) -> StateMessage:
    message = decode(topic, data, **options)
    assert isinstance(message, StateMessage)
    return message


def test_1_1_state_lower_case_enums_and_informations() -> None:
    message = state("uagv/v1/acme/legacy-01/state", payload("state_1.1.json"))
    assert message.header.version == "1.1.0"
    assert message.header.major_version == "v1"
    assert message.header.timestamp == datetime(2026, 3, 2, 8, 15, 2, 120000, tzinfo=UTC)
    assert [action.status for action in message.action_states] == [
        ActionStatus.FINISHED,
        ActionStatus.WAITING,
    ]
    assert message.errors[0].level is ErrorLevel.WARNING
    assert message.errors[0].references == (ErrorReference("battery", "main"),)
    assert message.e_stop == "AUTOACK"
    assert message.velocity == pytest.approx(1.0)
    assert message.loads == 0
    assert message.battery is not None and message.battery.reach == 3000


def test_2_0_state_fields() -> None:
    message = state("uagv/v2/acme/agv-02/state", payload("state_2.0.json"))
    assert message.header.header_id == 88
    assert message.header.serial_number == "agv-02"
    assert message.order_id == "TRANSPORT_A-000123"
    assert [(node.node_id, node.sequence_id) for node in message.node_states] == [("s2", 2)]
    assert [(edge.edge_id, edge.sequence_id) for edge in message.edge_states] == [("s1-s2", 1)]
    assert message.action_states[1].status is ActionStatus.PAUSED
    assert message.action_states[0].description == "pick at s1"
    assert message.operating_mode is OperatingMode.SEMIAUTOMATIC
    assert message.position is not None and message.position.map_id == "hall"
    assert message.battery is not None and message.battery.charge == 88
    assert message.loads == 1
    assert message.driving and not message.paused


def test_2_1_state_converts_offsets_to_utc() -> None:
    message = state("uagv/v2/acme/agv-21/state", payload("state_2.1.json"))
    assert message.header.timestamp == datetime(2026, 3, 2, 8, 15, 2, 500000, tzinfo=UTC)
    assert message.header.timestamp.tzinfo is UTC
    assert message.errors[0].level.stops_vehicle
    assert message.operating_mode.is_manual
    assert message.position is not None and not message.position.initialized
    assert message.battery is not None and message.battery.charging
    assert message.battery.health == 97.5


def test_3_0_state_renames_levels_modes_and_instant_actions() -> None:
    message = state("uagv/v3/acme/amr-30/state", payload("state_3.0.json"))
    assert message.position is not None
    assert (message.position.x, message.position.y) == (20.0, 5.0)
    assert message.battery is not None
    assert (message.battery.charge, message.battery.reach) == (55.5, 1200)
    assert [error.level for error in message.errors] == [ErrorLevel.CRITICAL, ErrorLevel.URGENT]
    assert message.errors[0].level.stops_vehicle and not message.errors[1].level.stops_vehicle
    assert message.operating_mode is OperatingMode.TEACHIN
    assert message.action_states[0].status is ActionStatus.RETRIABLE
    assert message.action_states[0].result == "blocked"
    assert message.instant_action_states[0].action_type == "startPause"
    assert message.loads == 2
    assert message.paused


@pytest.mark.parametrize(
    ("name", "topic"),
    [
        ("state_2.0.json", "uagv/v2/acme/agv-02/state"),
        ("state_2.1.json", "uagv/v2/acme/agv-21/state"),
        ("state_3.0.json", "uagv/v3/acme/amr-30/state"),
    ],
)
def test_full_schema_validation_accepts_the_real_payloads(name: str, topic: str) -> None:
    assert decode(topic, payload(name), validate_schema=True) == decode(topic, payload(name))


def test_patch_versions_are_accepted() -> None:
    message = state("uagv/v2/acme/agv-02/state", edited("state_2.0.json", version="2.0.3"))
    assert message.header.version == "2.0.3"


@pytest.mark.parametrize(
    ("version", "topic", "raw", "expected"),
    [
        ("1.1.0", "v1", "connectionBroken", ConnectionState.CONNECTIONBROKEN),
        ("2.0.0", "v2", "CONNECTIONBROKEN", ConnectionState.CONNECTIONBROKEN),
        ("2.1.0", "v2", "OFFLINE", ConnectionState.OFFLINE),
        ("3.0.0", "v3", "CONNECTION_BROKEN", ConnectionState.CONNECTIONBROKEN),
        ("3.0.0", "v3", "HIBERNATING", ConnectionState.HIBERNATING),
    ],
)
def test_connection_states_of_every_version(
    version: str, topic: str, raw: str, expected: ConnectionState
) -> None:
    data = json.dumps(
        {
            "headerId": 3,
            "timestamp": "2026-03-02T08:00:00Z",
            "version": version,
            "manufacturer": "acme",
            "serialNumber": "agv-1",
            "connectionState": raw,
        }
    ).encode()
    message = decode(f"uagv/{topic}/acme/agv-1/connection", data, validate_schema=True)
    assert isinstance(message, ConnectionMessage)
    assert message.connection_state is expected


def test_factsheets_of_2_0_and_3_0() -> None:
    old = decode("uagv/v2/acme/agv-02/factsheet", payload("factsheet_2.0.json"))
    new = decode("uagv/v3/acme/amr-30/factsheet", payload("factsheet_3.0.json"))
    assert isinstance(old, FactsheetMessage) and isinstance(new, FactsheetMessage)
    assert (old.series_name, old.agv_class, old.max_speed) == ("Carrier 2000", "CARRIER", 1.8)
    assert (new.series_name, new.agv_class, new.max_speed) == ("Picker 3", "CARRIER", 2.2)


def test_factsheet_without_timestamp_takes_the_receive_time() -> None:
    document = json.loads(payload("factsheet_2.0.json"))
    del document["timestamp"], document["headerId"]
    document["version"] = "2.1.0"
    received = datetime(2026, 3, 2, 6, 0, 5, tzinfo=UTC)
    data = json.dumps(document).encode()
    message = decode("uagv/v2/acme/agv-02/factsheet", data, received_at=received)
    assert message.header.timestamp == received
    with pytest.raises(DecodeError, match="no timestamp"):
        decode("uagv/v2/acme/agv-02/factsheet", data)


# --- failures: the reason is the dead-letter text ------------------------------------------


def reason(topic: str, data: bytes, **options: Any) -> str:
    with pytest.raises(DecodeError) as caught:
        decode(topic, data, **options)
    return str(caught.value)


def test_invalid_json() -> None:
    assert reason("uagv/v2/acme/agv-02/state", b'{"headerId": 1,').startswith("invalid JSON")
    assert reason("uagv/v2/acme/agv-02/state", b"\xff\xfe").startswith("invalid JSON")


@pytest.mark.parametrize("validate_schema", [False, True])
def test_invalid_utf_8_inside_strings(validate_schema: bool) -> None:
    for broken in (b'"\x99"', b'"\\ud800"'):
        data = payload("state_2.0.json").replace(b'"s2"', broken, 1)
        text = reason("uagv/v2/acme/agv-02/state", data, validate_schema=validate_schema)
        assert text.startswith("invalid JSON")


@pytest.mark.parametrize(
    ("topic", "expected"),
    [
        ("uagv/v2/acme/state", "is not {interface}/{major}/{manufacturer}/{serial}"),
        ("uagv/v2/acme/agv-02/extra/state", "is not {interface}/{major}"),
        ("uagv/v2//agv-02/state", "is not {interface}/{major}"),
        ("uagv/v2/acme/agv-02/order", "not in state, connection or factsheet"),
        ("uagv/2/acme/agv-02/state", "expected v1, v2 or v3"),
        ("uagv/v4/acme/agv-02/state", "unsupported VDA 5050 major version 'v4'"),
    ],
)
def test_bad_topics(topic: str, expected: str) -> None:
    assert expected in reason(topic, payload("state_2.0.json"))


def test_topic_and_payload_must_name_the_same_vehicle() -> None:
    assert "manufacturer 'acme' does not match topic manufacturer 'other'" in reason(
        "uagv/v2/other/agv-02/state", payload("state_2.0.json")
    )
    assert "serialNumber 'agv-02' does not match topic serial number 'agv-99'" in reason(
        "uagv/v2/acme/agv-99/state", payload("state_2.0.json")
    )


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("2.2.0", "unsupported VDA 5050 version '2.2.0'"),
        ("1.0.0", "unsupported VDA 5050 version '1.0.0'"),
        ("two", "version 'two' is not [major].[minor].[patch]"),
        ("3.0.0", "payload version '3.0.0' does not match topic major version 'v2'"),
    ],
)
def test_unsupported_or_mismatched_versions(version: str, expected: str) -> None:
    data = edited("state_2.0.json", version=version)
    assert expected in reason("uagv/v2/acme/agv-02/state", data)


@pytest.mark.parametrize(
    ("topic", "data", "german"),
    [
        (
            "uagv/v2/acme/agv-02/order",
            payload("state_2.0.json"),
            "Topic 'uagv/v2/acme/agv-02/order' endet auf 'order', nicht auf state, connection "
            "oder factsheet",
        ),
        (
            "uagv/v2/acme/agv-99/state",
            payload("state_2.0.json"),
            "serialNumber 'agv-02' der Nachricht passt nicht zur Seriennummer 'agv-99' des Topics",
        ),
        (
            "uagv/v2/acme/agv-02/state",
            edited("state_2.0.json", version="2.2.0"),
            "nicht unterstützte VDA-5050-Version '2.2.0' (unterstützt: 1.1, 2.0, 2.1, 3.0)",
        ),
        (
            "uagv/v2/acme/agv-02/state",
            b"{oops",
            "ungültiges JSON: JSON fehlerhaft: Schlüssel eines Objekts müssen Texte sein (Byte 1)",
        ),
        ("uagv/v2/acme/agv-02/state", b'{"headerId": 1,', "ungültiges JSON: die Daten enden"),
        (
            "uagv/v2/acme/agv-02/state",
            edited("state_2.0.json", headerId="88"),
            "Verstoß gegen das Schema: `int` erwartet, `str` erhalten (bei `$.headerId`)",
        ),
        (
            "uagv/v2/acme/agv-02/state",
            edited("state_2.0.json", timestamp="yesterday"),
            "Verstoß gegen das Schema: ungültiger RFC-3339-Wert für datetime (bei `$.timestamp`)",
        ),
        (
            "uagv/v2/acme/agv-02/factsheet",
            factsheet_with(agvClass="SPACESHIP"),
            "Verstoß gegen das Schema: $.typeSpecification.agvClass muss einer der Werte "
            "['FORKLIFT', 'CONVEYOR', 'TUGGER', 'CARRIER'] sein",
        ),
        (
            "uagv/v2/acme/agv#02/state",
            payload("state_2.0.json"),
            "Topic 'uagv/v2/acme/agv#02/state' enthält '#' (U+0023), das MQTT in einem "
            "Topic-Namen nicht erlaubt",
        ),
    ],
)
def test_a_reason_is_also_in_german(topic: str, data: bytes, german: str) -> None:
    """The dead letter keeps each reason in every language; English stays ``str(error)``."""
    with pytest.raises(DecodeError) as caught:
        decode(topic, data)
    assert caught.value.reason.render("de").startswith(german)
    assert str(caught.value) == caught.value.reason.render("en") != caught.value.reason.render("de")


def test_unsupported_version_explains_better_than_the_schema() -> None:
    document = json.loads(payload("state_2.0.json"))
    document["version"] = "4.0.0"
    del document["batteryState"]
    data = json.dumps(document).encode()
    assert "unsupported VDA 5050 version '4.0.0'" in reason("uagv/v2/acme/agv-02/state", data)


def test_1_1_has_no_factsheet() -> None:
    assert "1.1 has no factsheet" in reason("uagv/v1/acme/agv-02/factsheet", b"{}")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"headerId": "88"}, "Expected `int`, got `str` - at `$.headerId`"),
        ({"timestamp": "yesterday"}, "at `$.timestamp`"),
        ({"driving": None}, "at `$.driving`"),
        ({"operatingMode": "AUTO"}, "$.operatingMode has invalid value 'AUTO'"),
        ({"nodeStates": [{"nodeId": "n1", "sequenceId": 1}]}, "`released` - at `$.nodeStates[0]`"),
        (
            {"actionStates": [{"actionId": "a", "actionStatus": "waiting"}]},
            "$.actionStates[0].actionStatus has invalid value 'waiting'",
        ),
        (
            {"errors": [{"errorType": "x", "errorLevel": "CRITICAL"}]},
            "$.errors[0].errorLevel has invalid value 'CRITICAL'",
        ),
        ({"safetyState": {"eStop": "NONE"}}, "`fieldViolation` - at `$.safetyState`"),
    ],
)
def test_schema_violations_name_the_field(change: dict[str, Any], expected: str) -> None:
    text = reason("uagv/v2/acme/agv-02/state", edited("state_2.0.json", **change))
    assert text.startswith("schema violation")
    assert expected in text


def test_missing_required_field_is_named() -> None:
    document = json.loads(payload("state_3.0.json"))
    del document["instantActionStates"]
    text = reason("uagv/v3/acme/amr-30/state", json.dumps(document).encode())
    assert "missing required field `instantActionStates`" in text


def test_3_0_names_are_required_in_3_0() -> None:
    # A 2.x payload under a v3 topic and version lacks 3.0's renamed fields.
    data = edited("state_2.0.json", version="3.0.0", serialNumber="agv-02")
    text = reason("uagv/v3/acme/agv-02/state", data)
    assert "schema violation" in text and "missing required field" in text


def test_not_an_object() -> None:
    assert reason("uagv/v2/acme/agv-02/state", b"[1, 2]").startswith("schema violation")


def test_full_schema_validation_checks_what_typed_parsing_skips() -> None:
    # A trajectory is not read by the derivation, so only the schema checks it.
    document = json.loads(payload("state_2.0.json"))
    document["edgeStates"][0]["trajectory"]["controlPoints"] = [{"x": 1}]
    data = json.dumps(document).encode()
    assert isinstance(decode("uagv/v2/acme/agv-02/state", data), StateMessage)
    text = reason("uagv/v2/acme/agv-02/state", data, validate_schema=True)
    assert text.startswith("schema violation: $.edgeStates[0].trajectory.controlPoints[0]")


def test_factsheets_are_always_schema_validated() -> None:
    text = reason("uagv/v2/acme/agv-02/factsheet", factsheet_with(agvClass="SPACESHIP"))
    assert "schema violation: $.typeSpecification.agvClass" in text


# --- ranges: what the protocol allows and the fact store can hold -------------------------

STATE_2 = "uagv/v2/acme/agv-02/state"  # state_2.0.json: sent 2026-03-02T08:15:02.123Z
STATE_3 = "uagv/v3/acme/amr-30/state"
RECEIVED = datetime(2026, 3, 2, 8, 15, 3, tzinfo=UTC)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"headerId": 2**32}, "Expected `int` <= 4294967295 - at `$.headerId`"),
        ({"headerId": 2**63}, "Expected `int` <= 4294967295 - at `$.headerId`"),
        ({"headerId": -1}, "Expected `int` >= 0 - at `$.headerId`"),
        ({"orderUpdateId": 2**40}, "Expected `int` <= 4294967295 - at `$.orderUpdateId`"),
        (
            {"nodeStates": [{"nodeId": "n", "sequenceId": 2**32, "released": True}]},
            "Expected `int` <= 4294967295 - at `$.nodeStates[0].sequenceId`",
        ),
        (
            {"batteryState": {"batteryCharge": 250, "charging": False}},
            "Expected `float` <= 100.0 - at `$.batteryState.batteryCharge`",
        ),
        (
            {"batteryState": {"batteryCharge": -50, "charging": False}},
            "Expected `float` >= 0.0 - at `$.batteryState.batteryCharge`",
        ),
        (
            {"batteryState": {"batteryCharge": 50, "charging": False, "batteryHealth": 101}},
            "Expected `float` <= 100.0 - at `$.batteryState.batteryHealth`",
        ),
        (
            {"batteryState": {"batteryCharge": 50, "charging": False, "reach": -1}},
            "Expected `float` >= 0.0 - at `$.batteryState.reach`",
        ),
        (
            {
                "agvPosition": {
                    "x": 1e12,
                    "y": 0,
                    "theta": 0,
                    "mapId": "m",
                    "positionInitialized": True,
                }
            },
            "Expected `float` <= 1000000000.0 - at `$.agvPosition.x`",
        ),
        ({"orderId": "o" * 257}, "Expected `str` of length <= 256 - at `$.orderId`"),
        ({"operatingMode": "A" * 10_000}, "Expected `str` of length <= 64 - at `$.operatingMode`"),
        (
            {
                "errors": [
                    {"errorType": "x", "errorLevel": "WARNING", "errorDescription": "d" * 5000}
                ]
            },
            "Expected `str` of length <= 4096 - at `$.errors[0].errorDescription`",
        ),
        ({"manufacturer": "m" * 129}, "Expected `str` of length <= 128 - at `$.manufacturer`"),
    ],
)
def test_values_out_of_range_are_refused_naming_the_field(
    change: dict[str, Any], expected: str
) -> None:
    text = reason(STATE_2, edited("state_2.0.json", **change))
    assert text == f"schema violation: {expected}"


def test_3_0_state_of_charge_is_a_percentage() -> None:
    document = json.loads(payload("state_3.0.json"))
    document["powerSupply"]["stateOfCharge"] = 100.5
    text = reason(STATE_3, json.dumps(document).encode())
    assert text == "schema violation: Expected `float` <= 100.0 - at `$.powerSupply.stateOfCharge`"


def test_the_largest_values_in_range_are_accepted() -> None:
    data = edited(
        "state_2.0.json",
        headerId=2**32 - 1,
        orderUpdateId=2**32 - 1,
        batteryState={"batteryCharge": 100, "charging": True, "batteryHealth": 0},
        manufacturer="m" * 128,
    )
    message = state(f"uagv/v2/{'m' * 128}/agv-02/state", data)
    assert message.header.header_id == 2**32 - 1
    assert message.battery is not None and message.battery.charge == 100


def test_serial_numbers_are_bounded_in_the_topic_and_the_payload() -> None:
    serial = "s" * 10_000
    data = edited("state_2.0.json", serialNumber=serial)
    assert reason(f"uagv/v2/acme/{serial}/state", data) == (
        "topic has 10019 characters, at most 512 allowed"
    )
    serial = "s" * 129
    data = edited("state_2.0.json", serialNumber=serial)
    assert reason(f"uagv/v2/acme/{serial}/state", data) == (
        "schema violation: Expected `str` of length <= 128 - at `$.serialNumber`"
    )


@pytest.mark.parametrize(
    ("serial", "shown"),
    [
        ("agv\x0002", "'\\x00' (U+0000)"),
        ("agv\t02", "'\\t' (U+0009)"),
        ("agv\x9b02", "'\\x9b' (U+009B)"),
        ("agv+02", "'+' (U+002B)"),
        ("agv#02", "'#' (U+0023)"),
    ],
)
def test_characters_mqtt_forbids_in_topic_names_are_refused(serial: str, shown: str) -> None:
    # Only an HTTP batch or a file can carry them (no broker does); PostgreSQL, the app store
    # that keeps the serial number, cannot hold U+0000.
    topic = f"uagv/v2/acme/{serial}/state"
    data = edited("state_2.0.json", serialNumber=serial)
    assert reason(topic, data) == (
        f"topic {topic!r} holds {shown}, which MQTT does not allow in a topic name"
    )


def test_strings_the_app_store_keeps_fit_it() -> None:
    """The protocol version and the factsheet's series name (the vehicle's model) fit the app
    store's columns and hold no control character."""
    topic = "uagv/v2/acme/agv-02/state"
    assert state(topic, edited("state_2.0.json", version="2.0.0-rc.1+b.2222222")).header
    assert reason(topic, edited("state_2.0.json", version="2.0.0-rc.1+b.22222222")) == (
        "schema violation: Expected `str` of length <= 20 - at `$.version`"
    )
    assert reason(topic, edited("state_2.0.json", version="2.0.0\x00")) == (
        "version '2.0.0\\x00' is not [major].[minor].[patch]"
    )
    sheet = json.loads(payload("factsheet_2.0.json"))
    factsheet = "uagv/v2/acme/agv-02/factsheet"
    for name, expected in [
        ("S" * 201, "schema violation: Expected `str` of length <= 200 - at "),
        ("Carrier\x002000", "$.typeSpecification.seriesName holds a control character"),
    ]:
        sheet["typeSpecification"]["seriesName"] = name
        assert reason(factsheet, json.dumps(sheet).encode()).startswith(expected)
    sheet["typeSpecification"]["seriesName"] = "Träger 2000 \u00b7 S" + "x" * 185
    message = decode(factsheet, json.dumps(sheet).encode())
    assert isinstance(message, FactsheetMessage) and len(message.series_name) == 200


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        (
            "9999-12-31T23:59:59.000Z",
            "$.timestamp 9999-12-31T23:59:59Z is more than 300 s after the receive time "
            "2026-03-02T08:15:03Z (clock skew)",
        ),
        (
            "0001-01-01T00:00:00.000Z",
            "$.timestamp 0001-01-01T00:00:00Z is before the earliest accepted instant "
            "2000-01-01T00:00:00Z",
        ),
        (
            "1970-01-01T00:00:00Z",
            "$.timestamp 1970-01-01T00:00:00Z is before the earliest accepted instant "
            "2000-01-01T00:00:00Z",
        ),
        (
            "9999-12-31T23:00:00-05:00",
            "$.timestamp 9999-12-31T23:00:00-05:00 is outside the years 1 to 9999 in UTC",
        ),
        (
            "0001-01-01T00:30:00+01:00",
            "$.timestamp 0001-01-01T00:30:00+01:00 is outside the years 1 to 9999 in UTC",
        ),
    ],
)
def test_header_timestamps_outside_the_limits_are_refused(sent: str, expected: str) -> None:
    data = edited("state_2.0.json", timestamp=sent)
    assert reason(STATE_2, data, received_at=RECEIVED) == expected


def test_timestamp_limits_are_configurable() -> None:
    data = edited("state_2.0.json", timestamp="2026-03-02T08:20:03.000Z")  # 300 s after
    assert state(STATE_2, data, received_at=RECEIVED).header.timestamp == RECEIVED + timedelta(
        seconds=300
    )
    strict = DecodeLimits(earliest=datetime(2026, 3, 2, tzinfo=UTC), allowed_skew=timedelta(0))
    assert "more than 0 s after the receive time" in reason(
        STATE_2, data, received_at=RECEIVED, limits=strict
    )
    early = edited("state_2.0.json", timestamp="2026-03-01T23:59:59Z")
    assert "before the earliest accepted instant 2026-03-02T00:00:00Z" in reason(
        STATE_2, early, received_at=RECEIVED, limits=strict
    )
    # Without a receive time only the earliest instant applies; rebuild replays with no
    # bound after the receive time and none before 1970 but the store's.
    assert state(STATE_2, data).header.timestamp == RECEIVED + timedelta(seconds=300)
    replay = strict.for_replay()
    assert state(STATE_2, early, received_at=RECEIVED, limits=replay).header.header_id == 88
    with pytest.raises(ValueError, match="from 1970 on"):
        DecodeLimits(earliest=datetime(1969, 12, 31, tzinfo=UTC))


def test_a_payload_over_the_size_limit_is_refused_before_it_is_parsed() -> None:
    # A state padded with a long (valid) error description, and junk of the same size:
    # the size is checked first, so both get the same reason.
    padded = edited(
        "state_2.0.json",
        errors=[{"errorType": "x", "errorLevel": "WARNING", "errorDescription": "y" * 2_000}],
    )
    small = DecodeLimits(max_payload_bytes=len(padded) - 1)
    expected = (
        f"message has {len(padded)} bytes, at most {len(padded) - 1} allowed"
        " (FLEETSCOPE_MAX_MESSAGE_BYTES)"
    )
    assert reason(STATE_2, padded, limits=small) == expected
    assert reason(STATE_2, b"x" * len(padded), limits=small) == expected
    # At the limit it is decoded; rebuild replays what was accepted whatever today's limit.
    exact = DecodeLimits(max_payload_bytes=len(padded))
    assert state(STATE_2, padded, limits=exact).header.header_id == 88
    assert state(STATE_2, padded, limits=small.for_replay()).header.header_id == 88
    with pytest.raises(ValueError, match="must be positive"):
        DecodeLimits(max_payload_bytes=0)
