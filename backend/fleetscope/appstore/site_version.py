"""A site's version: a digest of what an administrator edits on it, read with the site and
sent back with a change, so that a change made on a site another administrator has changed
since is refused (409) instead of silently undoing theirs (each section of the site page
saves its whole list: shifts, rules, load action types)."""

import hashlib
import json

from sqlalchemy.orm import Session

from fleetscope.appstore.errors import ConflictError
from fleetscope.appstore.models import Site
from fleetscope.i18n.admin_messages import SITE_CHANGED_MEANWHILE

VERSION_LENGTH = 16  # hex digits: 64 bits, no two edits of one site alike by chance


def site_version(site: Site) -> str:
    state = [
        site.organization_id,
        site.name,
        site.time_zone,
        site.mqtt_interface,
        site.shifts,
        site.workflow_rules,
        site.load_action_types,
    ]
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:VERSION_LENGTH]


def require_version(db: Session, *, site: Site, version: str | None) -> None:
    """409 unless ``site`` is still at ``version`` (None: no check, as for API clients that
    change one field). The row is locked until the change commits (PostgreSQL; SQLite
    writes one at a time anyway), so two changes made on one version cannot both pass."""
    if version is None:
        return
    db.refresh(site, with_for_update={"of": Site})  # not the joined organization
    if site_version(site) != version:
        raise ConflictError(SITE_CHANGED_MEANWHILE(site=site.name))
