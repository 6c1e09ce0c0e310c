"""Every emitted payload validates against the official VDA 5050 schema of its version.

2.0, 2.1 and 3.0 use the upstream schema files with the known upstream defects repaired as
``fleetscope.vda5050.schemas`` repairs them (see its schemas/README.md).
1.1 published no schema: its payloads are
checked against the 2.0 schema spelled as the 1.1 text (section 6.10.6) spells it: lower-case
``actionStatus``/``errorLevel``/``eStop`` values and ``informations`` instead of
``information``.
"""

import copy
import re
from collections import Counter
from functools import cache
from typing import Any

import fastjsonschema
import orjson

from fleetscope.vda5050.model import MessageKind
from fleetscope.vda5050.schemas import load_schema

from .conftest import Run

_HEADER = re.compile(rb'\{"headerId":\d+,"timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"')


def _official(version: str, kind: str) -> dict[str, Any]:
    return copy.deepcopy(load_schema(folder=version, kind=MessageKind(kind)))


def _as_version_1_1(schema: dict[str, Any]) -> dict[str, Any]:
    schema = copy.deepcopy(schema)
    properties = schema["properties"]
    status = properties["actionStates"]["items"]["properties"]["actionStatus"]
    status["enum"] = [value.lower() for value in status["enum"]]
    level = properties["errors"]["items"]["properties"]["errorLevel"]
    level["enum"] = [value.lower() for value in level["enum"]]
    properties["safetyState"]["properties"]["eStop"]["enum"] = [
        "autoAck",
        "manual",
        "remote",
        "none",
    ]
    properties["informations"] = properties.pop("information")
    return schema


@cache
def _validator(version: str, kind: str) -> Any:
    if version == "1.1.0":
        schema = _official("2.0.0", kind)
        if kind == "state":
            schema = _as_version_1_1(schema)
    else:
        schema = _official(version, kind)
    # additionalProperties is not set upstream: forbid unknown top-level keys here so a
    # misspelt field (agvPosition in 3.0, information in 1.1) fails the test.
    schema["additionalProperties"] = False
    return fastjsonschema.compile(schema)


def test_every_payload_validates_against_its_version(stress_run: Run) -> None:
    seen: Counter[tuple[str, str]] = Counter()
    validated: set[bytes] = set()
    for _at, topic, payload in stress_run.messages:
        # Heartbeats repeat a body under a new header: check each header, each body once.
        header, body = payload.split(b',"version"', 1)
        assert _HEADER.fullmatch(header), header
        document = orjson.loads(payload)
        kind = topic.rsplit("/", 1)[1]
        if body not in validated:
            validated.add(body)
            _validator(document["version"], kind)(document)
        seen[(document["version"], kind)] += 1
    for version in ("1.1.0", "2.0.0", "2.1.0", "3.0.0"):
        assert seen[(version, "state")] > 100
        assert seen[(version, "connection")] >= 2
    assert seen[("2.0.0", "factsheet")] >= 1 and seen[("2.1.0", "factsheet")] >= 1


def test_topics_follow_the_vda5050_layout(stress_run: Run) -> None:
    majors = {"1.1.0": "v1", "2.0.0": "v2", "2.1.0": "v2", "3.0.0": "v3"}
    for _at, topic, payload in stress_run.messages[:2000]:
        document = orjson.loads(payload)
        interface, major, manufacturer, serial, kind = topic.split("/")
        assert (interface, manufacturer, serial) == (
            "uagv",
            "Fleetscope Sim",
            document["serialNumber"],
        )
        assert major == majors[document["version"]]
        assert kind in ("state", "connection", "factsheet")


def test_versions_spell_their_own_fields(stress_run: Run) -> None:
    spelled: dict[str, set[str]] = {}
    for _at, topic, payload in stress_run.messages:
        if topic.endswith("/state"):
            document = orjson.loads(payload)
            spelled.setdefault(document["version"], set()).update(document)
    assert {"informations", "agvPosition", "batteryState"} <= spelled["1.1.0"]
    assert {"mobileRobotPosition", "powerSupply", "instantActionStates"} <= spelled["3.0.0"]
    assert "agvPosition" not in spelled["3.0.0"]
    levels = {
        (document["version"], error["errorLevel"])
        for _at, topic, payload in stress_run.messages
        if topic.endswith("/state")
        for document in [orjson.loads(payload)]
        for error in document["errors"]
    }
    assert ("1.1.0", "warning") in levels and ("1.1.0", "fatal") in levels
    assert {("3.0.0", "URGENT"), ("3.0.0", "CRITICAL")} & levels
