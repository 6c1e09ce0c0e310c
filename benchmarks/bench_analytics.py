"""Server time of every ``/v2/Analytics/`` resource on a large fleet, rollups versus raw facts.

Reads the fleet of ``benchmarks/generate_fleet.py`` (default ``var/bench``: 100 vehicles x
365 days) and measures, for periods of the last 30 and 365 days (all vehicles, per vehicle,
all shifts; plus the night shift):
- the analytics function called directly (``direct``), reading the hourly rollups;
- the same through the ASGI app, with login cookie, scope resolution and JSON: the server
  time of its ``Server-Timing`` header (``server``);
- the same query on the raw facts without rollups (``raw``), fewer repeats.
Prints p50 and p95 of the wall time and the median CPU time per call, in milliseconds;
asserts nothing.

    .venv/bin/python benchmarks/bench_analytics.py [--data var/bench] [--repeat 20]
"""

import argparse
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from fastapi.testclient import TestClient
from generate_fleet import BENCH_PASSWORD, BENCH_USER, ZONE
from server_timing import measure_server, percentiles

from fleetscope.analytics.core.params import AnalyticsParams, AnalyticsScope, resolve_scope
from fleetscope.analytics.dashboards.dashboard import dashboard
from fleetscope.analytics.dashboards.statusboard import build_statusboard, read_live
from fleetscope.analytics.productivity.history import productivity_history
from fleetscope.analytics.productivity.productivity import productivity
from fleetscope.api.main import create_app
from fleetscope.appstore.models import User
from fleetscope.facts.store import FactStore
from fleetscope.settings import Settings

OFFLINE_AFTER = timedelta(seconds=65)
Resource = Callable[..., Any]
# (label, resource, combined): Productivity and the history both per vehicle (100 entries,
# 100 series) and combined (the fleet: a site's rollups), the dashboard is always the fleet.
CASES = (
    ("Productivity per vehicle", "Productivity", False),
    ("Productivity combined", "Productivity", True),
    ("History combined", "ProductivityHistory", True),
    ("History per vehicle", "ProductivityHistory", False),
    ("Dashboard", "Dashboard", True),
    ("Statusboard", "Statusboard", False),
)
RESOURCES: dict[str, Resource] = {
    "Productivity": productivity,
    "ProductivityHistory": productivity_history,
    "Dashboard": dashboard,
}


def _time(call: Callable[[], Any], repeat: int) -> tuple[float, float, float]:
    """p50 and p95 of the wall time, and the median CPU time of the process (all threads)
    per call: on a machine shared with other work the CPU time shows the cost of the query
    itself, the wall time also the waiting for a core."""
    call()  # warm-up: first-call caches are not what a user waits for every morning
    samples, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        call()
        samples.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return (*percentiles(samples), statistics.median(cpu))


def _scope(
    app: Any, *, days: int, shift: str, combined: bool
) -> tuple[AnalyticsScope, dict[str, str]]:
    today = datetime.now(ZoneInfo(ZONE)).date()
    params = {
        "from": (today - timedelta(days=days - 1)).isoformat(),
        "to": today.isoformat(),
        "shift": shift,
        "combined": "true" if combined else "false",
    }
    with app.state.session_factory() as session:
        user = session.query(User).filter(User.email == BENCH_USER).one()
        scope = resolve_scope(
            session,
            user=user,
            params=AnalyticsParams(
                date_from=today - timedelta(days=days - 1),
                date_to=today,
                shift=shift,
                combined=combined,
            ),
        )
    return scope, params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("var/bench"))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--raw-repeat", type=int, default=3, help="0: skip the raw baseline")
    parser.add_argument(
        "--raw-night",
        action="store_true",
        help="the raw baseline for the night shift too (minutes: a range join per night)",
    )
    parser.add_argument(
        "--only", default="", help="comma-separated case label prefixes (e.g. History,Dashboard)"
    )
    parser.add_argument(
        "--days", default="30,365", help="comma-separated period lengths in days to measure"
    )
    args = parser.parse_args()
    prefixes = tuple(p.strip() for p in args.only.split(",") if p.strip())
    settings = Settings(
        _env_file=None,
        environment="test",
        data_dir=args.data,
        database_url=f"sqlite:///{(args.data / 'fleetscope.sqlite').resolve()}",
        facts_path=str(args.data / "facts.duckdb"),
        frontend_dist=args.data / "no-frontend",
        mqtt_url="",
    )
    app = create_app(settings)
    with TestClient(app) as client:
        response = client.post(
            "/v2/User/login", json={"email": BENCH_USER, "password": BENCH_PASSWORD}
        )
        response.raise_for_status()
        store: FactStore = app.state.ingestion.store
        counts = store.table_counts()
        print(
            f"fleet: {counts['state_intervals']:,} state intervals, {counts['orders']:,} orders, "
            f"{counts['battery_samples']:,} battery samples, "
            f"{counts['rollup_hourly']:,} hourly rollup rows"
        )
        print(
            f"{'resource':<22}{'period':>8}{'shift':>7}  {'direct p50/p95':>16} {'cpu':>7}  "
            f"{'server p50/p95':>16} {'cpu':>7}  {'raw p50/p95':>18}   (milliseconds)"
        )
        cursor = store.cursor()
        for days in (int(d) for d in args.days.split(",")):
            for shift in ("all", "night"):
                for label, name, combined in CASES:
                    if prefixes and not label.startswith(prefixes):
                        continue
                    if name == "Statusboard" and (days, shift) != (30, "all"):
                        continue  # live: the period does not matter
                    if label == "History per vehicle" and shift != "all":
                        continue
                    scope, params = _scope(app, days=days, shift=shift, combined=combined)
                    function = RESOURCES.get(name)
                    _row(label, name, function, cursor, client, scope, params, args, (days, shift))
        cursor.close()


def _row(
    label: str,
    name: str,
    function: Resource | None,
    cursor: Any,
    client: TestClient,
    scope: AnalyticsScope,
    params: dict[str, str],
    args: argparse.Namespace,
    period: tuple[int, str],
) -> None:
    def direct(use_rollups: bool = True) -> Any:
        now = datetime.now(UTC)
        if function is None:
            statuses = read_live(cursor, scope.vehicle_ids)
            return build_statusboard(scope.vehicles, statuses, now=now)
        return function(
            cursor, scope, now=now, offline_after=OFFLINE_AFTER, use_rollups=use_rollups
        )

    fast = _time(direct, args.repeat)
    through_app = measure_server(client, f"/v2/Analytics/{name}", params, args.repeat)
    raw = "-"
    days, shift = period
    if function is not None and args.raw_repeat > 0 and (shift == "all" or args.raw_night):
        raw_p50, raw_p95, _ = _time(lambda: direct(False), args.raw_repeat)
        raw = f"{raw_p50:8.1f}/{raw_p95:8.1f}"
    print(
        f"{label:<22}{days:>6} d{shift:>7}  {fast[0]:7.1f}/{fast[1]:7.1f} {fast[2]:7.1f}  "
        f"{through_app[0]:7.1f}/{through_app[1]:7.1f} {through_app[2]:7.1f}  {raw:>18}",
        flush=True,
    )


if __name__ == "__main__":
    main()
