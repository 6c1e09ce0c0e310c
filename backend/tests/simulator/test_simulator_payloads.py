"""Payload details: timestamps, heading limits, the NDJSON line format."""

import random
from datetime import UTC, datetime

import orjson

from fleetscope.simulator.payloads import StateEncoder, TimestampFormatter
from fleetscope.simulator.scenario import ProtocolVersion
from fleetscope.simulator.sinks import ndjson_line


def test_timestamps_are_iso_utc_with_milliseconds() -> None:
    formatter = TimestampFormatter()
    rng = random.Random(1)
    at = int(datetime(2026, 12, 31, 23, 50, tzinfo=UTC).timestamp() * 1000)
    for _ in range(5000):  # across minutes, hours, days and the year's end
        at += rng.randrange(0, 400_000)
        expected = datetime.fromtimestamp(at / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.")
        assert formatter(at) == f"{expected}{at % 1000:03d}Z"


class _Heading:
    driving = True
    speed = 1.4
    x = 1.23456
    y = 2.0
    theta = 3.14159265358979  # pi: rounded it would exceed the schema's maximum


def test_heading_stays_within_the_schema_range() -> None:
    encoder = StateEncoder(
        version=ProtocolVersion.V3_0, manufacturer="M", serial_number="S", map_id="hall-1"
    )
    members = orjson.loads(b"{" + encoder._motion(_Heading()) + b"}")  # type: ignore[arg-type]
    assert members["mobileRobotPosition"]["theta"] <= 3.14159265359
    assert members["mobileRobotPosition"]["x"] == 1.235
    assert members["velocity"]["vx"] == 1.4


def test_ndjson_line_embeds_the_payload_unchanged() -> None:
    line = ndjson_line("uagv/v2/M/S/state", b'{"headerId":1}')
    assert line.endswith(b"\n")
    assert orjson.loads(line) == {"topic": "uagv/v2/M/S/state", "payload": {"headerId": 1}}
