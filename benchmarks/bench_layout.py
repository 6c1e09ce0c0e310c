"""The failure map's layout drawn cold from a month of positions a minute, beside a plain read.

The generator's own track has one point per order (where it ends), so this benchmark copies
its fleet (``generate_fleet.py``, default ``var/bench``) to ``--work`` and adds the last 30
days of positions a minute of every vehicle, spread over a 100 x 60 m hall and a second map.
Then, in process with the server's DuckDB settings, for all shifts and a night shift: the
layout drawn anew (``failures.layout``: the stamp, the extent, then the cells), the same
from a cache that holds it (the stamp only), and as the plain baseline one statement reading
every position of the same selection once (count, sums). Best and median of ``--repeat``;
asserts nothing.

    .venv/bin/python benchmarks/bench_layout.py [--data var/bench] [--repeat 7]
"""

import argparse
import os
import shutil
import statistics
import time
from collections.abc import Callable
from datetime import UTC, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bench_support import call_times, load
from duckdb import DuckDBPyConnection
from generate_fleet import ZONE

from fleetscope.analytics.core.facts import Selection, rows_in_periods, select_periods
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan, Shift, hour_floor
from fleetscope.analytics.failures import layout
from fleetscope.appstore.shifts import default_shifts
from fleetscope.facts.store import FactStore
from fleetscope.settings import Settings

# The generated site's night shift (22:00-06:00).
NIGHT = next(Shift.from_site(shift) for shift in default_shifts() if shift["id"] == "night")
# Every vehicle's position each minute of the month before ``$1``: a point of a 100 x 60 m
# hall spread by a hash, one in ten on a second map.
POSITIONS = """
    INSERT INTO track_points
    SELECT v, $1::TIMESTAMPTZ - to_seconds(m * 60 + v % 60),
           (hash(v, m) % 100000) / 1000.0, (hash(m, v) % 60000) / 1000.0,
           CASE WHEN hash(v, m, 'map') % 10 = 0 THEN 'hall-2' ELSE 'hall-1' END, 1.0
    FROM (SELECT DISTINCT vehicle_id AS v FROM orders), range(1, 30 * 24 * 60 + 1) b(m)
    ORDER BY 2"""


def timed(call: Callable[[], Any], repeat: int) -> str:
    """Best and median of ``repeat`` calls, in ms."""
    times = call_times(call, repeat)
    return f"{min(times):6.1f} / {statistics.median(times):6.1f}"


def measure(cursor: DuckDBPyConnection, selection: Selection, repeat: int) -> str:
    """The positions of ``selection``, then the layout drawn anew, from a cache that holds
    it, and the plain read of its positions."""
    sql, parameters = rows_in_periods(
        selection, table="track_points", at="sampled_at", columns="f.x, f.y, f.map_id"
    )
    plain = f"SELECT count(*), sum(x), sum(y) FROM ({sql})"  # noqa: S608 - constants only
    (count, *_) = cursor.execute(plain, parameters).fetchone() or (0,)
    warm = layout.LayoutCache()
    warm.layout(cursor, selection)
    cells = [
        timed(lambda: layout.LayoutCache().layout(cursor, selection), repeat),
        timed(lambda: warm.layout(cursor, selection), repeat),
        timed(lambda: cursor.execute(plain, parameters).fetchall(), repeat),
    ]
    return f"{count:>10,}   " + "  ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("var/bench"))
    parser.add_argument("--work", type=Path, default=Path("var/bench-layout"))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    facts = args.work / "facts.duckdb"
    shutil.copy(args.data / "facts.duckdb", facts)
    settings = Settings()
    store = FactStore(facts, memory_limit=settings.fact_store_memory_limit)
    connection = store.cursor()
    (now,) = connection.execute("SELECT max(end_at) FROM orders").fetchone() or (None,)
    added = time.perf_counter()
    connection.execute(POSITIONS, [now])
    print(f"added 30 days of positions a minute in {time.perf_counter() - added:.1f} s; ", end="")
    vehicles = [
        v
        for (v,) in connection.execute(
            "SELECT DISTINCT vehicle_id FROM orders ORDER BY 1"
        ).fetchall()
    ]
    print(f"{len(vehicles)} vehicles; load average {load(os.getloadavg())}")
    zone = ZoneInfo(ZONE)
    last = now.astimezone(zone).date()
    columns = "      drawn anew        cache hit       plain read"
    print(f"{'period':>7} {'shift':>6} {'positions':>10}{columns}   (ms, best / median)")
    for days in (30, 365):
        for shift in (None, NIGHT):
            scope = AnalyticsScope(
                span=DaySpan(last - timedelta(days=days - 1), last),
                combined=False,
                shift_id=shift.id if shift else "all",
                vehicles=[VehicleRef(v, str(v), 1) for v in vehicles],
                sites=[SiteGroup(1, zone, shift, excluded=False, vehicle_ids=vehicles)],
            )
            periods = select_periods(scope, now=hour_floor(now.astimezone(UTC)), previous=False)
            selection = layout.latest(periods, timedelta(days=layout.LAYOUT_DAYS))
            name = shift.id if shift else "all"
            print(f"{days:>5} d {name:>6} {measure(connection, selection, args.repeat)}")
    print(f"load average at the end {load(os.getloadavg())}")
    connection.close()
    store.close()


if __name__ == "__main__":
    main()
