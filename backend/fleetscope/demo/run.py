"""``fleetscope demo``: a fresh demo installation with history and a live fleet.

Steps: reset the demo data folder, migrate and seed the application store, start a private
Mosquitto, backfill the history through the ingestion pipeline while the fleet process
generates it, then serve the app with MQTT ingestion while the fleet goes on live.
Without live, the server subscribes to the broker of ``FLEETSCOPE_MQTT_URL`` if one is set
(the end-to-end tests publish their own vehicle messages there).
"""

import shutil
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import typer

from fleetscope.appstore.db import migrate, store_session
from fleetscope.cli.progress import Step, progress_report
from fleetscope.cli.serve import run_server
from fleetscope.demo.backfill import backfill
from fleetscope.demo.fleet import DemoFleet, FleetPlan, FleetProgress, now_utc
from fleetscope.demo.seed import DEMO_LOGINS, seed_demo
from fleetscope.ingest.batch import ImportResult
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.settings import Settings

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


def print_logins(url: str) -> None:
    typer.echo(f"\nFleetscope demo at {url}")
    typer.echo("Demo logins (password for all: demo):")
    for login in DEMO_LOGINS:
        where = login.organization or ", ".join(login.linked_organizations) or "all organizations"
        typer.echo(f"  {login.email:<28} {login.role.value:<10} {where}")
    typer.echo("Stop with Ctrl+C.\n")


def _stop_on_sigterm() -> None:
    # uvicorn re-raises the signal it caught once it has shut down; with Python's default
    # SIGTERM action the process would die before the broker and the fleet are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))


def backfill_step(*, ingested: int, fleet: FleetProgress) -> Step:
    """Where the backfill is: messages ingested here and by the fleet process. The total is
    extrapolated from the messages generated so far and the share of the history's time
    span they cover (generation runs ahead of ingestion)."""
    done = ingested + int(fleet.shared_messages.value)
    fraction = fleet.fraction()
    total = max(round(int(fleet.generated.value) / fraction), done) if fraction > 0 else None
    return Step(done=done, total=total, messages=done, estimated=True)


def _backfill_with_progress(*, settings: Settings, fleet: DemoFleet) -> ImportResult:
    with progress_report("backfill") as report:

        def show(so_far: ImportResult) -> None:
            report.update(backfill_step(ingested=so_far.lines, fleet=fleet.progress))

        result = backfill(settings=settings, messages=fleet.history(), progress=show)
        # The result counts the fleet process's share too: the real total at last.
        report.finish(Step(done=result.lines, total=result.lines, messages=result.lines))
    return result


def run_demo(*, settings: Settings, options: DemoOptions) -> None:
    _stop_on_sigterm()
    reset_demo_folder(settings.data_dir)
    migrate(settings)
    with store_session(settings) as session:
        seed_demo(session)
    live = options.live and options.serve
    broker = PrivateMosquitto(workdir=settings.data_dir / "mosquitto") if live else None
    fleet = DemoFleet(
        FleetPlan(
            days=options.days,
            split_at=now_utc(),
            broker_url=broker.url if broker else None,
            server=(options.host, options.port),
        )
    )
    try:
        if broker is not None:
            broker.start()
            settings = settings.model_copy(update={"mqtt_url": broker.url})
        fleet.start()
        typer.echo(f"Backfilling {options.days} days of the demo fleet through the ingestion...")
        started = time.perf_counter()
        result = _backfill_with_progress(settings=settings, fleet=fleet)
        typer.echo(
            f"Backfill: {result.accepted:,} messages in {time.perf_counter() - started:.1f} s "
            f"({len(result.rejected)} rejected, {result.duplicates} duplicates)"
        )
        if options.serve:
            print_logins(f"http://{options.host}:{options.port}/")
            run_server(settings=settings, host=options.host, port=options.port)
    finally:
        fleet.stop()
        if broker is not None:
            broker.stop()
