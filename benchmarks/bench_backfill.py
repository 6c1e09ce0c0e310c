"""Demo backfill cost per message: the demo fleet's history through the real pipeline.

Generates ``--days`` of both demo sites' messages into memory first (not timed), then runs
``fleetscope.demo.backfill.backfill`` into a fresh app store and fact store in a temporary
folder. Prints the CPU time per message of the ingesting process (all its threads: decode,
derivation, rollups, zlib and DuckDB), which a busy shared machine distorts far less than
wall time, and with ``--profile`` the functions that cost most. Asserts nothing.

    .venv/bin/python benchmarks/bench_backfill.py [--days 1] [--profile]

The demo backfills 30 days (about 1.42 million messages): generation runs in a process of
its own, so the backfill fits in 60 s on two cores when ingestion stays under about
40 µs of CPU per message.
"""

import argparse
import cProfile
import pstats
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from fleetscope.appstore.db import migrate, store_session
from fleetscope.demo.backfill import backfill
from fleetscope.demo.fleet import demo_messages
from fleetscope.demo.seed import seed_demo
from fleetscope.settings import Settings

SPLIT_AT = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def history(days: int) -> list[tuple[str, bytes]]:
    split_ms = round(SPLIT_AT.timestamp() * 1000)
    messages = []
    for at_ms, topic, payload in demo_messages(days=days, split_at=SPLIT_AT):
        if at_ms >= split_ms:
            break
        messages.append((topic, payload))
    return messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args()

    started = time.process_time()
    messages = history(args.days)
    generated = time.process_time() - started
    size = sum(len(payload) for _, payload in messages) / len(messages)
    print(f"messages            {len(messages):>12,}  ({size:,.0f} bytes each on average)")
    print(f"generation cpu s    {generated:>12.2f}  ({len(messages) / generated:,.0f} msg/s)")

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder), environment="test")
        migrate(settings)
        with store_session(settings) as session:
            seed_demo(session)
        profile = cProfile.Profile() if args.profile else None
        cpu, wall = time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        result = backfill(settings=settings, messages=messages)
        if profile is not None:
            profile.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall

    print(f"accepted            {result.accepted:>12,}  (rejected {len(result.rejected)})")
    print(f"backfill cpu s      {cpu:>12.2f}  ({cpu / len(messages) * 1e6:.1f} µs per message)")
    print(f"backfill wall s     {wall:>12.2f}  ({len(messages) / wall:,.0f} msg/s)")
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
