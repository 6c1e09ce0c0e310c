"""What a batch costs when the fact store refuses some of its messages (``ingest.isolation``).

Builds one batch of 50 vehicles' trips (201 messages each, about 10,000 in all) and writes it
through ``IngestPipeline.process`` into a fact store that refuses every batch holding a
message marked UNSTORABLE (as the store refused year-9999 states before decoding bounded
them), with 0, 1 and 16 such messages of one vehicle. Prints the wall time and the number of
writes; also the time of one retention purge of 10,000 dead letters. Asserts nothing.

    .venv/bin/python benchmarks/bench_isolation.py
"""

import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import orjson
from bench_support import one_site_app_store

from fleetscope.appstore.db import make_session_factory
from fleetscope.facts.store import FactStore, StoreBatch
from fleetscope.ingest.limits import IngestLimits
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.pipeline import IngestPipeline
from fleetscope.ingest.registry import VehicleRegistry

START = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)
RECEIVED = START + timedelta(hours=1)
VEHICLES = 50
ORDERS = 50


class RefusingStore(FactStore):
    writes = 0

    def write_batch(self, batch: StoreBatch) -> None:
        self.writes += 1
        if any(b"UNSTORABLE" in frame.payload for frame in batch.frames):
            raise duckdb.ConversionException("Conversion Error: value out of range")
        super().write_batch(batch)


def _state(serial: str, header_id: int, at: datetime, order_id: str, node: int) -> bytes:
    document: dict[str, Any] = {
        "headerId": header_id,
        "timestamp": at.isoformat().replace("+00:00", "Z"),
        "version": "2.0.0",
        "manufacturer": "Acme",
        "serialNumber": serial,
        "orderId": order_id,
        "orderUpdateId": 0,
        "lastNodeId": f"N{node}",
        "lastNodeSequenceId": 2 * node,
        "nodeStates": [
            {"nodeId": f"N{i}", "sequenceId": 2 * i, "released": True} for i in range(node + 1, 3)
        ],
        "edgeStates": [],
        "driving": node < 2,
        "actionStates": [],
        "batteryState": {"batteryCharge": 80.0, "charging": False},
        "operatingMode": "AUTOMATIC",
        "errors": [],
        "safetyState": {"eStop": "NONE", "fieldViolation": False},
        "agvPosition": {
            "x": float(node),
            "y": 0.0,
            "theta": 0.0,
            "mapId": "hall",
            "positionInitialized": True,
        },
    }
    return orjson.dumps(document)


def _batch(poisons: int) -> list[RawMessage]:
    per_vehicle = []
    for vehicle in range(VEHICLES):
        serial = f"S{vehicle:03d}"
        name = f"uagv/v2/Acme/{serial}/state"
        messages = [
            RawMessage(
                name,
                _state(
                    serial,
                    step + 1,
                    START + timedelta(seconds=5 * step),
                    f"T-{step // 4}",
                    step % 4 % 3,
                ),
                RECEIVED,
            )
            for step in range(ORDERS * 4)
        ]
        per_vehicle.append(messages)
    mixed = [message for group in zip(*per_vehicle, strict=True) for message in group]
    for number in range(poisons):
        at = START + timedelta(seconds=5 * number + 2)
        unstorable = _state("S007", 100_000 + number, at, "UNSTORABLE", 0)
        position = (number + 1) * len(mixed) // (poisons + 1)
        mixed.insert(position, RawMessage("uagv/v2/Acme/S007/state", unstorable, RECEIVED))
    return mixed


def _pipeline(folder: Path, store: FactStore) -> IngestPipeline:
    engine = one_site_app_store(f"sqlite:///{folder / 'app.sqlite'}")
    factory = make_session_factory(engine)
    return IngestPipeline(
        store=store,
        registry=VehicleRegistry(session_factory=factory),
        offline_after_s=65.0,
        limits=IngestLimits(),
    )


def _purge() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = FactStore(Path(folder) / "facts.duckdb")
        pipeline = _pipeline(Path(folder), store)
        old = datetime(2025, 1, 1, tzinfo=UTC)
        junk = [
            RawMessage("uagv/v2/Acme/S/state", b"x" * 2000, old + timedelta(seconds=i / 10))
            for i in range(10_000)
        ]
        pipeline.process(junk)
        started = time.perf_counter()
        removed = store.purge_dead_letters(before=old + timedelta(days=1), limit=10_000)
        milliseconds = 1000 * (time.perf_counter() - started)
        print(f"retention purge of {removed} dead letters: {milliseconds:.0f} ms")
        store.close()


def main() -> None:
    for poisons in (0, 1, 16):
        with tempfile.TemporaryDirectory() as folder:
            store = RefusingStore(Path(folder) / "facts.duckdb")
            pipeline = _pipeline(Path(folder), store)
            batch = _batch(poisons)
            pipeline.process(batch[:VEHICLES])  # vehicles registered, derivers loaded
            store.writes = 0
            started = time.perf_counter()
            outcome = pipeline.process(batch[VEHICLES:])
            seconds = time.perf_counter() - started
            store.close()
            print(
                f"{len(batch) - VEHICLES:>6} messages, {poisons:>2} refused by the store: "
                f"{seconds:5.2f} s, {store.writes:>3} writes, {outcome.accepted} stored, "
                f"{outcome.rejected} dead letters"
            )
    _purge()


if __name__ == "__main__":
    main()
