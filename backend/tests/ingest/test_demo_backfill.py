"""The demo backfill shares the history with the fleet process: the same facts as alone."""

import itertools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fleetscope.appstore.db import migrate, store_session
from fleetscope.demo.backfill import backfill
from fleetscope.demo.fleet import DemoFleet, FleetPlan, demo_messages, shared_serials
from fleetscope.demo.seed import seed_demo
from fleetscope.facts.store import FactStore
from fleetscope.settings import Settings

from .facts_dump import dump

SPLIT_AT = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def _settings(folder: Path) -> Settings:
    settings = Settings(environment="test", data_dir=folder)
    migrate(settings)
    with store_session(settings) as session:
        seed_demo(session)
    return settings


def _comparable(settings: Settings) -> dict[str, Any]:
    with FactStore(settings.resolved_facts_path()) as store:
        facts: dict[str, Any] = dump(store)
        raw = store.table_counts()["raw_keys"]
    # Sequence numbers differ by design (the share has its own range); the machine may not.
    facts["deriver_snapshots"] = sorted((row[0], row[1]) for row in facts["deriver_snapshots"])
    facts["raw_keys"] = raw
    return facts


def test_a_shared_demo_backfill_equals_one_process_alone(tmp_path: Path) -> None:
    shared = _settings(tmp_path / "shared")
    fleet = DemoFleet(FleetPlan(days=1, split_at=SPLIT_AT, broker_url=None, server=None))
    fleet.start()
    try:
        result = backfill(settings=shared, messages=fleet.history())
    finally:
        fleet.stop()
    assert not list((tmp_path / "shared").glob("*fleet-share*"))

    alone = _settings(tmp_path / "alone")
    split_ms = round(SPLIT_AT.timestamp() * 1000)
    history = [
        (topic, payload)
        for _, topic, payload in itertools.takewhile(
            lambda message: message[0] < split_ms, demo_messages(days=1, split_at=SPLIT_AT)
        )
    ]
    expected = backfill(settings=alone, messages=history)

    assert result.accepted == expected.accepted == len(history)
    shared_count = sum(topic.split("/")[3] in shared_serials() for topic, _ in history)
    assert shared_count > 0
    # The progress counters the fleet process wrote for the backfill's bar: all of the
    # history's time span generated, its whole share ingested.
    assert fleet.progress.fraction() == 1.0
    assert fleet.progress.shared_messages.value == shared_count
    assert _comparable(shared) == _comparable(alone)
