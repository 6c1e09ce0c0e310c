"""The ``factsheet`` a simulated vehicle publishes when it comes online (2.0, 2.1, 3.0).

VDA 5050 1.1 has no factsheet topic. 3.0 renamed most fields (``mobileRobot...``,
``maximum...``/``minimum...``); both spellings are built here. The official 3.0 factsheet
schema types ``pauseAllowed``/``cancelAllowed`` as strings while the text says boolean;
``fleetscope.vda5050.schemas`` repairs that defect when it loads the schema.
"""

from typing import Any

import orjson

from fleetscope.simulator.scenario import ProtocolVersion, VehicleSpec

SERIES_NAME = "FS-Carrier 1200"
SERIES_DESCRIPTION = "Fleetscope simulated load carrier"
PUBLISHED_VERSIONS = frozenset({ProtocolVersion.V2_0, ProtocolVersion.V2_1, ProtocolVersion.V3_0})
_ACTIONS = (
    ("pick", ("NODE",)),
    ("drop", ("NODE",)),
    ("startCharging", ("INSTANT", "NODE")),
    ("cancelOrder", ("INSTANT",)),
)


def factsheet_body(*, spec: VehicleSpec, manufacturer: str) -> bytes | None:
    """The factsheet body without header fields; None where none is published."""
    version = spec.version
    if version not in PUBLISHED_VERSIONS:
        return None
    v3 = version is ProtocolVersion.V3_0
    body: dict[str, Any] = {
        "version": version.value,
        "manufacturer": manufacturer,
        "serialNumber": spec.serial_number,
        "typeSpecification": _type_specification(v3),
        "physicalParameters": _physical(v3, spec.speed_mps),
        "protocolLimits": _limits(v3),
        "protocolFeatures": _features(v3),
        "mobileRobotGeometry" if v3 else "agvGeometry": {},
        "loadSpecification": {
            "loadPositions": ["main"],
            "loadSets": [{"setName": "pallet", "loadType": "EUR-pallet"}],
        },
    }
    return orjson.dumps(body)


def _type_specification(v3: bool) -> dict[str, Any]:
    common = {
        "seriesName": SERIES_NAME,
        "seriesDescription": SERIES_DESCRIPTION,
        "localizationTypes": ["NATURAL"],
        "navigationTypes": ["AUTONOMOUS"],
    }
    if v3:
        return {
            **common,
            "mobileRobotKinematics": "DIFF",
            "mobileRobotClass": "CARRIER",
            "maximumLoadMass": 1200,
        }
    return {**common, "agvKinematic": "DIFF", "agvClass": "CARRIER", "maxLoadMass": 1200}


def _physical(v3: bool, speed: float) -> dict[str, Any]:
    if v3:
        return {
            "minimumSpeed": 0.05,
            "maximumSpeed": speed,
            "maximumAcceleration": 0.5,
            "maximumDeceleration": 0.8,
            "minimumHeight": 0.3,
            "maximumHeight": 0.45,
            "width": 0.9,
            "length": 1.4,
        }
    return {
        "speedMin": 0.05,
        "speedMax": speed,
        "accelerationMax": 0.5,
        "decelerationMax": 0.8,
        "heightMin": 0.3,
        "heightMax": 0.45,
        "width": 0.9,
        "length": 1.4,
    }


def _limits(v3: bool) -> dict[str, Any]:
    if v3:
        return {
            "maximumStringLengths": {},
            "maximumArrayLengths": {},
            "timing": {"minimumOrderInterval": 1.0, "minimumStateInterval": 0.5},
        }
    return {
        "maxStringLens": {},
        "maxArrayLens": {},
        "timing": {"minOrderInterval": 1.0, "minStateInterval": 0.5},
    }


def _features(v3: bool) -> dict[str, Any]:
    if v3:
        actions = [
            {"actionType": t, "actionScopes": list(s), "pauseAllowed": False, "cancelAllowed": True}
            for t, s in _ACTIONS
        ]
        return {"optionalParameters": [], "mobileRobotActions": actions}
    actions = [{"actionType": t, "actionScopes": list(s)} for t, s in _ACTIONS]
    return {"optionalParameters": [], "agvActions": actions}
