"""Decode and decode + derive throughput for VDA 5050 state messages on one core.

Generates a realistic stream (20 vehicles driving orders with nodes, edges, pick/drop
actions, a load, battery drain and an intermittent warning; about 1.7 KB per message),
then times, in CPU time of this one process, ``decode`` alone, ``decode`` with full
JSON-schema validation, and ``decode`` followed by ``VehicleDeriver.feed``. Prints
messages per second; asserts nothing.

    .venv/bin/python benchmarks/bench_decode_derive.py [--messages 60000]
"""

import argparse
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from fleetscope.derive import DerivationConfig, VehicleDeriver
from fleetscope.vda5050.decode import decode

VEHICLES = 20
NODES_PER_ORDER = 6
START = datetime(2026, 3, 2, 6, 0, tzinfo=UTC)


def _state(vehicle: int, step: int, header_id: int) -> dict[str, Any]:
    """Step ``step`` of a vehicle that drives orders of NODES_PER_ORDER nodes, 1 s apart."""
    cycle, phase = divmod(step, NODES_PER_ORDER * 4)
    node = phase // 4
    order_id = f"TRANSPORT_{'ABCD'[vehicle % 4]}-{vehicle:03d}{cycle:06d}"
    finished = phase == NODES_PER_ORDER * 4 - 1
    nodes = [] if finished else list(range(node + 1, NODES_PER_ORDER))
    return {
        "headerId": header_id,
        "timestamp": (START + timedelta(seconds=step)).isoformat().replace("+00:00", "Z"),
        "version": "2.0.0",
        "manufacturer": "Fleetscope",
        "serialNumber": f"AGV-{vehicle:04d}",
        "orderId": order_id,
        "orderUpdateId": 0,
        "zoneSetId": "hall-1",
        "lastNodeId": f"N{node}",
        "lastNodeSequenceId": node * 2,
        "nodeStates": [
            {
                "nodeId": f"N{n}",
                "sequenceId": n * 2,
                "released": True,
                "nodePosition": {"x": vehicle * 10.0 + n * 4.8, "y": 17.25, "mapId": "hall-1"},
            }
            for n in nodes[:3]
        ],
        "edgeStates": [
            {
                "edgeId": f"E{n - 1}-{n}",
                "sequenceId": n * 2 - 1,
                "released": True,
                "edgeDescription": "main aisle",
            }
            for n in nodes[:3]
        ],
        "agvPosition": {
            "x": vehicle * 10.0 + phase * 1.2,
            "y": 17.25,
            "theta": 1.5707,
            "mapId": "hall-1",
            "positionInitialized": True,
            "localizationScore": 0.97,
            "deviationRange": 0.05,
            "mapDescription": "hall 1",
        },
        "velocity": {"vx": 0.0 if finished else 1.2, "vy": 0.0, "omega": 0.0},
        "loads": [{"loadId": f"PAL-{cycle:06d}", "loadType": "EUR", "weight": 412.0}],
        "driving": not finished,
        "paused": False,
        "newBaseRequest": False,
        "distanceSinceLastNode": 1.2 * (phase % 4),
        "actionStates": [
            {
                "actionId": f"{order_id}-pick",
                "actionType": "pick",
                "actionStatus": "FINISHED" if node > 0 else "RUNNING",
                "actionDescription": "pick pallet at the source station",
            },
            {
                "actionId": f"{order_id}-drop",
                "actionType": "drop",
                "actionStatus": "FINISHED" if finished else "WAITING",
                "actionDescription": "drop pallet at the sink station",
            },
        ],
        "batteryState": {
            "batteryCharge": max(5.0, 95.0 - step * 0.01),
            "batteryVoltage": 48.2,
            "batteryHealth": 96,
            "charging": False,
        },
        "operatingMode": "AUTOMATIC",
        "errors": [
            {
                "errorType": "lidarContaminated",
                "errorLevel": "WARNING",
                "errorDescription": "front lidar needs cleaning",
                "errorReferences": [{"referenceKey": "sensor", "referenceValue": "front"}],
            }
        ]
        if cycle % 3 == 0
        else [],
        "information": [
            {"infoType": "battery", "infoLevel": "INFO", "infoDescription": "charge level ok"}
        ],
        "safetyState": {"eStop": "NONE", "fieldViolation": False},
    }


def make_stream(messages: int) -> list[tuple[str, bytes]]:
    stream = []
    for index in range(messages):
        step, vehicle = divmod(index, VEHICLES)
        topic = f"uagv/v2/Fleetscope/AGV-{vehicle:04d}/state"
        stream.append((topic, orjson.dumps(_state(vehicle, step, step + 1))))
    return stream


def _rate(label: str, count: int, run: Callable[[], None]) -> None:
    # CPU time of this process: "per second on one core", and less disturbed than wall
    # time when other processes share the machine.
    started = time.process_time()
    run()
    seconds = time.process_time() - started
    print(f"{label:<34} {count / seconds:>10,.0f} messages/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=60_000)
    count = parser.parse_args().messages
    stream = make_stream(count)
    mean_size = sum(len(payload) for _, payload in stream) / len(stream)
    print(f"{count:,} state messages, {VEHICLES} vehicles, mean payload {mean_size:,.0f} bytes")

    def parse_only() -> None:
        for _, payload in stream:
            orjson.loads(payload)

    def decode_only() -> None:
        for topic, payload in stream:
            decode(topic, payload)

    strict_count = min(count, 10_000)

    def decode_strict() -> None:
        for topic, payload in stream[:strict_count]:
            decode(topic, payload, validate_schema=True)

    config = DerivationConfig()
    derivers: dict[str, VehicleDeriver] = {}
    facts = 0

    def decode_and_derive() -> None:
        nonlocal facts
        for topic, payload in stream:
            message = decode(topic, payload)
            deriver = derivers.get(topic)
            if deriver is None:
                deriver = derivers[topic] = VehicleDeriver(vehicle_id=len(derivers), config=config)
            facts += len(deriver.feed(message))

    decode_strict_warm = stream[0]
    decode(*decode_strict_warm, validate_schema=True)  # compile the schema outside the timing
    _rate("orjson.loads only (reference)", count, parse_only)
    _rate("decode (typed validation)", count, decode_only)
    _rate("decode (full JSON schema)", strict_count, decode_strict)
    _rate("decode + derive", count, decode_and_derive)
    print(f"facts emitted: {facts:,} ({facts / count:.2f} per message)")


if __name__ == "__main__":
    main()
