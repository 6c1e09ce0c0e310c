"""Entry point of the ``fleetscope`` command. Each command group lives in its own module."""

import typer

app = typer.Typer(help="Fleetscope: analytics for fleets of automated vehicles.", no_args_is_help=True)
