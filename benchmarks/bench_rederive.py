"""What a re-derivation costs (``ingest.rederive``): a site's simulated fleet ingested, then
a workflow-rule change re-derived while the server's ingestion runs.

The simulator's warehouse (``--vehicles``, ``--days`` from 2026-10-24) goes through the
pipeline into a fresh fact store; then ingestion starts as in the server, a job for every
vehicle of the site is queued with a new rule and run. Prints the raw frames, the job's
wall time and frames per second, and how long the swaps held the ingest thread, in total
and the longest single step (ingestion waits that long at most, from the runner's log: one
step per vehicle), and the process's resident memory before and during the job with
DuckDB's share of it (its own accounting, ``duckdb_memory()``): the staged rows live in
DuckDB, under its memory limit; the rest is what the job holds outside it.
Asserts nothing.

    .venv/bin/python benchmarks/bench_rederive.py [--vehicles 8] [--days 7]
"""

import argparse
import logging
import os
import resource
import shutil
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple

import duckdb
from bench_support import one_site_app_store
from sqlalchemy import select

from fleetscope.appstore.db import make_session_factory
from fleetscope.appstore.models import RederiveJob, Site, Vehicle
from fleetscope.facts.store import FactStore
from fleetscope.ingest.batch import ingest_messages
from fleetscope.ingest.rederive import RederiveRunner, start_rederive
from fleetscope.ingest.service import build_pipeline, start_ingestion
from fleetscope.settings import Settings
from fleetscope.simulator import default_scenario, simulate

START = datetime(2026, 10, 24, tzinfo=UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vehicles", type=int, default=8)
    parser.add_argument("--days", type=float, default=7.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="fleetscope-rederive-"))
    settings = Settings(
        _env_file=None,
        environment="test",
        data_dir=folder,
        database_url=f"sqlite:///{folder / 'app.sqlite'}",
        mqtt_url="",
    )
    factory = make_session_factory(one_site_app_store(settings.database_url))
    simulation = simulate(
        default_scenario(vehicles=args.vehicles),
        seed=1,
        start=START,
        duration=timedelta(days=args.days),
    )
    with FactStore(settings.resolved_facts_path()) as store:
        pipeline = build_pipeline(settings, session_factory=factory, store=store)
        messages = ((topic, payload) for _, topic, payload in simulation.timed_messages())
        ingest_messages(pipeline, messages)
        frames = store.raw_frame_count()
    handle = start_ingestion(settings, session_factory=factory, start_mqtt=False)
    try:
        if handle.rederive is not None:
            handle.rederive.stop()  # this script's runner measures the swap
        swap = _SwapTimes()
        logging.getLogger("fleetscope.ingest.rederive").addHandler(swap)
        logging.getLogger("fleetscope.ingest.rederive").setLevel(logging.INFO)
        runner = RederiveRunner(
            store=handle.store,
            worker=handle.worker,
            pipeline=handle.pipeline,
            session_factory=factory,
            offline_after_s=settings.offline_after_seconds,
        )
        with factory() as session:
            site = session.scalars(select(Site)).one()
            site.workflow_rules = [r"^(?P<workflow>[A-Z]+)"]
            vehicles = list(session.scalars(select(Vehicle.id)))
            start_rederive(
                session,
                reason="workflowRules",
                site_id=site.id,
                vehicle_ids=vehicles,
                created_by="bench",
            )
            session.commit()
        rss = _Rss(handle.store.cursor())
        began = time.perf_counter()
        (job_id,) = runner.run_pending()
        seconds = time.perf_counter() - began
        rss.stop()
        with factory() as session:
            job = session.get(RederiveJob, job_id)
            error = None if job is None else job.error
    finally:
        handle.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{len(vehicles)} vehicles, {args.days:g} days: {frames:,} raw frames")
    if error is not None:
        raise SystemExit(f"the job failed after {seconds:.1f} s: {error}")
    print(f"job {seconds:.1f} s ({frames / seconds:,.0f} frames/s)")
    print(
        f"swaps: {len(swap.seconds)} steps of the ingest thread, {sum(swap.seconds):.2f} s in "
        f"total, the longest {max(swap.seconds):.3f} s"
    )
    start, peak = rss.at_start, rss.at_peak
    print(
        f"RSS {start.rss / MIB:,.0f} MiB when the job started (DuckDB {start.duckdb / MIB:,.0f}), "
        f"at most {peak.rss / MIB:,.0f} MiB during it (DuckDB {peak.duckdb / MIB:,.0f}); "
        f"outside DuckDB {(start.rss - start.duckdb) / MIB:,.0f} -> "
        f"{(peak.rss - peak.duckdb) / MIB:,.0f} MiB; the run's peak (simulation and ingestion "
        f"too) {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB"
    )


MIB = 2**20


class Sample(NamedTuple):
    rss: int
    duckdb: int  # bytes DuckDB accounts for (``duckdb_memory()``): buffers, temporary tables


class _Rss:
    """The process's resident memory and DuckDB's part of it, sampled every 50 ms until
    stopped; the peak is the sample with the most resident memory."""

    def __init__(self, cursor: duckdb.DuckDBPyConnection) -> None:
        self._cursor = cursor
        self.at_start = self._now()
        self.at_peak = self.at_start
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _now(self) -> Sample:
        with open("/proc/self/statm") as statm:
            rss = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        row = self._cursor.execute("SELECT sum(memory_usage_bytes) FROM duckdb_memory()").fetchone()
        return Sample(rss, int(row[0] or 0) if row else 0)

    def _sample(self) -> None:
        while not self._stopping.wait(0.05):
            self._keep(self._now())

    def _keep(self, sample: Sample) -> None:
        if sample.rss > self.at_peak.rss:
            self.at_peak = sample

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join()
        self._keep(self._now())
        self._cursor.close()


class _SwapTimes(logging.Handler):
    """The runner's log lines that say how long each vehicle's swap held the ingest thread."""

    def __init__(self) -> None:
        super().__init__()
        self.seconds: list[float] = []

    def emit(self, record: logging.LogRecord) -> None:
        seconds = record.args[-1] if isinstance(record.args, tuple) and record.args else None
        if "swapped in" in str(record.msg) and isinstance(seconds, float):
            self.seconds.append(seconds)


if __name__ == "__main__":
    main()
