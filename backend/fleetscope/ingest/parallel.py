"""Bulk loading on several cores: one process per partition of vehicles, then one merge.

Decoding and derivation are pure Python and bound to one core per process, and DuckDB
allows one writing process per file. ``ingest_partitioned`` therefore runs each partition
(a picklable source of messages for a disjoint set of vehicles, such as the simulation of
one site) in a process of its own, writing a partition fact store with its own range of
arrival sequence numbers, and then absorbs the partitions into the main fact store
(``facts.merge``). Meant for an initial backfill: partitions must not contain vehicles
that already have history in the main store.
"""

import multiprocessing
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from fleetscope.appstore.db import engine_for, make_session_factory
from fleetscope.facts.merge import absorb_partition
from fleetscope.facts.store import FactStore
from fleetscope.ingest.batch import DEFAULT_BATCH_SIZE, ImportResult, ingest_messages
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings

# Sequence numbers of partition k start above (k + 1) * SEQ_SPACING: far apart, in order.
SEQ_SPACING = 10**12


@dataclass(frozen=True)
class Partition:
    """Messages of a disjoint set of vehicles. ``source`` must be picklable (a module-level
    function or a ``functools.partial`` of one): it runs in the worker process."""

    source: Callable[[], Iterable[tuple[str, bytes]]]
    site_id: int | None = None


def _ingest_partition(
    settings: Settings, partition: Partition, path: Path, seq_base: int, batch_size: int
) -> ImportResult:
    engine = engine_for(settings)
    try:
        with FactStore(
            path, seq_base=seq_base, offline_after_s=settings.offline_after_seconds
        ) as store:
            pipeline = build_pipeline(
                settings, session_factory=make_session_factory(engine), store=store
            )
            return ingest_messages(
                pipeline, partition.source(), site_id=partition.site_id, batch_size=batch_size
            )
    finally:
        engine.dispose()


def ingest_partitioned(
    settings: Settings,
    partitions: Sequence[Partition],
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    workdir: Path | None = None,
) -> ImportResult:
    """Ingest every partition in parallel into the configured fact store; totals returned.

    Line numbers of rejections count within their partition.
    """
    target = settings.resolved_facts_path()
    folder = workdir or target.parent
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{target.stem}.partition-{k}.duckdb" for k in range(len(partitions))]
    for path in paths:
        path.unlink(missing_ok=True)
    # spawn: a worker must not inherit open DuckDB or database handles of this process.
    context = multiprocessing.get_context("spawn")
    total = ImportResult()
    started = time.perf_counter()
    try:
        with ProcessPoolExecutor(max_workers=len(partitions), mp_context=context) as pool:
            futures = [
                pool.submit(
                    _ingest_partition, settings, partition, path, (k + 1) * SEQ_SPACING, batch_size
                )
                for k, (partition, path) in enumerate(zip(partitions, paths, strict=True))
            ]
            results = [future.result() for future in futures]
        with FactStore(target, offline_after_s=settings.offline_after_seconds) as store:
            for path in paths:
                absorb_partition(store, path=path)
    finally:
        for path in paths:
            path.unlink(missing_ok=True)
            path.with_name(path.name + ".wal").unlink(missing_ok=True)
    for result in results:
        total.accepted += result.accepted
        total.duplicates += result.duplicates
        total.rejected.extend(result.rejected)
    total.seconds = time.perf_counter() - started
    return total
