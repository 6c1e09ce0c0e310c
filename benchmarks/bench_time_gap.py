"""What a gap in time costs ingestion: a new vehicle's first state from long ago, then one
from now (``facts.rollup_spans``).

Through ``IngestPipeline.process`` into a fresh fact store beside another vehicle's states:
one batch with the gap vehicle's two states (first from ``--first``, default 2001-01-01),
and the same batch without the gap (the first state two minutes ago) as the baseline.
Prints the wall time of the batch, the rows it added per table and the store file's
growth after a checkpoint. Asserts nothing.

    .venv/bin/python benchmarks/bench_time_gap.py [--first 2001-01-01T00:00:00+00:00]
"""

import argparse
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
from bench_support import one_site_app_store

from fleetscope.appstore.db import make_session_factory
from fleetscope.facts.store import FactStore
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings


def _state(serial: str, header_id: int, at: datetime) -> bytes:
    payload: dict[str, Any] = {
        "headerId": header_id,
        "timestamp": at.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
        "version": "2.0.0",
        "manufacturer": "Acme",
        "serialNumber": serial,
        "orderId": "",
        "orderUpdateId": 0,
        "lastNodeId": "",
        "lastNodeSequenceId": 0,
        "nodeStates": [],
        "edgeStates": [],
        "driving": False,
        "actionStates": [],
        "batteryState": {"batteryCharge": 80.0, "charging": False},
        "operatingMode": "AUTOMATIC",
        "errors": [],
        "safetyState": {"eStop": "NONE", "fieldViolation": False},
        "agvPosition": {
            "x": 1.0,
            "y": 2.0,
            "theta": 0.0,
            "mapId": "hall",
            "positionInitialized": True,
        },
    }
    return orjson.dumps(payload)


def _message(serial: str, header_id: int, at: datetime, now: datetime) -> RawMessage:
    return RawMessage(f"uagv/v2/Acme/{serial}/state", _state(serial, header_id, at), now)


def _checkpointed_size(store: FactStore) -> int:
    cursor = store.cursor()
    cursor.execute("CHECKPOINT")
    cursor.close()
    return store.path.stat().st_size


def run(folder: Path, *, first: datetime) -> tuple[float, dict[str, int], float]:
    settings = Settings(
        environment="test",
        data_dir=folder,
        database_url=f"sqlite:///{folder / 'app.sqlite'}",
        facts_path=str(folder / "facts.duckdb"),
    )
    engine = one_site_app_store(settings.database_url)
    factory = make_session_factory(engine)
    now = datetime.now(UTC).replace(microsecond=0)
    with FactStore(settings.resolved_facts_path()) as store:
        pipeline = build_pipeline(settings, session_factory=factory, store=store)
        pipeline.process(
            [_message("OTHER", n, now - timedelta(seconds=60 - n), now) for n in range(1, 30)]
        )
        size, counts = _checkpointed_size(store), store.table_counts()
        batch = [_message("GAP", 1, first, now), _message("GAP", 2, now, now)]
        clock = time.perf_counter()
        outcome = pipeline.process(batch)
        elapsed = time.perf_counter() - clock
        if outcome.accepted != len(batch):
            print(f"  not accepted: {sorted(set(outcome.reasons.values()))}")
        added = {t: n - counts.get(t, 0) for t, n in store.table_counts().items()}
        grown = (_checkpointed_size(store) - size) / 1e6
    engine.dispose()
    return elapsed, {t: n for t, n in added.items() if n}, grown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--first", type=datetime.fromisoformat, default=datetime(2001, 1, 1, tzinfo=UTC)
    )
    args = parser.parse_args()
    for label, first in (
        (f"first state {args.first.isoformat()}", args.first),
        ("no gap (first state 2 min ago)", datetime.now(UTC) - timedelta(minutes=2)),
    ):
        with tempfile.TemporaryDirectory() as folder:
            elapsed, added, grown = run(Path(folder), first=first)
        print(f"{label}: {elapsed:.2f} s, store +{grown:.1f} MB")
        print(f"  rows added: {added}")


if __name__ == "__main__":
    main()
