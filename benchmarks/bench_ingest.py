"""Pipeline + fact store throughput: simulated fleet history through the import path.

Simulates ``--vehicles`` vehicles over ``--days`` days with the default warehouse scenario
(or reads ``--file``, NDJSON or NDJSON.gz), then ingests everything with the code of
``fleetscope import`` into a fresh app store and fact store in a temporary folder, in
transactions of ``--batch-size`` messages. Prints numbers; asserts nothing.

    .venv/bin/python benchmarks/bench_ingest.py [--vehicles 12] [--days 3] [--file F]
"""

import argparse
import functools
import tempfile
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine

from fleetscope.appstore.db import make_session_factory
from fleetscope.appstore.models import Base, Organization, Site
from fleetscope.facts.store import FactStore, StoreBatch
from fleetscope.ingest.batch import ImportResult, import_file, ingest_messages
from fleetscope.ingest.parallel import Partition, ingest_partitioned
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings
from fleetscope.simulator import default_scenario, simulate

START = datetime(2026, 2, 2, tzinfo=UTC)


def site_messages(prefix: str, vehicles: int, days: int) -> Iterator[tuple[str, bytes]]:
    """One simulated site (module level: runs in a worker process with --processes)."""
    scenario = default_scenario(vehicles=vehicles, serial_prefix=prefix)
    run = simulate(scenario, seed=7, start=START, duration=timedelta(days=days))
    return run.messages()


def _partitioned(settings: Settings, args: argparse.Namespace) -> None:
    """--processes N: N sites simulated and ingested in parallel, then merged."""
    sizes = [args.vehicles // args.processes] * args.processes
    for k in range(args.vehicles % args.processes):
        sizes[k] += 1
    partitions = [
        Partition(functools.partial(site_messages, f"P{k}", size, args.days))
        for k, size in enumerate(sizes)
    ]
    started = time.perf_counter()
    result = ingest_partitioned(settings, partitions, batch_size=args.batch_size)
    total = time.perf_counter() - started
    print(f"processes           {args.processes:>12}")
    print(f"messages            {result.lines:>12,}")
    print(f"accepted            {result.accepted:>12,}")
    print(f"generation+ingest s {total:>12.1f}  (simulation, ingestion and merge)")
    print(f"msg/s overall       {result.lines / total:>12,.0f}")


def _simulated(vehicles: int, days: int) -> list[tuple[str, bytes]]:
    run = simulate(
        default_scenario(vehicles=vehicles), seed=7, start=START, duration=timedelta(days=days)
    )
    return list(run.messages())


def _timed(
    messages: Iterable[tuple[str, bytes]], clock: list[float]
) -> Iterator[tuple[str, bytes]]:
    """Pass messages through, adding the time spent producing them to ``clock[0]``."""
    iterator = iter(messages)
    while True:
        started = time.perf_counter()
        try:
            message = next(iterator)
        except StopIteration:
            return
        finally:
            clock[0] += time.perf_counter() - started
        yield message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vehicles", type=int, default=12)
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--file", type=Path, default=None)
    parser.add_argument("--batch-size", type=int, default=10_000)
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="simulate and ingest N sites in N processes and merge (the parallel backfill)",
    )
    parser.add_argument(
        "--streamed",
        action="store_true",
        help="simulate while ingesting (the demo's way) instead of before",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="fleetscope-bench-") as folder:
        data = Path(folder)
        settings = Settings(_env_file=None, data_dir=data, facts_path=str(data / "facts.duckdb"))
        engine = create_engine(settings.resolved_database_url())
        Base.metadata.create_all(engine)
        factory = make_session_factory(engine)
        with factory() as session:
            organization = Organization(name="Bench", created_at=START)
            session.add(organization)
            session.flush()
            session.add(
                Site(
                    organization_id=organization.id,
                    name="Bench site",
                    time_zone="Europe/Berlin",
                    shifts=[],
                    workflow_rules=[],
                    mqtt_interface="uagv",
                )
            )
            session.commit()

        if args.processes > 1:
            _partitioned(settings, args)
            engine.dispose()
            return
        generation = [0.0]
        messages: Iterable[tuple[str, bytes]] = []
        if args.file is None:
            if args.streamed:
                run = simulate(
                    default_scenario(vehicles=args.vehicles),
                    seed=7,
                    start=START,
                    duration=timedelta(days=args.days),
                )
                messages = _timed(run.messages(), generation)
            else:
                started = time.perf_counter()
                messages = _simulated(args.vehicles, args.days)
                generation[0] = time.perf_counter() - started
        with FactStore(settings.resolved_facts_path()) as store:
            pipeline = build_pipeline(settings, session_factory=factory, store=store)
            store_clock = [0.0]
            write_batch = store.write_batch

            def timed_write(batch: StoreBatch) -> None:
                started = time.perf_counter()
                write_batch(batch)
                store_clock[0] += time.perf_counter() - started

            store.write_batch = timed_write  # type: ignore[method-assign]
            cpu_started = time.process_time()
            started = time.perf_counter()
            result: ImportResult
            if args.file is not None:
                result = import_file(pipeline, args.file, batch_size=args.batch_size)
            else:
                result = ingest_messages(pipeline, messages, batch_size=args.batch_size)
            total = time.perf_counter() - started
            cpu = time.process_time() - cpu_started
            counts = store.table_counts()
            raw_bytes = store.cursor().execute("SELECT sum(octet_length(data)) FROM raw_chunks")
            compressed = raw_bytes.fetchone()
        size_mb = settings.resolved_facts_path().stat().st_size / 1e6
        engine.dispose()

    ingest_s = total - (generation[0] if args.streamed else 0.0)
    print(f"messages            {result.lines:>12,}")
    print(f"accepted            {result.accepted:>12,}")
    print(f"duplicates          {result.duplicates:>12,}")
    print(f"rejected            {len(result.rejected):>12,}")
    print(f"generation s        {generation[0]:>12.1f}")
    print(f"ingest s            {ingest_s:>12.1f}")
    print(f"ingest msg/s        {result.lines / ingest_s:>12,.0f}")
    print(f"ingest CPU s        {cpu:>12.1f}")
    print(f"  store writes s    {store_clock[0]:>12.1f}")
    if args.file is None:
        print(f"generation+ingest s {generation[0] + ingest_s:>12.1f}")
    print(f"facts               {sum(counts[t] for t in counts if t != 'raw_keys'):>12,}")
    print(f"raw log MB (zlib)   {(compressed[0] or 0) / 1e6 if compressed else 0:>12.1f}")
    print(f"fact store MB       {size_mb:>12.1f}")


if __name__ == "__main__":
    main()
