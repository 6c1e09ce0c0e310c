"""``fleetscope organizations`` and ``fleetscope sites``: the tenants of an installation."""

from typing import Annotated

import typer
from sqlalchemy.orm import Session

from fleetscope.appstore.admin_organizations import delete_organization, rename_organization
from fleetscope.appstore.admin_sites import SiteChanges, delete_site, update_site
from fleetscope.appstore.audit import Actor
from fleetscope.appstore.models import RederiveJob, Site
from fleetscope.appstore.organizations import (
    DEFAULT_TIME_ZONE,
    create_organization,
    create_site,
    get_organization,
    list_organizations,
    list_sites,
)
from fleetscope.cli.store import cli_store, fail
from fleetscope.ingest.tokens import find_site

organizations_app = typer.Typer(help="Manage organizations (tenants).", no_args_is_help=True)
sites_app = typer.Typer(help="Manage sites of organizations.", no_args_is_help=True)


@organizations_app.command("add")
def add_organization(
    name: Annotated[str, typer.Argument(help="Name of the organization.")],
) -> None:
    """Create an organization."""
    with cli_store() as session:
        organization = create_organization(session, name=name, by=Actor.cli())
        typer.echo(f"created organization {organization.name!r} (id {organization.id})")


@organizations_app.command("rename")
def rename_organization_command(
    name: Annotated[str, typer.Argument(help="Current name of the organization.")],
    new_name: Annotated[str, typer.Argument(help="New name.")],
) -> None:
    """Rename an organization."""
    with cli_store() as session:
        found = get_organization(session, name=name)
        organization = rename_organization(
            session, organization=found, name=new_name, by=Actor.cli()
        )
        typer.echo(f"organization {organization.id} is now {organization.name!r}")


@organizations_app.command("delete")
def delete_organization_command(
    name: Annotated[str, typer.Argument(help="Name of an organization without sites and users.")],
) -> None:
    """Delete an organization that has no sites and no users."""
    with cli_store() as session:
        delete_organization(
            session, organization=get_organization(session, name=name), by=Actor.cli()
        )
        typer.echo(f"deleted organization {name.strip()!r}")


def _job_line(job: RederiveJob | None) -> str:
    if job is None:
        return ""
    return (
        f"; re-derivation job {job.id} queued for {len(job.vehicle_ids)} vehicles "
        "(a running server picks it up)"
    )


@organizations_app.command("list")
def list_organizations_command() -> None:
    """List organizations with their number of sites."""
    with cli_store() as session:
        organizations = list_organizations(session)
        if not organizations:
            typer.echo("no organizations yet: add one with `fleetscope organizations add NAME`")
        for organization in organizations:
            typer.echo(
                f"{organization.id:>4}  {organization.name}  ({len(organization.sites)} sites)"
            )


def _change_site(
    session: Session, *, reference: str, changes: SiteChanges
) -> tuple[Site, RederiveJob | None]:
    """The command line's site changes: the same service as the API, audited as ``cli``."""
    return update_site(
        session, site=find_site(session, reference=reference), changes=changes, by=Actor.cli()
    )


@sites_app.command("add")
def add_site(
    name: Annotated[str, typer.Argument(help="Name of the site.")],
    organization: Annotated[str, typer.Option(help="Organization the site belongs to.")],
    time_zone: Annotated[str, typer.Option(help="IANA time zone.")] = DEFAULT_TIME_ZONE,
    mqtt_interface: Annotated[
        str | None,
        typer.Option(help="MQTT interface name whose new vehicles are registered in this site."),
    ] = None,
) -> None:
    """Create a site with the default shifts (early, late, night, every day)."""
    with cli_store() as session:
        org = get_organization(session, name=organization)
        site = create_site(
            session,
            organization=org,
            name=name,
            time_zone=time_zone,
            mqtt_interface=mqtt_interface,
            by=Actor.cli(),
        )
        typer.echo(f"created site {site.name!r} (id {site.id}) in {org.name!r}, {site.time_zone}")


@sites_app.command("set-interface")
def set_interface(
    site: Annotated[str, typer.Argument(help="Site (id or name).")],
    mqtt_interface: Annotated[
        str | None,
        typer.Argument(help="MQTT interface name whose messages are for this site's vehicles."),
    ] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Remove the site's interface.")] = False,
) -> None:
    """Set (or --clear) the MQTT interface of a site; restart the server to subscribe it."""
    if (mqtt_interface is not None) == clear:  # exactly one of the two
        raise fail("give either an MQTT interface or --clear")
    with cli_store() as session:
        found, _ = _change_site(
            session, reference=site, changes=SiteChanges(mqtt_interface=mqtt_interface)
        )
        if found.mqtt_interface is None:
            typer.echo(f"site {found.name!r} (id {found.id}) has no MQTT interface now")
        else:
            typer.echo(
                f"site {found.name!r} (id {found.id}) receives MQTT interface "
                f"{found.mqtt_interface!r}; restart the server to subscribe it"
            )


@sites_app.command("set-load-actions")
def set_load_actions(
    site: Annotated[str, typer.Argument(help="Site (id or name).")],
    action_types: Annotated[
        list[str] | None,
        typer.Argument(help="The site's own load-handling action types (any case)."),
    ] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Remove the site's own types.")] = False,
) -> None:
    """Set (or --clear) the site's own load-handling action types: their finished actions
    count as loads handled besides VDA 5050's pick, drop, load and unload."""
    if bool(action_types) == clear:  # exactly one of the two
        raise fail("give either action types or --clear")
    with cli_store() as session:
        found, job = _change_site(
            session, reference=site, changes=SiteChanges(load_action_types=action_types or [])
        )
        own = ", ".join(found.load_action_types) or "none"
        typer.echo(
            f"site {found.name!r} (id {found.id}) counts as loads handled: pick, drop, load, "
            f"unload and its own types: {own}{_job_line(job)}"
        )


@sites_app.command("set-workflow-rules")
def set_workflow_rules(
    site: Annotated[str, typer.Argument(help="Site (id or name).")],
    rules: Annotated[
        list[str] | None,
        typer.Argument(
            help="Regular expressions on the orderId, each with a named group "
            "(?P<workflow>...); the first that matches assigns the workflow."
        ),
    ] = None,
    clear: Annotated[
        bool, typer.Option("--clear", help="No rules: the default rule applies.")
    ] = False,
) -> None:
    """Set (or --clear) a site's workflow rules; the site's vehicles are re-derived."""
    if bool(rules) == clear:  # exactly one of the two
        raise fail("give either workflow rules or --clear")
    with cli_store() as session:
        found, job = _change_site(
            session, reference=site, changes=SiteChanges(workflow_rules=rules or [])
        )
        typer.echo(
            f"site {found.name!r} (id {found.id}) has {len(found.workflow_rules)} workflow "
            f"rules{_job_line(job)}"
        )


@sites_app.command("set-time-zone")
def set_time_zone(
    site: Annotated[str, typer.Argument(help="Site (id or name).")],
    time_zone: Annotated[str, typer.Argument(help="IANA time zone, e.g. Europe/Berlin.")],
) -> None:
    """Set a site's time zone (days, weeks and shifts are cut in it); the site's vehicles
    are re-derived."""
    with cli_store() as session:
        found, job = _change_site(session, reference=site, changes=SiteChanges(time_zone=time_zone))
        typer.echo(f"site {found.name!r} (id {found.id}) is in {found.time_zone}{_job_line(job)}")


@sites_app.command("rename")
def rename_site(
    site: Annotated[str, typer.Argument(help="Site (id or name).")],
    name: Annotated[str, typer.Argument(help="New name.")],
) -> None:
    """Rename a site."""
    with cli_store() as session:
        found, _ = _change_site(session, reference=site, changes=SiteChanges(name=name))
        typer.echo(f"site {found.id} is now {found.name!r}")


@sites_app.command("delete")
def delete_site_command(
    site: Annotated[str, typer.Argument(help="Site (id or name) without vehicles.")],
) -> None:
    """Delete a site that has no vehicles, with its API tokens."""
    with cli_store() as session:
        found = find_site(session, reference=site)
        name = found.name
        delete_site(session, site=found, by=Actor.cli())
        typer.echo(f"deleted site {name!r}")


@sites_app.command("list")
def list_sites_command() -> None:
    """List sites with organization, time zone, shifts and MQTT interface."""
    with cli_store() as session:
        sites = list_sites(session)
        if not sites:
            typer.echo("no sites yet: add one with `fleetscope sites add --organization ORG NAME`")
        for site in sites:
            shifts = ", ".join(
                f"{shift['id']} {shift['start']}-{shift['end']}" for shift in site.shifts
            )
            interface = f"  mqtt: {site.mqtt_interface}" if site.mqtt_interface else ""
            typer.echo(
                f"{site.id:>4}  {site.organization.name} / {site.name}  {site.time_zone}"
                f"  [{shifts}]{interface}"
            )
