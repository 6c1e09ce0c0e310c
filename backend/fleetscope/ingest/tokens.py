"""Per-site API tokens for HTTP ingestion. Only the SHA-256 of a token is stored.

The Administration API and ``fleetscope tokens`` both change tokens through these functions,
each writing its audit entry (``appstore.audit``) in the transaction of the change.
"""

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from fleetscope.appstore.audit import Actor, record_change
from fleetscope.appstore.errors import InvalidInputError, NotFoundError
from fleetscope.appstore.models import ApiToken, Site
from fleetscope.appstore.security import new_token, token_digest
from fleetscope.i18n.messages import MUST_NOT_BE_EMPTY, TOKEN_NOT_FOUND

TOKEN_PREFIX = "fst_"  # recognisable in logs and secret scanners
# ``last_used_at`` is written at most this often per token: one row update a minute instead
# of one per ingestion request (a gateway may post several times a second).
LAST_USED_RESOLUTION = timedelta(minutes=1)


def find_site(session: Session, *, reference: str) -> Site:
    """A site by id or by name (a name shared by sites of several organizations is refused)."""
    if reference.isascii() and reference.isdigit():
        site = session.get(Site, int(reference))
        if site is None:
            raise NotFoundError(f"site {reference} not found")
        return site
    sites = list(session.scalars(select(Site).where(Site.name == reference)))
    if not sites:
        raise NotFoundError(f"site {reference!r} not found")
    if len(sites) > 1:
        ids = ", ".join(str(site.id) for site in sites)
        raise InvalidInputError(f"site name {reference!r} is ambiguous (ids {ids}); use the id")
    return sites[0]


def token_fields(token: ApiToken) -> dict[str, Any]:
    """What the API and the audit log show of a token (never the token or its hash)."""
    return {
        "id": token.id,
        "siteId": token.site_id,
        "name": token.name,
        "createdAt": token.created_at,
        "lastUsedAt": token.last_used_at,
        "revokedAt": token.revoked_at,
    }


def create_token(session: Session, *, site: Site, name: str, by: Actor) -> tuple[ApiToken, str]:
    """A new token for ``site``; the plain token is returned once and never stored."""
    name = name.strip()
    if not name:
        raise InvalidInputError(MUST_NOT_BE_EMPTY(field="name"))
    plain = TOKEN_PREFIX + new_token()
    token = ApiToken(
        site_id=site.id, name=name, token_hash=token_digest(plain), created_at=datetime.now(UTC)
    )
    session.add(token)
    session.flush()  # the id, for the audit entry
    record_change(
        session,
        by=by,
        action="token.create",
        entity_type="token",
        entity_id=token.id,
        after=token_fields(token),
    )
    session.commit()
    return token, plain


def list_tokens(session: Session, *, site: Site) -> list[ApiToken]:
    return list(
        session.scalars(select(ApiToken).where(ApiToken.site_id == site.id).order_by(ApiToken.id))
    )


def revoke_token(session: Session, *, site: Site, token_id: int, by: Actor) -> ApiToken:
    """Revoke a token of ``site`` (refused by ingestion from the next request on); revoking
    a revoked token changes nothing and writes no audit entry."""
    token = session.get(ApiToken, token_id)
    if token is None or token.site_id != site.id:
        raise NotFoundError(TOKEN_NOT_FOUND(token=token_id))
    if token.revoked_at is None:
        before = token_fields(token)
        token.revoked_at = datetime.now(UTC)
        record_change(
            session,
            by=by,
            action="token.revoke",
            entity_type="token",
            entity_id=token.id,
            before=before,
            after=token_fields(token),
        )
        session.commit()
    return token


def site_of_token(session: Session, *, token: str, now: datetime | None = None) -> int | None:
    """The site a valid (known, not revoked) token writes for, else None.

    Notes the use in ``last_used_at`` when the stored one is older than
    ``LAST_USED_RESOLUTION``; the caller's commit stores it.
    """
    if not token:
        return None
    found = session.scalars(
        select(ApiToken).where(
            ApiToken.token_hash == token_digest(token), ApiToken.revoked_at.is_(None)
        )
    ).one_or_none()
    if found is None:
        return None
    moment = now or datetime.now(UTC)
    if found.last_used_at is None or moment - found.last_used_at >= LAST_USED_RESOLUTION:
        found.last_used_at = moment
    return found.site_id
