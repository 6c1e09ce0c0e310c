"""The default warehouse scenario: one hall, docks, racks, production lines, chargers.

Layout (map ``hall-1``, metres): a 6 x 4 grid of nodes 18 m apart in x and 12 m in y.
Chargers, docks along the bottom row, racks along the top row, line-side stations on the
right, the empty-container area on the left. Vertical aisles run at a few columns only,
so routes share junctions (where the hotspots of some errors are). Long straight edges
keep the message volume realistic: a vehicle reports at every node it reaches.
"""

from fleetscope.simulator.scenario import (
    ErrorSeverity,
    ErrorType,
    Layout,
    Node,
    ProtocolVersion,
    Scenario,
    VehicleSpec,
    Workflow,
)

MAP_ID = "hall-1"
_COLUMNS = 6
_ROWS = 4
_AISLE_COLUMNS = (0, 2, 5)
_SPACING_X = 18.0
_SPACING_Y = 12.0
_STATION_CELLS = {
    (0, 0): "CHG-1",
    (0, 1): "DOCK-1",
    (0, 2): "DOCK-2",
    (0, 3): "DOCK-3",
    (0, 4): "CHG-3",
    (1, 0): "CHG-2",
    (1, 5): "LINE-1",
    (2, 5): "LINE-2",
    (3, 5): "LINE-3",
    (2, 0): "EMPTY-1",
    (3, 0): "EMPTY-2",
    (3, 1): "RACK-1",
    (3, 2): "RACK-2",
    (3, 3): "RACK-3",
    (3, 4): "RACK-4",
}

# Versions by fleet position: the first six already cover 1.1, 2.0, 2.1 and 3.0.
_VERSION_PATTERN = (
    ProtocolVersion.V2_0,
    ProtocolVersion.V2_1,
    ProtocolVersion.V1_1,
    ProtocolVersion.V3_0,
    ProtocolVersion.V2_1,
    ProtocolVersion.V2_0,
    ProtocolVersion.V2_1,
    ProtocolVersion.V3_0,
    ProtocolVersion.V2_0,
    ProtocolVersion.V2_1,
    ProtocolVersion.V1_1,
    ProtocolVersion.V2_1,
)


def _node_id(row: int, column: int) -> str:
    return _STATION_CELLS.get((row, column), f"X{row}{column}")


def warehouse_layout() -> Layout:
    nodes = tuple(
        Node(node_id=_node_id(r, c), x=5.0 + _SPACING_X * c, y=5.0 + _SPACING_Y * r)
        for r in range(_ROWS)
        for c in range(_COLUMNS)
    )
    connections: list[tuple[str, str]] = []
    for r in range(_ROWS):
        for c in range(_COLUMNS - 1):
            connections.append((_node_id(r, c), _node_id(r, c + 1)))
    for r in range(_ROWS - 1):
        columns = range(_COLUMNS) if r == _ROWS - 2 else _AISLE_COLUMNS
        for c in columns:
            connections.append((_node_id(r, c), _node_id(r + 1, c)))
    return Layout(map_id=MAP_ID, nodes=nodes, connections=tuple(connections))


def warehouse_workflows() -> tuple[Workflow, ...]:
    racks = tuple(f"RACK-{i}" for i in range(1, 5))
    lines = tuple(f"LINE-{i}" for i in range(1, 4))
    docks = ("DOCK-1", "DOCK-2", "DOCK-3")
    return (
        Workflow("TRANSPORT_A", 0.35, docks, racks, (15.0, 35.0), (12.0, 30.0)),
        Workflow("REPLENISH", 0.30, racks, lines, (18.0, 40.0), (10.0, 25.0)),
        Workflow("PICK_TO_LINE", 0.20, docks, lines, (12.0, 30.0), (15.0, 35.0), "KLT"),
        Workflow("EMPTY_RETURN", 0.15, lines, ("EMPTY-1", "EMPTY-2"), (8, 20), (8, 20), "KLT"),
    )


def warehouse_error_types() -> tuple[ErrorType, ...]:
    """Most frequent first: the simulator draws them with Zipf weights by this rank."""
    warning, stopping = ErrorSeverity.WARNING, ErrorSeverity.STOPPING
    return (
        ErrorType(
            "obstacleDetected",
            warning,
            "Obstacle in protective field",
            "WARNING",
            (15, 240),
            ("DOCK-2", "X12"),
        ),
        ErrorType(
            "localizationDeviation",
            warning,
            "Localization score below threshold",
            "URGENT",
            (20, 300),
            ("X22", "X23"),
        ),
        ErrorType(
            "laserScannerContaminated",
            stopping,
            "Laser scanner field contaminated",
            "FATAL",
            (180, 900),
            ("DOCK-1",),
        ),
        ErrorType(
            "batteryTemperatureHigh", warning, "Battery temperature high", "WARNING", (120, 900)
        ),
        ErrorType(
            "loadSensorMismatch",
            stopping,
            "Load sensor does not match expected load",
            "CRITICAL",
            (120, 600),
            ("RACK-2", "RACK-3"),
        ),
        ErrorType(
            "driveMotorOvercurrent", stopping, "Drive motor overcurrent", "FATAL", (300, 1800)
        ),
        ErrorType(
            "wifiWeakSignal",
            warning,
            "Wireless signal weak",
            "WARNING",
            (10, 120),
            ("LINE-3", "X24"),
        ),
        ErrorType("emergencyStopPressed", stopping, "Emergency stop pressed", "FATAL", (60, 300)),
        ErrorType(
            "pathBlocked", warning, "Path blocked, waiting", "URGENT", (10, 180), ("X11", "X21")
        ),
        ErrorType(
            "forkPositionError",
            stopping,
            "Fork position out of tolerance",
            "CRITICAL",
            (180, 900),
            ("RACK-4",),
        ),
    )


def default_fleet(
    *, count: int = 10, serial_prefix: str = "AGV", first_number: int = 1
) -> tuple[VehicleSpec, ...]:
    """``count`` vehicles named ``{prefix}-01``...; a few go offline or manual more often."""
    if not 1 <= count <= 99:
        raise ValueError("count must be between 1 and 99")
    fleet = []
    for i in range(count):
        fleet.append(
            VehicleSpec(
                serial_number=f"{serial_prefix}-{first_number + i:02d}",
                version=_VERSION_PATTERN[i % len(_VERSION_PATTERN)],
                speed_mps=(1.2, 1.4, 1.6, 1.3, 1.5)[i % 5],
                initial_charge=(85.0, 62.0, 47.0, 91.0, 38.0, 74.0)[i % 6],
                initial_health=(98.5, 96.0, 93.5, 99.0, 95.0)[i % 5],
                offline_per_day=1.0 if i % 4 == 1 else 0.35,
                manual_per_day=0.8 if i % 3 == 2 else 0.3,
            )
        )
    return tuple(fleet)


def default_scenario(
    *,
    vehicles: int = 10,
    serial_prefix: str = "AGV",
    manufacturer: str = "Fleetscope Sim",
    interface: str = "uagv",
    time_zone: str = "Europe/Berlin",
) -> Scenario:
    return Scenario(
        site_time_zone=time_zone,
        layout=warehouse_layout(),
        workflows=warehouse_workflows(),
        chargers=("CHG-1", "CHG-2", "CHG-3"),
        error_types=warehouse_error_types(),
        vehicles=default_fleet(count=vehicles, serial_prefix=serial_prefix),
        manufacturer=manufacturer,
        interface=interface,
    )
