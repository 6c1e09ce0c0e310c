"""Entry point of the ``fleetscope`` command. Each command group lives in its own module."""

import typer

from fleetscope.cli import demo, ingest, openapi, serve, simulate, tenants, tokens, users

app = typer.Typer(
    help="Fleetscope: analytics for fleets of automated vehicles.", no_args_is_help=True
)

app.command("serve")(serve.serve)
app.add_typer(users.app, name="users")
app.add_typer(tenants.organizations_app, name="organizations")
app.add_typer(tenants.sites_app, name="sites")
app.command("import")(ingest.import_command)
app.command("rebuild")(ingest.rebuild_command)
app.add_typer(tokens.app, name="tokens")
app.command("simulate")(simulate.simulate_command)
app.command("demo")(demo.demo_command)
app.command("openapi")(openapi.openapi_command)
