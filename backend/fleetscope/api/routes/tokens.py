"""Per-site API tokens for HTTP ingestion (superusers). The token is shown once, at creation."""

from datetime import datetime

from fastapi import APIRouter
from pydantic import Field

from fleetscope.api.deps import AdminUser, SessionDep, StoreId
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import (
    INVALID,
    JSON_BODY_FAILURES,
    NO_CSRF,
    NOT_FOUND,
    NOT_SIGNED_IN,
    NOT_SUPERUSER,
    ApiError,
    failure_responses,
)
from fleetscope.appstore.models import ApiToken, Site
from fleetscope.appstore.schemas import CamelModel, StoredText, StrictCamelModel
from fleetscope.i18n.messages import SITE_NOT_FOUND
from fleetscope.ingest.tokens import create_token, list_tokens, revoke_token

# Superusers only; a site or token id that does not exist is a 404.
ADMIN_FAILURES = (NOT_SIGNED_IN, NOT_SUPERUSER, NOT_FOUND, INVALID)
router = APIRouter(
    prefix="/Sites/{site_id}/tokens",
    tags=["API tokens"],
    responses=failure_responses(*ADMIN_FAILURES),
)
CREATE = failure_responses(*ADMIN_FAILURES, NO_CSRF, *JSON_BODY_FAILURES)
REVOKE = failure_responses(*ADMIN_FAILURES, NO_CSRF)


class TokenCreate(StrictCamelModel):
    name: StoredText = Field(min_length=1, max_length=200)


class TokenOut(CamelModel):
    id: int
    site_id: int
    name: str
    created_at: datetime
    revoked_at: datetime | None


class TokenCreated(TokenOut):
    token: str = Field(description="shown only in this answer; only its SHA-256 is stored")


def _out(token: ApiToken) -> TokenOut:
    return TokenOut(
        id=token.id,
        site_id=token.site_id,
        name=token.name,
        created_at=token.created_at,
        revoked_at=token.revoked_at,
    )


def _site(db: SessionDep, site_id: int) -> Site:
    site = db.get(Site, site_id)
    if site is None:
        raise ApiError(404, SITE_NOT_FOUND(site=site_id))
    return site


@router.post("", response_model=Envelope[TokenCreated], status_code=201, responses=CREATE)
def create_site_token(
    site_id: StoreId, body: TokenCreate, _: AdminUser, db: SessionDep
) -> Envelope[TokenCreated]:
    token, plain = create_token(db, site=_site(db, site_id), name=body.name)
    return ok(TokenCreated(**_out(token).model_dump(), token=plain))


@router.get("", response_model=Envelope[list[TokenOut]])
def list_site_tokens(site_id: StoreId, _: AdminUser, db: SessionDep) -> Envelope[list[TokenOut]]:
    return ok([_out(token) for token in list_tokens(db, site=_site(db, site_id))])


@router.delete("/{token_id}", response_model=Envelope[TokenOut], responses=REVOKE)
def revoke_site_token(
    site_id: StoreId, token_id: StoreId, _: AdminUser, db: SessionDep
) -> Envelope[TokenOut]:
    return ok(_out(revoke_token(db, site=_site(db, site_id), token_id=token_id)))
