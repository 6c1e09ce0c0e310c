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

from fleetscope.vda5050.limits import (
    Coordinate,
    Enum,
    Id,
    Key,
    Name,
    NonNegative,
    Percent,
    Serial,
    Text,
    Uint32,
    Version,
)


class WireNodeState(Struct, gc=False):
    nodeId: Id
    sequenceId: Uint32
    released: bool


class WireEdgeState(Struct, gc=False):
    edgeId: Id
    sequenceId: Uint32
    released: bool


class WireVelocity(Struct, gc=False):
    vx: float | None = None
    vy: float | None = None
    omega: float | None = None


class WireLoad(Struct, gc=False):
    """Every load field is optional; only the number of loads is used."""


class WireErrorReference(Struct, gc=False):
    referenceKey: Key
    referenceValue: Text


class WireError(Struct, gc=False):
    errorType: Key
    errorLevel: Enum
    errorDescription: Text = ""
    errorReferences: list[WireErrorReference] = []


# --- 1.1, 2.0, 2.1 -------------------------------------------------------------------------


class WireAgvPosition(Struct, gc=False):
    x: Coordinate
    y: Coordinate
    theta: float
    mapId: Id
    positionInitialized: bool


class WireActionState(Struct, gc=False):
    actionId: Id
    actionStatus: Enum
    actionType: Key = ""
    actionDescription: Text = ""
    resultDescription: Text = ""


class WireBatteryState(Struct, gc=False):
    batteryCharge: Percent
    charging: bool
    batteryVoltage: float | None = None
    batteryHealth: Percent | None = None
    reach: NonNegative | None = None


class WireSafetyState(Struct, gc=False):
    eStop: Enum
    fieldViolation: bool


class WireStateV2(Struct, gc=False):
    headerId: Uint32
    timestamp: datetime
    version: Version
    manufacturer: Serial
    serialNumber: Serial
    orderId: Id
    orderUpdateId: Uint32
    lastNodeId: Id
    lastNodeSequenceId: Uint32
    nodeStates: list[WireNodeState]
    edgeStates: list[WireEdgeState]
    driving: bool
    actionStates: list[WireActionState]
    batteryState: WireBatteryState
    operatingMode: Enum
    errors: list[WireError]
    safetyState: WireSafetyState
    paused: bool = False
    agvPosition: WireAgvPosition | None = None
    velocity: WireVelocity | None = None
    loads: list[WireLoad] | None = None


# --- 3.0 -----------------------------------------------------------------------------------


class WireMobileRobotPosition(Struct, gc=False):
    x: Coordinate
    y: Coordinate
    theta: float
    mapId: Id
    localized: bool


class WireActionStateV3(Struct, gc=False):
    actionId: Id
    actionStatus: Enum
    actionType: Key = ""
    actionDescriptor: Text = ""
    actionResult: Text = ""


class WirePowerSupply(Struct, gc=False):
    stateOfCharge: Percent
    charging: bool
    batteryVoltage: float | None = None
    batteryHealth: Percent | None = None
    range: NonNegative | None = None


class WireSafetyStateV3(Struct, gc=False):
    activeEmergencyStop: Enum
    fieldViolation: bool


class WireStateV3(Struct, gc=False):
    headerId: Uint32
    timestamp: datetime
    version: Version
    manufacturer: Serial
    serialNumber: Serial
    orderId: Id
    orderUpdateId: Uint32
    lastNodeId: Id
    lastNodeSequenceId: Uint32
    nodeStates: list[WireNodeState]
    edgeStates: list[WireEdgeState]
    driving: bool
    actionStates: list[WireActionStateV3]
    instantActionStates: list[WireActionStateV3]
    powerSupply: WirePowerSupply
    operatingMode: Enum
    errors: list[WireError]
    safetyState: WireSafetyStateV3
    paused: bool = False
    mobileRobotPosition: WireMobileRobotPosition | None = None
    velocity: WireVelocity | None = None
    loads: list[WireLoad] | None = None


# --- connection and factsheet (every version) ----------------------------------------------


class WireConnection(Struct, gc=False):
    headerId: Uint32
    timestamp: datetime
    version: Version
    manufacturer: Serial
    serialNumber: Serial
    connectionState: Enum


class WireTypeSpecification(Struct, gc=False):
    seriesName: Name  # kept as the vehicle's model
    seriesDescription: Text = ""
    agvClass: Key = ""  # 2.x
    mobileRobotClass: Key = ""  # 3.0


class WirePhysicalParameters(Struct, gc=False):
    speedMax: float | None = None  # 2.x
    maximumSpeed: float | None = None  # 3.0


class WireFactsheet(Struct, gc=False):
    """Factsheets are few (one per connect), so they are also schema-validated in full."""

    version: Version
    manufacturer: Serial
    serialNumber: Serial
    typeSpecification: WireTypeSpecification
    physicalParameters: WirePhysicalParameters
    # 2.1's schema makes the header id and timestamp optional for factsheets.
    headerId: Uint32 = 0
    timestamp: datetime | None = None


class WireHeaderProbe(Struct, gc=False):
    """Decoded only on the error path, to explain why a payload failed."""

    version: Any = None
    manufacturer: Any = None
    serialNumber: Any = None
