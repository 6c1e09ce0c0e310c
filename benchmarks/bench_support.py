"""Set-up shared by the benchmarks: an app store, the windows of a period, a live fleet."""

import os
import socket
import time as clock
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from sqlalchemy import Engine, create_engine

from fleetscope.appstore.db import make_session_factory
from fleetscope.appstore.models import Base
from fleetscope.appstore.organizations import create_organization, create_site
from fleetscope.simulator import default_scenario, simulate
from fleetscope.simulator.scenario import ProtocolVersion, Scenario

BENCH_MANUFACTURER = "Bench"  # generate_fleet.py's vehicles


def one_site_app_store(url: str, *, interface: str = "uagv") -> Engine:
    """An application store at ``url`` holding one organization with one site that receives
    the MQTT ``interface``; the schema comes from the models (no migrations to wait for)."""
    engine = create_engine(url)
    Base.metadata.create_all(engine)
    with make_session_factory(engine)() as session:
        organization = create_organization(session, name="Bench")
        create_site(session, organization=organization, name="Bench", mqtt_interface=interface)
    return engine


# --- the windows of a period ------------------------------------------------------------

# (0 current / 1 previous, UTC day of its start as days since 1970, start, end in UTC)
Window = tuple[int, int, datetime, datetime]


def windows(
    *, today: date, days: int, shift: str, now: datetime, zone: ZoneInfo, previous: bool
) -> list[Window]:
    """T (and the period before it) as one window per site-local day or night shift."""
    first = today - timedelta(days=days - 1)
    periods = [(0, first)] + ([(1, first - timedelta(days=days))] if previous else [])
    result: list[Window] = []
    for tag, start_day in periods:
        lower = datetime.combine(start_day, time(), zone)
        upper = min(now, datetime.combine(start_day + timedelta(days=days), time(), zone))
        for offset in range(-1, days):
            day = start_day + timedelta(days=offset)
            if shift == "night":  # 22:00 to 06:00, the part inside the period's days
                begin = datetime.combine(day, time(22), zone)
                end = datetime.combine(day + timedelta(days=1), time(6), zone)
            elif offset >= 0:
                begin = datetime.combine(day, time(), zone)
                end = datetime.combine(day + timedelta(days=1), time(), zone)
            else:
                continue
            begin, end = max(begin, lower), min(end, upper)
            if begin < end:
                result.append((tag, int(begin.timestamp() // 86_400), begin, end))
    return result


# --- a live fleet: the generated fleet's own vehicles, publishing now --------------------


def fleet_scenario(*, vehicles: int, rate: float) -> Scenario:
    """The simulator's warehouse with the vehicles of ``generate_fleet.py`` (manufacturer
    Bench, serials B-001...), each reporting a state every ``vehicles / rate`` seconds, so
    the fleet sends about ``rate`` states per second; no offline episodes."""
    base = default_scenario(vehicles=1, manufacturer=BENCH_MANUFACTURER)
    specs = tuple(
        replace(base.vehicles[0], serial_number=bench_serial(n), offline_per_day=0.0)
        for n in range(1, vehicles + 1)
    )
    beat = vehicles / rate
    return replace(
        base,
        vehicles=tuple(replace(s, version=ProtocolVersion.V2_0) for s in specs),
        heartbeat_seconds=beat,
        position_seconds=beat,
    )


def feed_live(
    port: int, vehicles: int, rate: float, stop: Event, published: "Synchronized[int]"
) -> None:
    """Publishes the fleet's states to the broker on ``port`` (QoS 0, as vehicles send them)
    as their timestamps come due, until ``stop``; a process of its own.

    The simulation brings one vehicle online per second, so it starts ``vehicles`` seconds
    in the past; what lies before the first due state is skipped (the simulation itself
    takes seconds to start), so every vehicle continues at full rate with present states."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=f"bench-live-{uuid.uuid4().hex[:6]}"
    )
    client.connect("127.0.0.1", port)
    client.loop_start()
    run = simulate(
        fleet_scenario(vehicles=vehicles, rate=rate),
        seed=24,
        start=datetime.fromtimestamp(clock.time() - vehicles - 10, UTC),
        duration=timedelta(hours=6),
    )
    sent = 0
    for at_ms, topic, payload in run.timed_messages():
        wait = at_ms / 1000 - clock.time()
        if wait < 0 and not sent:
            continue  # the past (the simulation takes seconds to start)
        if wait > 0.002:
            clock.sleep(wait)
        if stop.is_set():
            break
        client.publish(topic, payload, qos=0)
        sent += 1
        if sent % 200 == 0:
            published.value = sent
    published.value = sent
    client.loop_stop()
    client.disconnect()


def bench_serial(number: int) -> str:
    return f"B-{number:03d}"


def memory_mb(pid: int) -> tuple[float, float]:
    """Resident memory and its peak (``VmRSS``, ``VmHWM`` of ``/proc/<pid>/status``) in MB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return (
        int(fields["VmRSS"].split()[0]) / 1024,
        int(fields["VmHWM"].split()[0]) / 1024,
    )


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def load(average: tuple[float, float, float]) -> str:
    """``os.getloadavg()`` as 1 / 5 / 15 minutes."""
    return " / ".join(f"{value:.1f}" for value in average)


def call_times(call: Callable[[], object], repeat: int) -> list[float]:
    """Wall time of each of ``repeat`` calls, in ms."""
    times = []
    for _ in range(repeat):
        started = clock.perf_counter()
        call()
        times.append((clock.perf_counter() - started) * 1000)
    return times


def machine_speed() -> str:
    """A fixed reference workload, best of three, so that runs on a machine whose speed drifts
    (shared cores) can be compared: DuckDB summing 20 M hashes on its threads, and Python
    summing 2 M squares on one core."""
    with duckdb.connect() as engine:
        sql = "SELECT sum(hash(i)) FROM range(20000000) t(i)"
        engine_ms = min(call_times(lambda: engine.execute(sql).fetchall(), 3))
    python_ms = min(call_times(lambda: sum(i * i for i in range(2_000_000)), 3))
    return f"reference workload: DuckDB {engine_ms:.0f} ms, Python {python_ms:.0f} ms"


def stored_since(facts: Path, since: datetime) -> int:
    """States stored in the fact store file ``facts`` that were sent from ``since`` on."""
    with duckdb.connect(str(facts), read_only=True) as store:
        sql = "SELECT count(*) FROM raw_keys WHERE kind = 'state' AND sent_at >= ?"
        return int(store.execute(sql, [since]).fetchall()[0][0])
