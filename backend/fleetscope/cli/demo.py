"""``fleetscope demo``: set up and start the demo (embedded stores, simulated fleet, live data)."""

from pathlib import Path
from typing import Annotated

import typer

from fleetscope.demo.run import DemoOptions, run_demo
from fleetscope.settings import get_settings


def demo_command(
    port: Annotated[int, typer.Option(envvar="PORT", help="Port of the web app.")] = 8000,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    days: Annotated[int, typer.Option(min=0, max=90, help="Days of history to backfill.")] = 30,
    live: Annotated[
        bool,
        typer.Option(
            help="Run a live fleet over a private Mosquitto. --no-live: history only, and the "
            "server subscribes to FLEETSCOPE_MQTT_URL if that is set."
        ),
    ] = True,
    serve: Annotated[bool, typer.Option(help="Start the server after preparing.")] = True,
    data_dir: Annotated[
        Path, typer.Option(envvar="FLEETSCOPE_DATA_DIR", help="Demo data folder (reset).")
    ] = Path("var/demo"),
) -> None:
    """Reset and start the demo: tenants, users, history and a live simulated fleet."""
    settings = get_settings().model_copy(update={"data_dir": data_dir})
    options = DemoOptions(days=days, live=live, serve=serve, host=host, port=port)
    run_demo(settings=settings, options=options)
