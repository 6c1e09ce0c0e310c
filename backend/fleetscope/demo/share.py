"""The fleet process's own share of the demo backfill: some vehicles into a partition store.

The backfill process alone cannot keep pace with generation and ingestion on one core each;
the fleet process, done generating in a third of the time, ingests the history of a share
of the vehicles through the same pipeline into a partition fact store (its own arrival
sequence range, ``ingest.parallel.SEQ_SPACING`` up), which the backfill absorbs once both
are done (``facts.merge``). The vehicles are disjoint and each one's messages stay in
order, so the facts are the same as from one process.
"""

from dataclasses import dataclass
from pathlib import Path

from fleetscope.appstore.db import engine_for, make_session_factory
from fleetscope.facts.store import FactStore
from fleetscope.ingest.batch import ImportResult, ingest_messages
from fleetscope.ingest.parallel import SEQ_SPACING
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings

# Messages per transaction, as in the backfill (demo.backfill.BACKFILL_BATCH_SIZE).
SHARE_BATCH_SIZE = 50_000


@dataclass(frozen=True)
class FleetShare:
    """Sent to the fleet process: ingest the history of ``serials`` into ``path``."""

    settings: Settings
    path: Path
    serials: frozenset[str]


@dataclass(frozen=True)
class ShareDone:
    """Ends the history stream: the share's result (None without a share) or an error."""

    result: ImportResult | None
    error: str | None = None


class ShareIngestion:
    """Runs in the fleet process: takes the share's messages and ingests them in batches."""

    def __init__(self, share: FleetShare) -> None:
        self._serials = share.serials
        self.result = ImportResult()
        self._pending: list[tuple[str, bytes]] = []
        self._mine: dict[str, bool] = {}  # topic -> in the share
        self._engine = engine_for(share.settings)
        self._store = FactStore(
            share.path,
            seq_base=SEQ_SPACING,
            offline_after_s=share.settings.offline_after_seconds,
        )
        self._pipeline = build_pipeline(
            share.settings, session_factory=make_session_factory(self._engine), store=self._store
        )

    def takes(self, topic: str) -> bool:
        mine = self._mine.get(topic)
        if mine is None:
            parts = topic.split("/")
            mine = self._mine[topic] = len(parts) == 5 and parts[3] in self._serials
        return mine

    def add(self, message: tuple[str, bytes]) -> None:
        self._pending.append(message)
        if len(self._pending) >= SHARE_BATCH_SIZE:
            self._flush()

    def finish(self) -> ShareDone:
        """Ingest the rest and close the partition store."""
        try:
            self._flush()
        finally:
            self._store.close()
            self._engine.dispose()
        return ShareDone(result=self.result)

    def _flush(self) -> None:
        if not self._pending:
            return
        before = self.result.lines
        done = ingest_messages(self._pipeline, self._pending, batch_size=len(self._pending))
        self._pending = []
        self.result.accepted += done.accepted
        self.result.duplicates += done.duplicates
        self.result.rejected.extend((before + line, reason) for line, reason in done.rejected)
        self.result.seconds += done.seconds
