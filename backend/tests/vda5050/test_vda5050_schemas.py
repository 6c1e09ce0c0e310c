"""The bundled official schemas load, with the known upstream defects repaired."""

import json
from importlib import resources

import pytest

from fleetscope.vda5050 import schemas
from fleetscope.vda5050.model import MessageKind


@pytest.mark.parametrize("folder", sorted(schemas.SCHEMA_FOLDERS.values()))
@pytest.mark.parametrize("kind", list(MessageKind))
def test_every_schema_loads_and_compiles(folder: str, kind: MessageKind) -> None:
    schema = schemas.load_schema(folder=folder, kind=kind)
    assert schema["type"] == "object"
    assert "manufacturer" in schema["required"]
    assert callable(schemas.validator(folder=folder, kind=kind))


def test_the_bundled_files_are_the_unchanged_upstream_copies() -> None:
    # The defects are still in the files; the repair happens in memory.
    folder = resources.files("fleetscope.vda5050").joinpath("schemas")
    with pytest.raises(json.JSONDecodeError):
        json.loads(folder.joinpath("2.0.0", "state.schema.json").read_text())
    with pytest.raises(json.JSONDecodeError):
        json.loads(folder.joinpath("3.0.0", "factsheet.schema.json").read_text())
    assert folder.joinpath("LICENSE.txt").read_text().startswith("Copyright")


def test_2_1_state_schema_gets_paused() -> None:
    schema = schemas.load_schema(folder="2.1.0", kind=MessageKind.STATE)
    action = schema["properties"]["actionStates"]["items"]["properties"]["actionStatus"]
    assert "PAUSED" in action["enum"]


def test_3_0_factsheet_keys_and_required_names_are_repaired() -> None:
    schema = schemas.load_schema(folder="3.0.0", kind=MessageKind.FACTSHEET)
    text = json.dumps(schema)
    assert '"batteryCharging "' not in text and '"batteryCharging"' in text
    required = schema["properties"]["typeSpecification"]["required"]
    assert "mobileRobotKinematics" in required and "mobileRobotKinematic" not in required


def test_versions_without_schema_files() -> None:
    assert not schemas.has_schema(major=1, minor=1)
    assert schemas.has_schema(major=3, minor=0)
