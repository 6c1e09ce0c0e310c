"""Hand-made VDA 5050 2.0 messages and NDJSON lines for the ingestion tests."""

from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

T0 = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)


def stamp(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def header(serial: str, header_id: int, at: datetime, manufacturer: str = "Acme") -> dict[str, Any]:
    return {
        "headerId": header_id,
        "timestamp": stamp(at),
        "version": "2.0.0",
        "manufacturer": manufacturer,
        "serialNumber": serial,
    }


def state(
    serial: str,
    header_id: int,
    at: datetime,
    *,
    order_id: str = "",
    nodes: tuple[int, ...] = (),
    last_node: int = 0,
    x: float = 0.0,
    charging: bool = False,
    charge: float = 80.0,
    driving: bool = False,
    manufacturer: str = "Acme",
) -> dict[str, Any]:
    return {
        **header(serial, header_id, at, manufacturer),
        "orderId": order_id,
        "orderUpdateId": 0,
        "lastNodeId": f"N{last_node}" if order_id else "",
        "lastNodeSequenceId": 2 * last_node,
        "nodeStates": [{"nodeId": f"N{i}", "sequenceId": 2 * i, "released": True} for i in nodes],
        "edgeStates": [],
        "driving": driving,
        "actionStates": [],
        "batteryState": {"batteryCharge": charge, "charging": charging},
        "operatingMode": "AUTOMATIC",
        "errors": [],
        "safetyState": {"eStop": "NONE", "fieldViolation": False},
        "agvPosition": {
            "x": x,
            "y": 0.0,
            "theta": 0.0,
            "mapId": "hall",
            "positionInitialized": True,
        },
    }


def connection(serial: str, header_id: int, at: datetime, status: str = "ONLINE") -> dict[str, Any]:
    return {**header(serial, header_id, at), "connectionState": status}


def factsheet(serial: str, header_id: int, at: datetime, series: str) -> dict[str, Any]:
    return {
        **header(serial, header_id, at),
        "typeSpecification": {
            "seriesName": series,
            "agvKinematic": "DIFF",
            "agvClass": "CARRIER",
            "maxLoadMass": 500,
            "localizationTypes": ["NATURAL"],
            "navigationTypes": ["AUTONOMOUS"],
        },
        "physicalParameters": {
            "speedMin": 0.1,
            "speedMax": 2.0,
            "accelerationMax": 1.0,
            "decelerationMax": 1.0,
            "heightMin": 0.3,
            "heightMax": 0.5,
            "width": 0.8,
            "length": 1.2,
        },
        "protocolLimits": {
            "maxStringLens": {},
            "maxArrayLens": {},
            "timing": {"minOrderInterval": 1.0, "minStateInterval": 0.5},
        },
        "protocolFeatures": {"optionalParameters": [], "agvActions": []},
        "agvGeometry": {},
        "loadSpecification": {},
    }


def topic(serial: str, kind: str, interface: str = "uagv", manufacturer: str = "Acme") -> str:
    return f"{interface}/v2/{manufacturer}/{serial}/{kind}"


def line(
    serial: str,
    kind: str,
    payload: dict[str, Any],
    interface: str = "uagv",
    manufacturer: str = "Acme",
) -> bytes:
    return orjson.dumps({"topic": topic(serial, kind, interface, manufacturer), "payload": payload})


def trip(
    serial: str, *, start: datetime, first_header: int = 1, orders: int = 3
) -> list[tuple[str, dict[str, Any]]]:
    """(kind, payload) of a vehicle running ``orders`` orders, a state every 5 s."""
    messages: list[tuple[str, dict[str, Any]]] = [
        ("connection", connection(serial, first_header, start))
    ]
    header_id, at = first_header, start
    for number in range(orders):
        order_id = f"TRANSPORT_A-{number:06d}"
        # From node 0 over node 1 to node 2; the third state is idle: the order finished.
        for step in range(3):
            header_id += 1
            at += timedelta(seconds=5)
            remaining = tuple(range(step + 1, 3))
            messages.append(
                (
                    "state",
                    state(
                        serial,
                        header_id,
                        at,
                        order_id=order_id,
                        nodes=remaining,
                        last_node=step,
                        x=float(number * 10 + step * 3),
                        driving=bool(remaining),
                        charge=80.0 - number,
                    ),
                )
            )
        header_id += 1
        at += timedelta(seconds=5)
        messages.append(
            (
                "state",
                state(
                    serial,
                    header_id,
                    at,
                    order_id=order_id,
                    last_node=2,
                    x=float(number * 10 + 6),
                    charge=79.0 - number,
                ),
            )
        )
    return messages
