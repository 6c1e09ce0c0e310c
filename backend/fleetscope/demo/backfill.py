"""Backfill: the demo fleet's history through the real ingestion pipeline."""

from collections.abc import Callable, Iterable
from pathlib import Path

from fleetscope.appstore.db import engine_for, make_session_factory
from fleetscope.demo.fleet import DemoHistory
from fleetscope.facts.merge import absorb_partition
from fleetscope.facts.store import FactStore
from fleetscope.ingest.batch import ImportResult, ingest_messages
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings

# Larger transactions than ``fleetscope import``'s: each batch pays a fixed cost (rollup
# rows, a dozen inserts, a commit), a few percent of the time at 50,000 messages.
BACKFILL_BATCH_SIZE = 50_000


def backfill(
    *,
    settings: Settings,
    messages: Iterable[tuple[str, bytes]],
    progress: Callable[[ImportResult], None] | None = None,
) -> ImportResult:
    """Ingest ``messages`` as ``fleetscope import`` would; the server must not be running.

    The demo fleet's history (``DemoHistory``) is shared: the fleet process ingests some
    vehicles into a partition store, absorbed here once both are done. ``progress`` gets
    this process's result so far after each batch.
    """
    facts_path = settings.resolved_facts_path()
    partition = facts_path.with_name(f"{facts_path.stem}.fleet-share.duckdb")
    engine = engine_for(settings)
    try:
        with FactStore(facts_path, offline_after_s=settings.offline_after_seconds) as store:
            pipeline = build_pipeline(
                settings, session_factory=make_session_factory(engine), store=store
            )
            if not isinstance(messages, DemoHistory):
                return ingest_messages(
                    pipeline, messages, batch_size=BACKFILL_BATCH_SIZE, progress=progress
                )
            _remove(partition)
            messages.share(settings=settings, path=partition)
            result = ingest_messages(
                pipeline, messages, batch_size=BACKFILL_BATCH_SIZE, progress=progress
            )
            shared = messages.shared_result()
            if shared is not None:
                absorb_partition(store, path=partition)
                _add(result, shared)
            return result
    finally:
        engine.dispose()
        _remove(partition)


def _add(total: ImportResult, share: ImportResult) -> None:
    """Line numbers of the share's rejections count within the share."""
    total.accepted += share.accepted
    total.duplicates += share.duplicates
    total.rejected.extend(share.rejected)


def _remove(path: Path) -> None:
    path.unlink(missing_ok=True)
    path.with_name(path.name + ".wal").unlink(missing_ok=True)
