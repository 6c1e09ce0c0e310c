"""How the cost of the fact-scanning analytics grows with the fleet, and where it is spent.

Reads two fleets of ``generate_fleet.py`` (default ``var/bench``, 100 vehicles, and
``var/bench300``, 300 vehicles; the same year, the same vehicles' days), calls Processes and
Actions over the last ``--days`` directly (no HTTP, nothing fed live, DuckDB on one thread
with the server's memory limit, so that the CPU time is the engine's work) and prints, per
fleet, the median time per call, the fact rows read and the time per row, then the ratio of
the large fleet to the small one beside the ratio of their rows.

Then it repeats the one statement whose cost per row grows, the count per (vehicle, period,
histogram bucket) behind Processes' percentiles, on the large fleet with its vehicles folded
onto as many keys as the small fleet has: the same rows, a third of the groups. DuckDB's
grouped aggregation costs more per row as its hash table outgrows the processor's caches, so
per-vehicle histograms of a larger fleet cost a little more per order. Asserts nothing.

    .venv/bin/python benchmarks/bench_fleet_scaling.py [--small var/bench]
        [--large var/bench300] [--days 365] [--repeat 7]
"""

import argparse
import os
import statistics
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
from bench_support import load, machine_speed
from generate_fleet import BENCH_USER, ZONE

from fleetscope.analytics.core.params import AnalyticsParams, AnalyticsScope, resolve_scope
from fleetscope.analytics.core.percentiles import percentile_sql
from fleetscope.analytics.processes.actions import actions
from fleetscope.analytics.processes.orders import ENDED, processes, rows_by_period
from fleetscope.appstore.db import create_db_engine, make_session_factory
from fleetscope.appstore.models import User
from fleetscope.facts.buckets import bucket_sql

MEMORY_LIMIT = "512MiB"  # the server's default (``Settings.fact_store_memory_limit``)


def _median_ms(call: Callable[[], object], repeat: int) -> float:
    call()  # warm-up: the first call reads the fact store's blocks from disk
    samples = []
    for _ in range(repeat):
        started = time.process_time()
        call()
        samples.append((time.process_time() - started) * 1000)
    return statistics.median(samples)


def _fetch(cursor: duckdb.DuckDBPyConnection, sql: str, parameters: list[Any]) -> None:
    cursor.execute(sql, parameters).fetchall()


def _scope(data: Path, *, days: int, now: datetime) -> AnalyticsScope:
    sessions = make_session_factory(create_db_engine(url=f"sqlite:///{data / 'fleetscope.sqlite'}"))
    today = now.astimezone(ZoneInfo(ZONE)).date()
    params = AnalyticsParams(
        date_from=today - timedelta(days=days - 1), date_to=today, shift="all", combined=False
    )
    with sessions() as session:
        user = session.query(User).filter(User.email == BENCH_USER).one()
        return resolve_scope(session, user=user, params=params, now=now)


def _histogram_counts(
    scope: AnalyticsScope, *, now: datetime, fold: int | None
) -> tuple[str, str, list[Any]]:
    """The statement of Processes' percentiles over more than 31 days (a count per vehicle,
    period and histogram bucket, then the quantiles) and one counting those groups; ``fold``:
    the vehicles folded onto this many keys (the same rows, fewer groups)."""
    rows_sql, parameters = rows_by_period(scope, now=now)
    key = "vehicle_id" if fold is None else f"vehicle_id % {fold}"
    finished = f"SELECT *, {key} AS k FROM ({rows_sql}) WHERE {ENDED} AND outcome = 'finished'"  # noqa: S608 - constants only
    sql, _ = percentile_sql(
        (finished, parameters),
        value="cycle_us",
        sets=[("k", "bucket")],
        quantiles=(0.5,),
        exact=False,
    )
    groups = f"SELECT count(DISTINCT (k, bucket, {bucket_sql('cycle_us')})) FROM ({finished})"  # noqa: S608 - constants only
    return sql, groups, parameters


def measure(data: Path, *, days: int, repeat: int) -> dict[str, float]:
    cursor = duckdb.connect(
        str(data / "facts.duckdb"),
        read_only=True,
        config={"memory_limit": MEMORY_LIMIT, "threads": 1},
    )
    (latest,) = cursor.execute("SELECT max(end_at) FROM orders").fetchone() or (None,)
    now = latest + timedelta(minutes=1)
    scope = _scope(data, days=days, now=now)
    since = now - timedelta(days=days)
    counted = cursor.execute(
        "SELECT (SELECT count(*) FROM orders WHERE end_at >= $1), "
        "(SELECT count(*) FROM actions WHERE end_at >= $1)",
        [since],
    ).fetchone()
    assert counted is not None
    figures = {
        "vehicles": float(len(scope.vehicle_ids)),
        "orders": float(counted[0]),
        "actions": float(counted[1]),
        "Processes": _median_ms(lambda: processes(cursor, scope, now=now), repeat),
        "Actions": _median_ms(lambda: actions(cursor, scope, now=now), repeat),
    }
    for label, fold in (("histogram counts", None), ("histogram counts, folded", 100)):
        sql, count_groups, parameters = _histogram_counts(scope, now=now, fold=fold)
        groups = cursor.execute(count_groups, parameters).fetchone()
        figures[f"{label} groups"] = float(groups[0] if groups else 0)
        figures[label] = _median_ms(partial(_fetch, cursor, sql, parameters), repeat)
    cursor.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=Path, default=Path("var/bench"))
    parser.add_argument("--large", type=Path, default=Path("var/bench300"))
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"{machine_speed()}; load {load(os.getloadavg())}")
    small = measure(args.small, days=args.days, repeat=args.repeat)
    large = measure(args.large, days=args.days, repeat=args.repeat)
    print(f"{args.days} days, all shifts, per vehicle; CPU ms per call, median of {args.repeat}")
    print(f"{'':28}{'small':>12}{'large':>12}{'ratio':>8}")
    for name in ("vehicles", "orders", "actions"):
        print(
            f"{name:28}{small[name]:>12,.0f}{large[name]:>12,.0f}{large[name] / small[name]:>8.2f}"
        )
    for name, rows in (("Processes", "orders"), ("Actions", "actions")):
        ratio = large[name] / small[name]
        per_row = ratio / (large[rows] / small[rows])
        print(
            f"{name:28}{small[name]:>12.0f}{large[name]:>12.0f}{ratio:>8.2f}  per row {per_row:.2f}"
        )
    for name in ("histogram counts", "histogram counts, folded"):
        groups = f"{name} groups"
        print(f"{name:28}{small[name]:>12.0f}{large[name]:>12.0f}{large[name] / small[name]:>8.2f}")
        print(f"{'  groups':28}{small[groups]:>12,.0f}{large[groups]:>12,.0f}")
    print(f"load {load(os.getloadavg())}; {machine_speed()}")


if __name__ == "__main__":
    main()
