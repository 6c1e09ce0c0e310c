"""Every analytics resource of the real server on the generated fleet while it ingests live.

Copies the fleet of ``generate_fleet.py`` (default ``var/bench``) to ``--work``, starts a
private Mosquitto and ``fleetscope serve`` on it, and times the process start to its first
dashboard. Then the fleet's own vehicles publish continuing states of the present
(simulator, ``--rate``/s, QoS 0) while each resource is called ``--repeat`` times per cell
(30 and 365 days, all shifts and night) with a login cookie: p50/p95 of the server time
(``Server-Timing``) and of the wall time, beside the same question in plain SQL on the raw
facts (``live_plain_sql.py``, on a copy taken before the server started) and the ratio of
the p50s. Then the server's RSS and peak, states published and stored, and the load
average and a fixed reference workload's time (``bench_support.machine_speed``) at start and
end. Prints targets beside the figures; asserts nothing.

    .venv/bin/python benchmarks/bench_live.py [--data var/bench] [--repeat 20]
        [--plain-repeat 3] [--rate 1000] [--only Processes,Battery]
"""

import argparse
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import httpx2
from bench_support import (
    cpu_seconds,
    feed_live,
    free_port,
    load,
    machine_speed,
    memory_mb,
    stored_since,
    windows,
)
from generate_fleet import BENCH_PASSWORD, BENCH_USER, ZONE
from live_plain_sql import QUESTIONS, answer
from server_timing import percentiles, server_ms

from fleetscope.appstore.db import create_db_engine, make_session_factory
from fleetscope.appstore.models import Site, Vehicle
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.settings import Settings

FLEETSCOPE = Path(sys.executable).parent / "fleetscope"  # of the environment running this
SITE_ZONE = ZoneInfo(ZONE)
WORKFLOW, ACTION = "TRANSPORT_A", "pick"
FIRST_ANSWER_S = 5.0  # issue 24's target from the process start
# (label, resource, extra parameters, the plain-SQL question)
CASES: list[tuple[str, str, dict[str, str], str]] = [
    ("Productivity per vehicle", "Productivity", {}, "productivity_vehicle"),
    ("Productivity combined", "Productivity", {"combined": "true"}, "productivity_fleet"),
    ("History per vehicle", "ProductivityHistory", {}, "history_vehicle"),
    ("History combined", "ProductivityHistory", {"combined": "true"}, "history_fleet"),
    ("Dashboard", "Dashboard", {}, "dashboard"),
    ("Statusboard", "Statusboard", {}, "statusboard"),
    ("Processes", "Processes", {}, "processes"),
    ("Workflows", "Workflows", {}, "workflows"),
    ("Workflows heatmap cell", "Workflows", {"weekday": "0", "hour": "10"}, "workflows_cell"),
    ("Workflow orders", f"Workflows/{WORKFLOW}/Orders", {}, "workflow_orders"),
    ("Workflow histogram", f"Workflows/{WORKFLOW}/Histogram", {}, "workflow_histogram"),
    ("Actions", "Actions", {}, "actions"),
    ("Action failures", f"Actions/{ACTION}/Failures", {}, "action_failures"),
    ("Failures", "Failures", {}, "failures"),
    ("FailureMatrix", "FailureMatrix", {}, "failure_matrix"),
    ("FailureMap", "FailureMap", {}, "failure_map"),
    ("ErrorHistory first page", "ErrorHistory", {"page": "1"}, "error_history_first"),
    ("ErrorHistory last page", "ErrorHistory", {"page": "last"}, "error_history_last"),
    ("Battery", "Battery", {}, "battery"),
    ("Battery combined", "Battery", {"combined": "true"}, "battery_fleet"),
    ("Charge sessions first page", "Battery/Sessions", {"page": "1"}, "charge_sessions_first"),
    ("Charge sessions last page", "Battery/Sessions", {"page": "last"}, "charge_sessions_last"),
]


def prepare(data: Path, work: Path) -> tuple[Path, Path, list[int]]:
    """The server's copy of the fleet (its site receiving MQTT interface ``uagv``), the
    plain-SQL copy of the fact store, and the fleet's vehicle ids."""
    if work.exists():
        shutil.rmtree(work)
    run = work / "run"
    shutil.copytree(data, run)
    plain = work / "plain.duckdb"
    shutil.copyfile(data / "facts.duckdb", plain)
    engine = create_db_engine(url=f"sqlite:///{(run / 'fleetscope.sqlite').resolve()}")
    with make_session_factory(engine)() as session:
        for site in session.query(Site):
            site.mqtt_interface = "uagv"
        session.commit()
        vehicles = sorted(v.id for v in session.query(Vehicle))
    engine.dispose()
    return run, plain, vehicles


@contextmanager
def server(run: Path, *, broker: PrivateMosquitto, port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "FLEETSCOPE_DATA_DIR": str(run.resolve()),
        "FLEETSCOPE_MQTT_URL": broker.url,
        "FLEETSCOPE_MQTT_CLIENT_ID": f"bench-live-{uuid.uuid4().hex[:6]}",
        "FLEETSCOPE_FRONTEND_DIST": str((run / "no-frontend").resolve()),
    }
    log = (run.parent / "server.log").open("wb")
    # cwd: the run folder, so no .env of the repository changes the settings.
    command = [str(FLEETSCOPE), "serve", "--port", str(port)]
    process = subprocess.Popen(command, cwd=run, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def first_answer(
    process: subprocess.Popen[bytes], client: httpx2.Client, started: float
) -> tuple[float, float]:
    """Seconds from the process start to a successful login and to the first dashboard."""
    login = {"email": BENCH_USER, "password": BENCH_PASSWORD}
    logged_in = None
    while True:
        if process.poll() is not None:
            raise SystemExit("the server ended early; see server.log in --work")
        try:
            if logged_in is None:
                client.post("/v2/User/login", json=login).raise_for_status()
                logged_in = time.monotonic() - started
            response = client.get("/v2/Analytics/Dashboard", params=period(30, "all"))
            if response.status_code == 200:
                return logged_in, time.monotonic() - started
        except httpx2.TransportError:
            pass
        time.sleep(0.05)


def period(days: int, shift: str) -> dict[str, str]:
    today = datetime.now(SITE_ZONE).date()
    start = today - timedelta(days=days - 1)
    return {"from": start.isoformat(), "to": today.isoformat(), "shift": shift}


def ask_server(
    client: httpx2.Client, path: str, params: dict[str, str], repeat: int
) -> tuple[list[float], list[float]]:
    """Server times and wall times (ms) of ``repeat`` calls after one warm-up."""
    url = f"/v2/Analytics/{path}"
    if params.get("page") == "last":
        first = client.get(url, params={**params, "page": "1"})
        first.raise_for_status()
        params = {**params, "page": str(max(1, first.json()["data"]["pages"]))}
    client.get(url, params=params).raise_for_status()
    server, wall = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url, params=params)
        wall.append((time.perf_counter() - started) * 1000)
        response.raise_for_status()
        server.append(server_ms(response.headers))
    return server, wall


def ask_plain(plain: duckdb.DuckDBPyConnection, question: str, days: int, shift: str,
              vehicles: list[int], repeat: int) -> list[float]:  # fmt: skip
    """Wall times (ms) of ``repeat`` answers in plain SQL (no warm-up: each cell follows
    others on the same tables)."""
    samples = []
    for _ in range(repeat):
        today, now = datetime.now(SITE_ZONE).date(), datetime.now(UTC)
        previous = QUESTIONS[question][1]
        spans = windows(today=today, days=days, shift=shift, now=now, zone=SITE_ZONE,
                        previous=previous)  # fmt: skip
        values = {"v": vehicles, "wf": WORKFLOW, "at": ACTION, "zone": ZONE}
        started = time.perf_counter()
        answer(plain, question, spans=spans, values=values)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def targets(vehicles: int) -> tuple[dict[int, float | None], float]:
    """Issue 24: p95 (ms) per period length and RSS (MB); 300 vehicles: 1.5 s for 365 days,
    1 GB (no figure for 30 days)."""
    return ({30: 150.0, 365: 500.0}, 800.0) if vehicles <= 100 else ({365: 1500.0}, 1024.0)


def measure(args: argparse.Namespace, client: httpx2.Client, vehicles: list[int]) -> None:
    goal, _ = targets(len(vehicles))
    settings = Settings(_env_file=None)  # the server's default, unless set for both
    limit = settings.fact_store_memory_limit
    plain = duckdb.connect(
        str(args.work / "plain.duckdb"), read_only=True, config={"memory_limit": limit}
    )
    plain.execute("SET TimeZone = 'UTC'")
    plain.execute("SET enable_progress_bar = false")
    print(
        f"{'resource':<26}{'period':>7}{'shift':>7} {'server p50/p95':>16} {'wall p50/p95':>16}"
        f" {'plain SQL p50/p95':>18} {'server/plain':>12} {'target p95':>11}   (ms; plain SQL "
        f"with DuckDB's memory limit {limit}, as the server)",
        flush=True,
    )
    prefixes = tuple(p.strip() for p in args.only.split(",") if p.strip())
    for days in (int(d) for d in args.days.split(",")):
        for shift in ("all", "night"):
            for label, path, extra, question in CASES:
                if prefixes and not label.startswith(prefixes):
                    continue
                params = {**period(days, shift), "combined": "false", **extra}
                server, wall = ask_server(client, path, params, args.repeat)
                s50, s95 = percentiles(server)
                w50, w95 = percentiles(wall)
                text, ratio = "-", "-"
                if args.plain_repeat > 0:
                    try:
                        p50, p95 = percentiles(
                            ask_plain(plain, question, days, shift, vehicles, args.plain_repeat)
                        )
                        text, ratio = f"{p50:8.1f}/{p95:8.1f}", f"{s50 / p50:11.2f}x"
                    except duckdb.OutOfMemoryException:
                        # quantile_cont keeps every value in memory: beyond the limit, no answer
                        text = "out of memory"
                target = goal.get(days)
                mark = (
                    "-" if target is None else f"{target:.0f} {'ok' if s95 <= target else 'OVER'}"
                )
                print(
                    f"{label:<26}{days:>5} d{shift:>7} {s50:7.1f}/{s95:7.1f}  {w50:7.1f}/{w95:7.1f}"
                    f"  {text:>18} {ratio:>12} {mark:>11}",
                    flush=True,
                )
    plain.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("var/bench"))
    parser.add_argument("--work", type=Path, default=Path("var/bench-live"))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--plain-repeat", type=int, default=3, help="0: no plain-SQL baseline")
    parser.add_argument("--rate", type=float, default=1000.0, help="states per second")
    parser.add_argument("--warm-up", type=float, default=10.0, help="seconds of feeding first")
    parser.add_argument("--days", default="30,365")
    parser.add_argument("--only", default="", help="comma-separated label prefixes")
    args = parser.parse_args()
    if not (args.data / "facts.duckdb").exists():
        sys.exit(f"no fleet in {args.data}: run benchmarks/generate_fleet.py --out {args.data}")
    load_start = os.getloadavg()
    run, _, vehicles = prepare(args.data, args.work)
    print(f"fleet: {len(vehicles)} vehicles from {args.data}; load average {load(load_start)}")
    print(f"machine at the start: {machine_speed()}", flush=True)
    port = free_port()
    _, rss_target = targets(len(vehicles))
    with (
        PrivateMosquitto(workdir=(args.work / "mosquitto").resolve()) as broker,
        httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client,
    ):
        started = time.monotonic()
        with server(run, broker=broker, port=port) as process:
            logged_in, first = first_answer(process, client, started)
            print(
                f"process start to login {logged_in:.2f} s, to the first dashboard (30 days) "
                f"{first:.2f} s (target {FIRST_ANSWER_S:.0f} s); server CPU until then "
                f"{cpu_seconds(process.pid):.2f} s",
                flush=True,
            )
            context = multiprocessing.get_context("spawn")
            stop, published = context.Event(), context.Value("q", 0)
            feed_start = datetime.now(UTC)
            feeder = context.Process(
                target=feed_live,
                args=(broker.port, len(vehicles), args.rate, stop, published),
                daemon=True,
            )
            feeder.start()
            while not published.value and feeder.is_alive():
                time.sleep(0.1)
            fed = time.monotonic()
            time.sleep(args.warm_up)
            measure(args, client, vehicles)
            tiles = client.get("/v2/Analytics/Statusboard").json()["data"]["vehicles"]
            lags = sorted(t["secondsSinceLastMessage"] or 0.0 for t in tiles)
            stop.set()
            feeder.join(timeout=30)
            feed_s = time.monotonic() - fed
            rss, peak = memory_mb(process.pid)
        count = stored_since(run / "facts.duckdb", feed_start)
    load_end = os.getloadavg()
    print(
        f"server memory after the run: RSS {rss:.0f} MB, peak {peak:.0f} MB "
        f"(target {rss_target:.0f} MB)"
    )
    print(
        f"live feed: {published.value:,} states published in {feed_s:.0f} s "
        f"({published.value / feed_s:,.0f}/s), {count:,} stored ({count / feed_s:,.0f}/s); "
        f"statusboard at the end: last message median {lags[len(lags) // 2]:.1f} s, "
        f"max {lags[-1]:.1f} s ago"
    )
    print(f"load average (1, 5, 15 min): start {load(load_start)}, end {load(load_end)}")
    print(f"machine at the end: {machine_speed()}")


if __name__ == "__main__":
    main()
