"""Official VDA 5050 JSON schemas, repaired in memory and compiled once per (version, kind).

The files in ``schemas/`` are the unchanged upstream copies; ``schemas/README.md`` lists the
known defects and the repairs done here. Compilation with fastjsonschema takes a few hundred
milliseconds per schema, so it happens lazily on first use and is cached for the process.
"""

import json
import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

import fastjsonschema

from fleetscope.i18n.refusals import schema_violation
from fleetscope.vda5050.model import DecodeError, MessageKind

# (major, minor) -> folder of the schema files; 1.1 published none.
SCHEMA_FOLDERS: dict[tuple[int, int], str] = {
    (2, 0): "2.0.0",
    (2, 1): "2.1.0",
    (3, 0): "3.0.0",
}

_TRAILING_COMMA = re.compile(r",(\s*[\]}])")
_DRAFT_07 = "http://json-schema.org/draft-07/schema#"

Validator = Callable[[Any], Any]


def has_schema(*, major: int, minor: int) -> bool:
    return (major, minor) in SCHEMA_FOLDERS


@cache
def load_schema(*, folder: str, kind: MessageKind) -> dict[str, Any]:
    """The schema of one version and kind, parsed and repaired (see schemas/README.md)."""
    text = (
        resources.files("fleetscope.vda5050")
        .joinpath("schemas", folder, f"{kind.value}.schema.json")
        .read_text(encoding="utf-8")
    )
    # 2.0 state and 3.0 factsheet carry trailing commas; no description contains ", }".
    schema: dict[str, Any] = json.loads(_TRAILING_COMMA.sub(r"\1", text))
    _repair(schema, folder=folder, kind=kind)
    # Declared draft 2020-12, but only draft-07 keywords are used.
    schema["$schema"] = _DRAFT_07
    return schema


def _repair(schema: dict[str, Any], *, folder: str, kind: MessageKind) -> None:
    if kind is MessageKind.STATE and folder == "2.1.0":
        status = schema["properties"]["actionStates"]["items"]["properties"]["actionStatus"]
        if "PAUSED" not in status["enum"]:
            status["enum"].insert(status["enum"].index("FINISHED"), "PAUSED")
    if kind is MessageKind.FACTSHEET and folder == "3.0.0":
        _strip_keys(schema)
        type_spec = schema["properties"]["typeSpecification"]
        type_spec["required"] = [
            "mobileRobotKinematics" if name == "mobileRobotKinematic" else name
            for name in type_spec["required"]
        ]
        _booleans_declared_as_strings(schema, names=("pauseAllowed", "cancelAllowed"))


def _booleans_declared_as_strings(node: Any, *, names: tuple[str, ...]) -> None:
    """3.0 factsheets declare ``pauseAllowed``/``cancelAllowed`` as strings; the text: booleans."""
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            for name in names:
                declared = properties.get(name)
                if isinstance(declared, dict) and declared.get("type") == "string":
                    declared["type"] = "boolean"
        for value in node.values():
            _booleans_declared_as_strings(value, names=names)
    elif isinstance(node, list):
        for value in node:
            _booleans_declared_as_strings(value, names=names)


def _strip_keys(node: Any) -> None:
    """Removes stray whitespace from property names (3.0 factsheet: "batteryCharging ")."""
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            for key in [key for key in properties if key != key.strip()]:
                properties[key.strip()] = properties.pop(key)
        for value in node.values():
            _strip_keys(value)
    elif isinstance(node, list):
        for value in node:
            _strip_keys(value)


@cache
def validator(*, folder: str, kind: MessageKind) -> Validator:
    compiled: Validator = fastjsonschema.compile(load_schema(folder=folder, kind=kind))
    return compiled


def validate(document: Any, *, major: int, minor: int, kind: MessageKind) -> None:
    """Raises DecodeError naming the offending field if ``document`` violates the schema."""
    folder = SCHEMA_FOLDERS.get((major, minor))
    if folder is None:
        return
    try:
        validator(folder=folder, kind=kind)(document)
    except fastjsonschema.JsonSchemaValueException as error:
        # fastjsonschema names the field "data.nodeStates[1]"; say "$.nodeStates[1]" like msgspec.
        name = error.name or "data"
        message = error.message.replace(name, "$" + name.removeprefix("data"), 1)
        raise DecodeError(schema_violation(message)) from None
