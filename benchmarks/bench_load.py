"""Many users on the analysis pages while the demo fleet keeps ingesting live.

Starts ``fleetscope demo`` (a fresh demo folder, ``--days`` of history backfilled, then the
server with the live fleet publishing to its private Mosquitto) on a loopback port, and
runs virtual users against it. A user loads a whole analysis page as the web app does:
``/v2/User/me``, then the saved settings, vehicles and sites together, then every
analytics call of the page together (the pages' calls, from ``frontend/src/pages``), over
the last 7 or 30 days; then reads it for 5-10 s and loads the next one. A 503 is answered
as the web app does: wait Retry-After, try again (at most ``--retries`` times); a page is
*refused* when a call is still 503 after that. Statusboard streams of both demo
organizations measure the delay from a message's timestamp to its tile arriving.

Per level: page time p50/p95/p99 (from the first call to the last answer, waits included),
pages, requests, 503 answers, refused pages, errors (any other non-2xx answer or transport
failure), the slowest request, the CPU of the server process (ingestion included) and of
this client in cores, the whole machine's busy share and load average, and the
statusboard delay (p50, p95, max). Levels run one after another on the same server; the
last is 200 users without think time. ``--flood RATE`` adds that many state messages per
second of 50 more vehicles during each level (QoS 0 to the demo's Mosquitto, from a
process of its own): whether heavy ingestion slows the pages, and API load the ingestion.
Loopback only; every level ends after ``--seconds``. Prints a Markdown table; asserts
nothing.

    .venv/bin/python benchmarks/bench_load.py [--users 25,50,100,200] [--seconds 60]
        [--days 30] [--port PORT] [--no-think-users 200] [--flood 0] [--nice 0]
"""

import argparse
import asyncio
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx2
import orjson
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

REPOSITORY = Path(__file__).resolve().parents[1]
FLEETSCOPE = Path(sys.executable).parent / "fleetscope"  # of the environment running this
ZONE = ZoneInfo("Europe/Berlin")
PASSWORD = "demo"
USERS = (
    "customer@demo.fleetscope",
    "customer2@demo.fleetscope",
    "partner@demo.fleetscope",
    "superuser@demo.fleetscope",
)
STREAM_USERS = ("customer@demo.fleetscope", "customer2@demo.fleetscope")
SHELL_FIRST = "/v2/User/me"
SHELL_THEN = ("/v2/User/settings", "/v2/Vehicles", "/v2/Sites")
A = "/v2/Analytics/"
# The analytics calls each page makes when it opens (frontend/src/pages/*/, src/api).
PAGES: dict[str, tuple[str, ...]] = {
    "productivity/analysis": (A + "Productivity",),
    "productivity/history": (A + "ProductivityHistory",),
    "dashboard": (A + "Dashboard", "/v2/User/dashboard-layout"),
    "processes/analysis": (A + "Processes",),
    "processes/workflows": (A + "Workflows",),
    "processes/actions": (A + "Actions",),
    "failures/analysis": (A + "Failures",),
    "failures/overview": (A + "FailureMatrix",),
    "failures/visualization": (A + "FailureMap", A + "FailureMatrix"),
    "failures/history": (A + "ErrorHistory", A + "FailureMatrix"),
    "battery": (A + "Battery",),
}
PERIOD_DAYS = (7, 30)
THINK_S = (5.0, 10.0)
SLOW_REQUEST_S = 10.0
REQUEST_TIMEOUT_S = 30.0
RETRY_AFTER_CAP_S = 4.0  # as the web app (frontend/src/api/busyRetry.ts)
CONNECTIONS_PER_USER = 6  # as a browser opens to one host


@dataclass
class Tally:
    page_times: list[float] = field(default_factory=list)
    requests: int = 0
    busy: int = 0  # 503 answers
    refused_pages: int = 0
    errors: int = 0
    server_errors: int = 0  # 5xx other than 503
    slowest_request_s: float = 0.0
    stale_connections: int = 0
    error_samples: list[str] = field(default_factory=list)

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(text)


@dataclass
class StreamDelays:
    delays: list[float] = field(default_factory=list)
    recording: bool = False


class Refused(Exception):
    """A call still answered 503 after the retries."""


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# --- the server --------------------------------------------------------------------------


@contextmanager
def demo_server(*, port: int, days: int, data_dir: Path) -> Iterator[int]:
    """``fleetscope demo`` on 127.0.0.1:port; yields its process id once it answers."""
    env = {**os.environ, "FLEETSCOPE_DATA_DIR": str(data_dir)}
    log = (data_dir.parent / f"{data_dir.name}.log").open("wb")
    process = subprocess.Popen(
        [str(FLEETSCOPE), "demo", "--port", str(port), "--days", str(days)],
        cwd=REPOSITORY,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 900
        with httpx2.Client(timeout=5) as probe:
            while True:
                if process.poll() is not None:
                    raise SystemExit(f"the demo ended early; see {log.name}")
                if time.monotonic() > deadline:
                    raise SystemExit("the demo did not answer within 15 minutes")
                try:
                    if probe.get(f"http://127.0.0.1:{port}/v2/User/me").status_code == 401:
                        break
                except httpx2.TransportError:
                    pass
                time.sleep(1)
        yield process.pid
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def process_cpu_s(pid: int) -> float:
    """User and system CPU seconds of a process (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu() -> tuple[int, int]:
    """(busy, total) jiffies of all cores since boot (``/proc/stat``)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


# --- extra ingestion ---------------------------------------------------------------------

FLOOD_VEHICLES = 50
FLOOD_SERIAL = "LOAD-{:02d}"  # new vehicles of the demo's Hamburg site (interface uagv)


def broker_port(data_dir: Path) -> int:
    """The port of the demo's private Mosquitto (its configuration file)."""
    for line in (data_dir / "mosquitto" / "mosquitto.conf").read_text().splitlines():
        if line.startswith("listener "):
            return int(line.split()[1])
    raise SystemExit("the demo's Mosquitto has no listener")


def flood(port: int, rate: float, seconds: float) -> None:
    """States of ``FLOOD_VEHICLES`` more vehicles at ``rate`` messages/s, timestamped now,
    QoS 0 as vehicles send them; in a process of its own, for ``seconds``."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-load-flood")
    client.connect("127.0.0.1", port)
    client.loop_start()
    started = time.monotonic()
    sent = 0
    while (elapsed := time.monotonic() - started) < seconds:
        due = int(elapsed * rate)
        for number in range(sent, due):
            vehicle = number % FLOOD_VEHICLES
            serial = FLOOD_SERIAL.format(vehicle + 1)
            state = {
                "headerId": number // FLOOD_VEHICLES + 1,
                "timestamp": datetime.now().astimezone().isoformat(timespec="milliseconds"),
                "version": "2.0.0",
                "manufacturer": "BenchLoad",
                "serialNumber": serial,
                "orderId": "",
                "orderUpdateId": 0,
                "lastNodeId": "",
                "lastNodeSequenceId": 0,
                "nodeStates": [],
                "edgeStates": [],
                "driving": number % 7 < 4,
                "actionStates": [],
                "batteryState": {"batteryCharge": 90 - number % 50, "charging": False},
                "operatingMode": "AUTOMATIC",
                "errors": [],
                "safetyState": {"eStop": "NONE", "fieldViolation": False},
            }
            topic = f"uagv/v2/BenchLoad/{serial}/state"
            client.publish(topic, orjson.dumps(state), qos=0)
        sent = max(sent, due)
        time.sleep(0.01)
    client.loop_stop()
    client.disconnect()


# --- the users ---------------------------------------------------------------------------


def period_params(days: int) -> dict[str, str]:
    today = datetime.now(ZONE).date()
    return {"from": (today - timedelta(days=days - 1)).isoformat(), "to": today.isoformat()}


async def get_as_a_browser(
    client: httpx2.AsyncClient, url: str, params: dict[str, str], tally: Tally
) -> httpx2.Response:
    """A GET; like a browser, once more on a fresh connection when a kept-alive one turns
    out closed by the server (uvicorn closes them after 5 s idle: a race, not an error)."""
    try:
        response = await client.get(url, params=params)
        await response.aread()
        return response
    except (httpx2.RemoteProtocolError, httpx2.ReadError):
        tally.stale_connections += 1
    response = await client.get(url, params=params)
    await response.aread()
    return response


async def call(
    client: httpx2.AsyncClient, url: str, params: dict[str, str], tally: Tally, retries: int
) -> None:
    for attempt in range(retries + 1):
        started = time.monotonic()
        try:
            response = await get_as_a_browser(client, url, params, tally)
        except httpx2.HTTPError as error:
            tally.requests += 1
            tally.error(f"{url}: {type(error).__name__}")
            raise
        elapsed = time.monotonic() - started
        tally.requests += 1
        tally.slowest_request_s = max(tally.slowest_request_s, elapsed)
        if response.status_code == 503:
            tally.busy += 1
            if attempt == retries:
                raise Refused(url)
            wait = float(response.headers.get("Retry-After", "1"))
            await asyncio.sleep(min(RETRY_AFTER_CAP_S, wait) * random.uniform(1.0, 1.5))
            continue
        if response.status_code >= 500:
            tally.server_errors += 1
        if response.status_code >= 300:
            tally.error(f"{url}: {response.status_code} {response.text[:120]}")
            raise RuntimeError(url)
        return


async def load_page(
    client: httpx2.AsyncClient, page: str, days: int, tally: Tally, retries: int
) -> None:
    started = time.monotonic()
    period = period_params(days)
    try:
        await call(client, SHELL_FIRST, {}, tally, retries)
        await asyncio.gather(*(call(client, url, {}, tally, retries) for url in SHELL_THEN))
        await asyncio.gather(*(call(client, url, period, tally, retries) for url in PAGES[page]))
    except Refused:
        tally.refused_pages += 1
        return
    except (httpx2.HTTPError, RuntimeError):
        return
    tally.page_times.append(time.monotonic() - started)


async def log_in(base: str, email: str) -> httpx2.AsyncClient:
    limits = httpx2.Limits(max_connections=CONNECTIONS_PER_USER)
    client = httpx2.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT_S, limits=limits)
    for _ in range(20):
        response = await client.post("/v2/User/login", json={"email": email, "password": PASSWORD})
        if response.status_code == 200:
            return client
        await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
    raise SystemExit(f"cannot log in {email}: {response.status_code} {response.text}")


async def user_loop(
    client: httpx2.AsyncClient, *, until: float, think: bool, tally: Tally, retries: int
) -> None:
    rng = random.Random()
    if think:  # users arrive spread over one reading time, not all in the same instant
        await asyncio.sleep(rng.uniform(0, THINK_S[1]))
    while time.monotonic() < until:
        page = rng.choice(list(PAGES))
        await load_page(client, page, rng.choice(PERIOD_DAYS), tally, retries)
        if think:
            await asyncio.sleep(rng.uniform(*THINK_S))


async def follow_statusboard(client: httpx2.AsyncClient, delays: StreamDelays) -> None:
    """Delay from each message's timestamp to its tile here (clocks of one machine)."""
    last_seen: dict[int, str] = {}
    while True:
        try:
            async with client.stream(
                "GET", "/v2/Analytics/Statusboard/stream", timeout=None
            ) as stream:
                event = ""
                async for line in stream.aiter_lines():
                    if line.startswith("event: "):
                        event = line.removeprefix("event: ")
                    elif line.startswith("data: ") and event == "tile":
                        arrived = datetime.now().astimezone()
                        tile = orjson.loads(line.removeprefix("data: "))["vehicle"]
                        stamp = tile.get("lastMessageAt")
                        # Only a new message counts (not the clock's offline tick).
                        if stamp and last_seen.get(tile["vehicleId"]) != stamp:
                            last_seen[tile["vehicleId"]] = stamp
                            sent = datetime.fromisoformat(stamp)
                            if delays.recording:
                                delays.delays.append((arrived - sent).total_seconds())
        except httpx2.HTTPError:
            await asyncio.sleep(1)


@dataclass(frozen=True)
class Level:
    users: int
    think: bool
    flood: bool = False


async def run_level(
    level: Level,
    clients: list[httpx2.AsyncClient],
    *,
    seconds: float,
    retries: int,
    server_pid: int,
    delays: StreamDelays,
    flood_to: tuple[int, float] | None,
) -> dict[str, float | int | str]:
    tally = Tally()
    delays.delays.clear()
    delays.recording = True
    flooding = None
    if flood_to is not None:
        flooding = multiprocessing.get_context("spawn").Process(
            target=flood, args=(*flood_to, seconds), daemon=True
        )
        flooding.start()
    cpu_before, machine_before = process_cpu_s(server_pid), machine_cpu()
    client_before = time.process_time()
    started = time.monotonic()
    until = started + seconds
    await asyncio.gather(
        *(
            user_loop(client, until=until, think=level.think, tally=tally, retries=retries)
            for client in clients[: level.users]
        )
    )
    wall = time.monotonic() - started
    delays.recording = False
    if flooding is not None:
        flooding.join(timeout=30)
    busy, total = (a - b for a, b in zip(machine_cpu(), machine_before, strict=True))
    times = tally.page_times
    return {
        "users": level.users,
        "think": "5-10 s" if level.think else "none",
        "flood": f"+{flood_to[1]:g} msg/s" if flood_to else "",
        "pages": len(times) + tally.refused_pages,
        "p50": statistics.median(times) if times else float("nan"),
        "p95": percentile(times, 0.95),
        "p99": percentile(times, 0.99),
        "requests": tally.requests,
        "busy503": tally.busy,
        "refused": tally.refused_pages,
        "refused_share": tally.refused_pages / max(1, len(times) + tally.refused_pages),
        "errors": tally.errors,
        "server_errors": tally.server_errors,
        "slowest": tally.slowest_request_s,
        "server_cores": (process_cpu_s(server_pid) - cpu_before) / wall,
        "client_cores": (time.process_time() - client_before) / wall,
        "stale": tally.stale_connections,
        "machine_busy": busy / max(1, total),
        "load1": os.getloadavg()[0],
        "tiles": len(delays.delays),
        "delay_p50": statistics.median(delays.delays) if delays.delays else float("nan"),
        "delay_p95": percentile(delays.delays, 0.95),
        "delay_max": max(delays.delays, default=float("nan")),
        "samples": "; ".join(tally.error_samples),
    }


def print_row(row: dict[str, float | int | str]) -> None:
    print(
        f"| {row['users']} | {row['think']} {row['flood']} | {row['pages']} | "
        f"{row['p50']:.2f} / {row['p95']:.2f} / {row['p99']:.2f} s | {row['requests']} | "
        f"{row['busy503']} | {row['refused']} ({100 * float(row['refused_share']):.1f} %) | "
        f"{row['errors']} ({row['server_errors']} 5xx) | {row['slowest']:.2f} s | "
        f"{row['server_cores']:.2f} / {row['client_cores']:.2f} | "
        f"{100 * float(row['machine_busy']):.0f} % / "
        f"{row['load1']:.1f} | {row['delay_p50']:.2f} / {row['delay_p95']:.2f} / "
        f"{row['delay_max']:.2f} s ({row['tiles']}) |",
        flush=True,
    )
    if row["samples"] or row["stale"]:
        stale = f"{row['stale']} kept-alive connections found closed and retried"
        print(f"|   {stale}; errors: {row['samples'] or 'none'} |", flush=True)


async def run(args: argparse.Namespace, server_pid: int) -> None:
    base = f"http://127.0.0.1:{args.port}"
    levels = [
        Level(int(users.rstrip("+")), think=True, flood=users.endswith("+") or args.flood_all)
        for users in args.users
    ]
    if args.no_think_users:
        levels.append(Level(args.no_think_users, think=False, flood=args.flood_all))
    most = max(level.users for level in levels)
    clients = []
    for number in range(most):  # one after another: logins are deliberately slow (Argon2)
        clients.append(await log_in(base, USERS[number % len(USERS)]))
    streams = [await log_in(base, email) for email in STREAM_USERS]
    delays = StreamDelays()
    followers = [asyncio.create_task(follow_statusboard(s, delays)) for s in streams]
    # One pass over every page warms the server (imports, the first reads).
    warm = Tally()
    for page in PAGES:
        for days in PERIOD_DAYS:
            await load_page(clients[0], page, days, warm, args.retries)
    print(
        "| users | think | pages | page time p50 / p95 / p99 | requests | 503 | refused "
        "pages | errors | slowest request | CPU server / client (cores) | machine busy / load | "
        "statusboard delay p50 / p95 / max (tiles) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")

    def flooded(level: Level) -> bool:
        return level.flood and args.flood > 0

    try:
        for level in levels:
            row = await run_level(
                level,
                clients,
                seconds=args.seconds,
                retries=args.retries,
                server_pid=server_pid,
                delays=delays,
                flood_to=(broker_port(args.data), args.flood) if flooded(level) else None,
            )
            print_row(row)
            await asyncio.sleep(args.pause)
    finally:
        for follower in followers:
            follower.cancel()
        for client in [*clients, *streams]:
            await client.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--users", default="25,50,100,200")
    parser.add_argument("--no-think-users", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pause", type=float, default=5.0, help="seconds between levels")
    parser.add_argument("--retries", type=int, default=3, help="retries of a 503, as the app")
    parser.add_argument("--days", type=int, default=30, help="days of demo history")
    parser.add_argument(
        "--flood",
        type=float,
        default=0.0,
        help=f"messages/s of {FLOOD_VEHICLES} more vehicles published during each level, "
        "or only those marked + in --users (100,100+: the same level without and with)",
    )
    parser.add_argument("--port", type=int, default=0, help="default: a free one")
    parser.add_argument("--data", type=Path, default=REPOSITORY / "var" / "bench-load")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="change the priority of this script and the server by this much (root may "
        "lower it, e.g. -10, so other jobs of a shared machine take less of their CPU)",
    )
    args = parser.parse_args()
    args.users = [users for users in args.users.split(",") if users]
    args.flood_all = not any(users.endswith("+") for users in args.users)
    args.port = args.port or free_port()
    if args.nice:
        os.nice(args.nice)  # the demo server, started below, inherits it
    # A terminated benchmark still stops its demo server (the ``finally`` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    if not FLEETSCOPE.exists():
        sys.exit(f"{FLEETSCOPE} not found: run `make install` first")
    args.data.parent.mkdir(parents=True, exist_ok=True)
    print(f"demo with {args.days} days of history on 127.0.0.1:{args.port} ...", flush=True)
    started = time.monotonic()
    with demo_server(port=args.port, days=args.days, data_dir=args.data) as pid:
        print(f"serving after {time.monotonic() - started:.0f} s", flush=True)
        asyncio.run(run(args, pid))


if __name__ == "__main__":
    main()
