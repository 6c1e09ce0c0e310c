"""Per-site API tokens for HTTP ingestion. Only the SHA-256 of a token is stored."""

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from fleetscope.appstore.errors import InvalidInputError, NotFoundError
from fleetscope.appstore.models import ApiToken, Site
from fleetscope.appstore.security import new_token, token_digest
from fleetscope.i18n.messages import MUST_NOT_BE_EMPTY, TOKEN_NOT_FOUND

TOKEN_PREFIX = "fst_"  # recognisable in logs and secret scanners


def find_site(session: Session, *, reference: str) -> Site:
    """A site by id or by name (a name shared by sites of several organizations is refused)."""
    if reference.isdigit():
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


def create_token(session: Session, *, site: Site, name: str) -> tuple[ApiToken, str]:
    """A new token for ``site``; the plain token is returned once and never stored."""
    name = name.strip()
    if not name:
        raise InvalidInputError(MUST_NOT_BE_EMPTY(field="name"))
    plain = TOKEN_PREFIX + new_token()
    token = ApiToken(
        site_id=site.id, name=name, token_hash=token_digest(plain), created_at=datetime.now(UTC)
    )
    session.add(token)
    session.commit()
    return token, plain


def list_tokens(session: Session, *, site: Site) -> list[ApiToken]:
    return list(
        session.scalars(select(ApiToken).where(ApiToken.site_id == site.id).order_by(ApiToken.id))
    )


def revoke_token(session: Session, *, site: Site, token_id: int) -> ApiToken:
    token = session.get(ApiToken, token_id)
    if token is None or token.site_id != site.id:
        raise NotFoundError(TOKEN_NOT_FOUND(token=token_id))
    if token.revoked_at is None:
        token.revoked_at = datetime.now(UTC)
        session.commit()
    return token


def site_of_token(session: Session, *, token: str) -> int | None:
    """The site a valid (known, not revoked) token writes for, else None."""
    if not token:
        return None
    found = session.scalars(
        select(ApiToken).where(
            ApiToken.token_hash == token_digest(token), ApiToken.revoked_at.is_(None)
        )
    ).one_or_none()
    return found.site_id if found is not None else None
