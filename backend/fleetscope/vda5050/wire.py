"""Typed wire formats of VDA 5050 messages, decoded by msgspec in one pass.

The Structs mirror the required fields and JSON types of the official schemas for every
field the derivation reads (missing required field or wrong type -> msgspec names the path).
Parts nobody reads (trajectories, maps, zones, information) are skipped unparsed, which keeps
typed decoding at several times the speed of full schema validation; ``decode(...,
validate_schema=True)`` checks those too. Enumerations arrive as strings and are checked
against the version's allowed values in ``normalize`` (1.1 sends them in lower case).

1.1 and 2.x share one layout (1.1's ``informations`` is simply not read); 3.0 renames
``agvPosition`` -> ``mobileRobotPosition``, ``batteryState`` -> ``powerSupply``, adds
``instantActionStates`` and renames some fields inside actions and the safety state.
"""

from datetime import datetime
from typing import Any

from msgspec import Struct


class WireNodeState(Struct, gc=False):
    nodeId: str
    sequenceId: int
    released: bool


class WireEdgeState(Struct, gc=False):
    edgeId: str
    sequenceId: int
    released: bool


class WireVelocity(Struct, gc=False):
    vx: float | None = None
    vy: float | None = None
    omega: float | None = None


class WireLoad(Struct, gc=False):
    """Every load field is optional; only the number of loads is used."""


class WireErrorReference(Struct, gc=False):
    referenceKey: str
    referenceValue: str


class WireError(Struct, gc=False):
    errorType: str
    errorLevel: str
    errorDescription: str = ""
    errorReferences: list[WireErrorReference] = []


# --- 1.1, 2.0, 2.1 -------------------------------------------------------------------------


class WireAgvPosition(Struct, gc=False):
    x: float
    y: float
    theta: float
    mapId: str
    positionInitialized: bool


class WireActionState(Struct, gc=False):
    actionId: str
    actionStatus: str
    actionType: str = ""
    actionDescription: str = ""
    resultDescription: str = ""


class WireBatteryState(Struct, gc=False):
    batteryCharge: float
    charging: bool
    batteryVoltage: float | None = None
    batteryHealth: float | None = None
    reach: float | None = None


class WireSafetyState(Struct, gc=False):
    eStop: str
    fieldViolation: bool


class WireStateV2(Struct, gc=False):
    headerId: int
    timestamp: datetime
    version: str
    manufacturer: str
    serialNumber: str
    orderId: str
    orderUpdateId: int
    lastNodeId: str
    lastNodeSequenceId: int
    nodeStates: list[WireNodeState]
    edgeStates: list[WireEdgeState]
    driving: bool
    actionStates: list[WireActionState]
    batteryState: WireBatteryState
    operatingMode: str
    errors: list[WireError]
    safetyState: WireSafetyState
    paused: bool = False
    agvPosition: WireAgvPosition | None = None
    velocity: WireVelocity | None = None
    loads: list[WireLoad] | None = None


# --- 3.0 -----------------------------------------------------------------------------------


class WireMobileRobotPosition(Struct, gc=False):
    x: float
    y: float
    theta: float
    mapId: str
    localized: bool


class WireActionStateV3(Struct, gc=False):
    actionId: str
    actionStatus: str
    actionType: str = ""
    actionDescriptor: str = ""
    actionResult: str = ""


class WirePowerSupply(Struct, gc=False):
    stateOfCharge: float
    charging: bool
    batteryVoltage: float | None = None
    batteryHealth: float | None = None
    range: float | None = None


class WireSafetyStateV3(Struct, gc=False):
    activeEmergencyStop: str
    fieldViolation: bool


class WireStateV3(Struct, gc=False):
    headerId: int
    timestamp: datetime
    version: str
    manufacturer: str
    serialNumber: str
    orderId: str
    orderUpdateId: int
    lastNodeId: str
    lastNodeSequenceId: int
    nodeStates: list[WireNodeState]
    edgeStates: list[WireEdgeState]
    driving: bool
    actionStates: list[WireActionStateV3]
    instantActionStates: list[WireActionStateV3]
    powerSupply: WirePowerSupply
    operatingMode: str
    errors: list[WireError]
    safetyState: WireSafetyStateV3
    paused: bool = False
    mobileRobotPosition: WireMobileRobotPosition | None = None
    velocity: WireVelocity | None = None
    loads: list[WireLoad] | None = None


# --- connection and factsheet (every version) ----------------------------------------------


class WireConnection(Struct, gc=False):
    headerId: int
    timestamp: datetime
    version: str
    manufacturer: str
    serialNumber: str
    connectionState: str


class WireTypeSpecification(Struct, gc=False):
    seriesName: str
    seriesDescription: str = ""
    agvClass: str = ""  # 2.x
    mobileRobotClass: str = ""  # 3.0


class WirePhysicalParameters(Struct, gc=False):
    speedMax: float | None = None  # 2.x
    maximumSpeed: float | None = None  # 3.0


class WireFactsheet(Struct, gc=False):
    """Factsheets are few (one per connect), so they are also schema-validated in full."""

    version: str
    manufacturer: str
    serialNumber: str
    typeSpecification: WireTypeSpecification
    physicalParameters: WirePhysicalParameters
    # 2.1's schema makes the header id and timestamp optional for factsheets.
    headerId: int = 0
    timestamp: datetime | None = None


class WireHeaderProbe(Struct, gc=False):
    """Decoded only on the error path, to explain why a payload failed."""

    version: Any = None
    manufacturer: Any = None
    serialNumber: Any = None
