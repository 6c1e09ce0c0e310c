"""``/v2/Admin/Sites/{siteId}/Tokens``: per-site API tokens for HTTP ingestion (superusers).
The token is shown once, at creation; a revoked token is refused by ingestion at once."""

from datetime import datetime

from fastapi import APIRouter
from pydantic import Field

from fleetscope.api.deps import SessionDep, StoreId, SuperUser
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import (
    INVALID,
    JSON_BODY_FAILURES,
    NO_CSRF,
    NOT_FOUND,
    NOT_SIGNED_IN,
    ApiError,
    failure_responses,
)
from fleetscope.api.json_body import JsonBodyRoute
from fleetscope.appstore.audit import Actor
from fleetscope.appstore.models import ApiToken, Site
from fleetscope.appstore.schemas import CamelModel, StoredText, StrictCamelModel
from fleetscope.i18n.messages import SITE_NOT_FOUND
from fleetscope.ingest.tokens import create_token, list_tokens, revoke_token, token_fields

router = APIRouter(
    prefix="/Sites/{siteId}/Tokens",
    responses=failure_responses(NOT_SIGNED_IN, NOT_FOUND),
    route_class=JsonBodyRoute,
)
CREATE = failure_responses(NO_CSRF, *JSON_BODY_FAILURES)
REVOKE = failure_responses(NO_CSRF, INVALID)


class TokenCreate(StrictCamelModel):
    name: StoredText = Field(min_length=1, max_length=200)


class TokenOut(CamelModel):
    id: int
    site_id: int
    name: str
    created_at: datetime
    last_used_at: datetime | None = Field(
        description="the latest ingestion request with it, to the minute"
    )
    revoked_at: datetime | None


class TokenCreated(TokenOut):
    token: str = Field(description="shown only in this answer; only its SHA-256 is stored")


def _out(token: ApiToken) -> TokenOut:
    return TokenOut.model_validate(token_fields(token))


def _site(db: SessionDep, site_id: int) -> Site:
    site = db.get(Site, site_id)
    if site is None:
        raise ApiError(404, SITE_NOT_FOUND(site=site_id))
    return site


@router.get("", response_model=Envelope[list[TokenOut]], responses=failure_responses(INVALID))
def list_site_tokens(siteId: StoreId, _: SuperUser, db: SessionDep) -> Envelope[list[TokenOut]]:
    """The site's tokens, oldest first (never the secrets)."""
    return ok([_out(token) for token in list_tokens(db, site=_site(db, siteId))])


@router.post("", response_model=Envelope[TokenCreated], status_code=201, responses=CREATE)
def create_site_token(
    siteId: StoreId,
    body: TokenCreate,
    user: SuperUser,
    db: SessionDep,
) -> Envelope[TokenCreated]:
    """A new token; ``token`` is in this answer only."""
    token, plain = create_token(db, site=_site(db, siteId), name=body.name, by=Actor.web(user))
    return ok(TokenCreated(**_out(token).model_dump(), token=plain))


@router.delete("/{tokenId}", response_model=Envelope[TokenOut], responses=REVOKE)
def revoke_site_token(
    siteId: StoreId,
    tokenId: StoreId,
    user: SuperUser,
    db: SessionDep,
) -> Envelope[TokenOut]:
    """Revoke: ingestion refuses the token from the next request on (401)."""
    token = revoke_token(db, site=_site(db, siteId), token_id=tokenId, by=Actor.web(user))
    return ok(_out(token))
