"""Server time of the processes, failures and battery resources of ``/v2/Analytics/``.

Reads the fleet of ``benchmarks/generate_fleet.py`` (default ``var/bench``: 100 vehicles x
365 days) and measures every resource for the last 30 and 365 days (all 100 vehicles, per
vehicle, all shifts; plus the night shift), through the ASGI app with login cookie, scope
resolution and JSON, like a browser would call it, timed by the server's ``Server-Timing``
header. The error history is measured on its first and its last page. Prints p50 and p95
and the median CPU time per call (all threads) in milliseconds; asserts nothing.

    .venv/bin/python benchmarks/bench_analytics_v2.py [--data var/bench] [--repeat 20]
        [--only Processes,Workflows]
"""

import argparse
import os
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from fastapi.testclient import TestClient
from generate_fleet import BENCH_PASSWORD, BENCH_USER, ZONE
from server_timing import measure_server

from fleetscope.api.main import create_app
from fleetscope.settings import Settings

RESOURCES: list[tuple[str, dict[str, Any]]] = [
    ("Processes", {}),
    ("Workflows", {}),
    ("Workflows/TRANSPORT_A/Orders", {"sort": "-start"}),  # the page's default
    ("Workflows/TRANSPORT_A/Orders", {"sort": "-duration"}),
    ("Workflows/TRANSPORT_A/Histogram", {}),
    ("Actions", {}),
    ("Actions/pick/Failures", {}),
    ("Failures", {}),
    ("FailureMatrix", {}),
    ("FailureMap", {}),
    ("ErrorHistory", {"page": "first"}),
    ("ErrorHistory", {"page": "last"}),
    ("ErrorHistory", {"page": "last", "sort": "-duration", "level": "FATAL"}),
    ("Battery", {}),
    ("Battery/Sessions", {"page": "first"}),
    ("Battery/Sessions", {"page": "last", "sort": "-added"}),
]


def _period(days: int, shift: str) -> dict[str, str]:
    today = datetime.now(ZoneInfo(ZONE)).date()
    return {
        "from": (today - timedelta(days=days - 1)).isoformat(),
        "to": today.isoformat(),
        "shift": shift,
        "combined": "false",
    }


def _params(client: TestClient, name: str, extra: dict[str, Any], period: dict[str, str]) -> Any:
    params: dict[str, Any] = {**period, **extra}
    if extra.get("page") == "first":
        params["page"] = 1
    elif extra.get("page") == "last":
        params["page"] = 1
        first = client.get(f"/v2/Analytics/{name}", params=params).json()["data"]
        params["page"] = max(1, first["pages"])
    return params


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("var/bench"))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated resource name prefixes to measure (e.g. Processes,Workflows)",
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
        login = {"email": BENCH_USER, "password": BENCH_PASSWORD}
        client.post("/v2/User/login", json=login).raise_for_status()
        counts = app.state.ingestion.store.table_counts()
        print(
            f"fleet: {counts['orders']:,} orders, {counts['actions']:,} actions, "
            f"{counts['error_episodes']:,} error episodes, {counts['track_points']:,} track "
            f"points, {counts['battery_samples']:,} battery samples; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        print(
            f"{'resource':<34}{'extra':<28}{'period':>8}{'shift':>7}  {'p50/p95':>16}"
            f"{'cpu':>8}   (ms)"
        )
        for days in (30, 365):
            for shift in ("all", "night"):
                period = _period(days, shift)
                for name, extra in RESOURCES:
                    if prefixes and not name.startswith(prefixes):
                        continue
                    params = _params(client, name, extra, period)
                    path = f"/v2/Analytics/{name}"

                    p50, p95, cpu = measure_server(client, path, params, args.repeat)
                    label = ",".join(f"{k}={v}" for k, v in extra.items())
                    print(
                        f"{name:<34}{label:<28}{days:>6} d{shift:>7}  "
                        f"{p50:7.1f}/{p95:7.1f}{cpu:8.1f}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
