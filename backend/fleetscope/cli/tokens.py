"""``fleetscope tokens``: per-site API tokens for ``POST /v2/Ingest/vda5050``."""

from typing import Annotated

import typer

from fleetscope.appstore.audit import Actor
from fleetscope.cli.store import cli_store
from fleetscope.ingest.tokens import create_token, find_site, list_tokens, revoke_token

app = typer.Typer(help="Manage API tokens for HTTP ingestion.", no_args_is_help=True)


@app.command("create")
def create(
    site: Annotated[str, typer.Option(help="Site (id or name) the token writes for.")],
    name: Annotated[str, typer.Option(help="What the token is for.")] = "ingestion",
) -> None:
    """Create a token; it is printed once and only its SHA-256 is stored."""
    with cli_store() as session:
        token, plain = create_token(
            session, site=find_site(session, reference=site), name=name, by=Actor.cli()
        )
        typer.echo(f"created token {token.id} {token.name!r} for site {token.site_id}:", err=True)
        typer.echo(plain)


@app.command("list")
def list_command(
    site: Annotated[str, typer.Option(help="Site (id or name).")],
) -> None:
    """List the tokens of a site (never the secrets)."""
    with cli_store() as session:
        tokens = list_tokens(session, site=find_site(session, reference=site))
        if not tokens:
            typer.echo("no tokens yet: create one with `fleetscope tokens create --site ...`")
        for token in tokens:
            status = f"revoked {token.revoked_at:%Y-%m-%d}" if token.revoked_at else "active"
            used = token.last_used_at
            last = f"last used {used:%Y-%m-%d %H:%M}" if used else "never used"
            created = f"created {token.created_at:%Y-%m-%d}"
            typer.echo(f"{token.id:>4}  {token.name}  {created}  {last}  {status}")


@app.command("revoke")
def revoke(
    token_id: Annotated[int, typer.Argument(help="Id of the token.")],
    site: Annotated[str, typer.Option(help="Site (id or name) of the token.")],
) -> None:
    """Revoke a token: requests with it are refused from now on."""
    with cli_store() as session:
        token = revoke_token(
            session, site=find_site(session, reference=site), token_id=token_id, by=Actor.cli()
        )
        typer.echo(f"revoked token {token.id} {token.name!r}")
