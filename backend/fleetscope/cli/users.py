"""``fleetscope users``: accounts, roles and partner links of a real installation."""

from typing import Annotated

import typer

from fleetscope.appstore.admin_users import delete_user
from fleetscope.appstore.audit import Actor
from fleetscope.appstore.models import Organization
from fleetscope.appstore.organizations import get_organization
from fleetscope.appstore.users import (
    create_user,
    find_user,
    get_user,
    list_users,
    normalize_email,
    parse_language,
    parse_role,
    partner_organizations,
    set_active,
    set_password,
    set_role,
    unlink_partner,
    validate_password,
)
from fleetscope.appstore.users import link_partner as link_partner_organization
from fleetscope.cli.store import cli_store, fail

app = typer.Typer(help="Manage users, roles and partner links.", no_args_is_help=True)

ROLE_HELP = "superuser, customer, partner, support or service."


def _password(given: str | None) -> str:
    """The given password or one typed twice at a hidden prompt; too short ones are refused."""
    if given is None:
        given = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    return validate_password(given)


@app.command("add")
def add(
    email: Annotated[str, typer.Argument(help="Login email (case-insensitive).")],
    role: Annotated[str, typer.Option(help=ROLE_HELP)],
    organization: Annotated[
        str | None,
        typer.Option(help="Organization of a customer; for a partner, the first linked one."),
    ] = None,
    password: Annotated[
        str | None, typer.Option(help="Initial password; asked for when left out.")
    ] = None,
    language: Annotated[
        str | None, typer.Option(help="en or de; left out: the app follows the browser.")
    ] = None,
    display_name: Annotated[str, typer.Option(help="Name shown in the app.")] = "",
) -> None:
    """Create a user."""
    with cli_store() as session:
        parsed_role = parse_role(role)
        parsed_language = None if language is None else parse_language(language)
        org = get_organization(session, name=organization) if organization else None
        if find_user(session, email=normalize_email(email)) is not None:
            raise fail(f"a user with email {email.strip().lower()!r} already exists")
        user = create_user(
            session,
            email=email,
            password=_password(password),
            role=parsed_role,
            organization=org,
            language=parsed_language,
            display_name=display_name,
            by=Actor.cli(),
        )
        typer.echo(f"created {user.role} {user.email}")


def _organization_column(session_orgs: list[Organization], own: Organization | None) -> str:
    if own is not None:
        return own.name
    return ", ".join(f"(linked) {org.name}" for org in session_orgs) or "-"


@app.command("list")
def list_() -> None:
    """List every user with role, organization and language."""
    with cli_store() as session:
        rows = []
        for user in list_users(session):
            own = session.get(Organization, user.organization_id) if user.organization_id else None
            linked = partner_organizations(session, user=user)
            state = "" if user.is_active else " (inactive)"
            rows.append(
                (
                    user.email + state,
                    user.role,
                    _organization_column(linked, own),
                    user.language or "(browser)",
                )
            )
        if not rows:
            typer.echo("no users yet: add one with `fleetscope users add`")
            return
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        for email, role, org, language in rows:
            typer.echo(f"{email:<{widths[0]}}  {role:<{widths[1]}}  {org:<{widths[2]}}  {language}")


@app.command("set-role")
def set_role_command(
    email: Annotated[str, typer.Argument(help="Email of the user.")],
    role: Annotated[str, typer.Argument(help=ROLE_HELP)],
    organization: Annotated[
        str | None, typer.Option(help="Organization, required when a user becomes a customer.")
    ] = None,
) -> None:
    """Change a user's role."""
    with cli_store() as session:
        parsed_role = parse_role(role)
        user = get_user(session, email=email)
        org = get_organization(session, name=organization) if organization else None
        set_role(session, user=user, role=parsed_role, organization=org, by=Actor.cli())
        typer.echo(f"{user.email} is now {user.role}")


@app.command("link-partner")
def link_partner(
    email: Annotated[str, typer.Argument(help="Email of a partner user.")],
    organization: Annotated[str, typer.Argument(help="Organization the partner may see.")],
) -> None:
    """Let a partner see an organization."""
    with cli_store() as session:
        user = get_user(session, email=email)
        org = get_organization(session, name=organization)
        link_partner_organization(session, user=user, organization=org, by=Actor.cli())
        typer.echo(f"{user.email} now sees {org.name}")


@app.command("unlink-partner")
def unlink_partner_command(
    email: Annotated[str, typer.Argument(help="Email of a partner user.")],
    organization: Annotated[str, typer.Argument(help="Organization to remove.")],
) -> None:
    """Stop a partner from seeing an organization."""
    with cli_store() as session:
        user = get_user(session, email=email)
        org = get_organization(session, name=organization)
        unlink_partner(session, user=user, organization=org, by=Actor.cli())
        typer.echo(f"{user.email} no longer sees {org.name}")


@app.command("set-password")
def set_password_command(
    email: Annotated[str, typer.Argument(help="Email of the user.")],
    password: Annotated[
        str | None, typer.Option(help="New password; asked for when left out.")
    ] = None,
) -> None:
    """Set a new password; the user's open sessions end."""
    with cli_store() as session:
        user = get_user(session, email=email)
        set_password(session, user=user, password=_password(password), by=Actor.cli())
        typer.echo(f"password of {user.email} changed")


@app.command("deactivate")
def deactivate(email: Annotated[str, typer.Argument(help="Email of the user.")]) -> None:
    """Block a user's login and end the user's open sessions (the account is kept)."""
    with cli_store() as session:
        user = get_user(session, email=email)
        set_active(session, user=user, active=False, by=Actor.cli())
        typer.echo(f"{user.email} can no longer log in")


@app.command("activate")
def activate(email: Annotated[str, typer.Argument(help="Email of the user.")]) -> None:
    """Allow a deactivated user to log in again."""
    with cli_store() as session:
        user = get_user(session, email=email)
        set_active(session, user=user, active=True, by=Actor.cli())
        typer.echo(f"{user.email} can log in again")


@app.command("delete")
def delete(email: Annotated[str, typer.Argument(help="Email of the user.")]) -> None:
    """Delete a user for good, with their sessions, settings and partner links."""
    with cli_store() as session:
        user = get_user(session, email=email)
        address = user.email
        delete_user(session, user=user, by=Actor.cli())
        typer.echo(f"deleted user {address}")
