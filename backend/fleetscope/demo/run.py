"""``fleetscope demo``: a fresh demo installation with history and a live fleet.

Steps: reset the demo data folder, migrate and seed the application store, backfill the
history through the ingestion pipeline, start a private Mosquitto, serve the app with MQTT
ingestion and publish the live part of the simulation to the broker in real time.
"""

import shutil
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import typer

from fleetscope.appstore.db import migrate, store_session
from fleetscope.demo.backfill import SplitStream, backfill, demo_stream
from fleetscope.demo.seed import DEMO_LOGINS, seed_demo
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.settings import Settings
from fleetscope.simulator.sinks import MqttTarget, PublishOptions, publish_mqtt

# Only a folder this marker names is ever deleted by a demo reset.
_MARKER = ".fleetscope-demo"


@dataclass(frozen=True)
class DemoOptions:
    days: int
    live: bool
    serve: bool
    host: str
    port: int


def reset_demo_folder(data_dir: Path) -> None:
    if data_dir.exists():
        if not (data_dir / _MARKER).exists() and any(data_dir.iterdir()):
            raise typer.BadParameter(
                f"{data_dir} holds data that is not a demo's; choose another FLEETSCOPE_DATA_DIR"
            )
        shutil.rmtree(data_dir)
    data_dir.mkdir(parents=True)
    (data_dir / _MARKER).write_text("created by `fleetscope demo`; deleted at its next start\n")


def _wait_for_port(host: str, port: int, *, timeout_s: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def _publish_live(stream: SplitStream, broker: PrivateMosquitto, options: DemoOptions) -> None:
    # The server subscribes during its start-up: publish only once it listens.
    if not _wait_for_port(options.host, options.port):
        typer.echo("The server did not start; the live fleet stays parked.", err=True)
        return
    time.sleep(1.0)
    publish_mqtt(
        stream.live(),
        target=MqttTarget.from_url(broker.url),
        options=PublishOptions(wall_clock=True, state_qos=0, connection_qos=1),
    )


def print_logins(url: str) -> None:
    typer.echo(f"\nFleetscope demo at {url}")
    typer.echo("Demo logins (password for all: demo):")
    for login in DEMO_LOGINS:
        where = login.organization or ", ".join(login.linked_organizations) or "all organizations"
        typer.echo(f"  {login.email:<28} {login.role.value:<10} {where}")
    typer.echo("Stop with Ctrl+C.\n")


def run_demo(*, settings: Settings, options: DemoOptions) -> None:
    reset_demo_folder(settings.data_dir)
    migrate(settings)
    with store_session(settings) as session:
        seed_demo(session)
    stream = demo_stream(days=options.days)
    if options.days > 0:
        typer.echo(f"Backfilling {options.days} days of the demo fleet through the ingestion...")
        result = backfill(settings=settings, stream=stream)
        typer.echo(
            f"Backfill: {result.accepted:,} messages in {result.seconds:.1f} s "
            f"({result.per_second:,.0f} per second), {len(result.rejected)} rejected"
        )
    if not options.serve:
        return
    from fleetscope.cli.serve import run_server

    broker: PrivateMosquitto | None = None
    if options.live:
        broker = PrivateMosquitto(workdir=settings.data_dir / "mosquitto")
        broker.start()
        settings = settings.model_copy(update={"mqtt_url": broker.url})
        threading.Thread(
            target=_publish_live, args=(stream, broker, options), name="live-fleet", daemon=True
        ).start()
    print_logins(f"http://{options.host}:{options.port}/")
    try:
        run_server(settings=settings, host=options.host, port=options.port)
    finally:
        if broker is not None:
            broker.stop()
