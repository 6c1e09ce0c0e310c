"""``/v2/Admin/DeadLetters``: messages ingestion refused (superusers): a paged list with
filters and counts per source, the stored payload as a download, delete, and re-ingest
(``ingest.reingest``)."""

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from pydantic import Field

from fleetscope.analytics.core.paging import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Page, page_count
from fleetscope.api.deps import RequestLanguage, SessionDep, StoreId, SuperUser
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
from fleetscope.api.routes.admin.common import instant_range
from fleetscope.api.routes.ingest import INGEST_RETRY_AFTER_S, IngestionDep
from fleetscope.appstore.audit import Actor
from fleetscope.appstore.errors import StoreError
from fleetscope.appstore.schemas import CamelModel, StrictCamelModel
from fleetscope.facts.dead_letters import PAYLOAD_PREVIEW_BYTES, DeadLetterFilter
from fleetscope.facts.store_batch import DeadLetterCategory
from fleetscope.i18n.messages import INGESTION_FAILED
from fleetscope.ingest.reingest import delete_letter, find_letter, reingest_letter

router = APIRouter(
    prefix="/DeadLetters",
    responses=failure_responses(NOT_SIGNED_IN, NOT_FOUND, INVALID),
    route_class=JsonBodyRoute,
)
# A fixed payload is at most what one ingestion request may carry per message.
MAX_FIXED_PAYLOAD = 1024 * 1024


class DeadLetterOut(CamelModel):
    id: int
    received_at: datetime
    source: str = Field(description='"mqtt:<interface>", "http:site-<id>" or "import"')
    category: str = Field(description="line, message, vehicle or store ('unknown': older)")
    topic: str
    payload_preview: str = Field(
        description=f"the first {PAYLOAD_PREVIEW_BYTES} bytes of the payload kept, UTF-8 with "
        "replacement characters"
    )
    payload_size: int = Field(description="bytes of the whole payload as received")
    payload_sha256: str = Field(description="hex SHA-256 of the whole payload")
    payload_truncated: bool = Field(description="the store keeps only the start of the payload")
    reason: str = Field(description="why ingestion refused it, in the request's language")


class DeadLetterCountOut(CamelModel):
    source: str
    category: str
    stored: int = Field(description="dead letters kept (matching the filters)")
    dropped: int = Field(description="beyond the source's cap per minute: counted, not kept")


class DeadLetterPage(Page[DeadLetterOut]):
    stored: int = Field(description="the sum of ``stored`` over ``bySource``")
    dropped: int = Field(description="the sum of ``dropped`` over ``bySource``")
    by_source: list[DeadLetterCountOut]


class ReingestBody(StrictCamelModel):
    payload: str | None = Field(
        default=None,
        max_length=MAX_FIXED_PAYLOAD,
        description="the fixed payload (a line's whole text for category 'line'); "
        "default: the stored payload",
    )


class ReingestOut(CamelModel):
    accepted: bool
    reason: str | None = None


@router.get("", response_model=Envelope[DeadLetterPage])
def list_dead_letters(
    _: SuperUser,
    ingestion: IngestionDep,
    language: RequestLanguage,
    page: Annotated[int, Query(ge=1, le=2**31 - 1)] = 1,
    page_size: Annotated[int, Query(alias="pageSize", ge=1, le=MAX_PAGE_SIZE)] = (
        DEFAULT_PAGE_SIZE
    ),
    source: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    category: Annotated[DeadLetterCategory | None, Query()] = None,
    reason: Annotated[
        str | None,
        Query(min_length=1, max_length=200, description="part of the reason, in any language"),
    ] = None,
    received_from: Annotated[datetime | None, Query(alias="receivedFrom")] = None,
    received_to: Annotated[datetime | None, Query(alias="receivedTo")] = None,
) -> Envelope[DeadLetterPage]:
    """Messages that could not be ingested, newest first, and the counts per source and
    category, kept and dropped beyond the cap per source and minute."""
    start, end = instant_range(received_from, received_to, names=("receivedFrom", "receivedTo"))
    filters = DeadLetterFilter(
        source=source,
        category=None if category is None else category.value,
        reason=reason,
        received_from=start,
        received_to=end,
    )
    store = ingestion.store
    offset = min((page - 1) * page_size, 2**62)
    total, items = store.dead_letter_page(
        limit=page_size, offset=offset, filters=filters, language=language
    )
    counts = store.dead_letter_counts(filters=filters)
    return ok(
        DeadLetterPage(
            items=[_out(item) for item in items],
            total=total,
            page=page,
            page_size=page_size,
            pages=page_count(total, page_size),
            sort="-id",
            stored=sum(row.stored for row in counts),
            dropped=sum(row.dropped for row in counts),
            by_source=[
                DeadLetterCountOut(
                    source=row.source, category=row.category, stored=row.stored, dropped=row.dropped
                )
                for row in counts
            ],
        )
    )


@router.get(
    "/{letterId}/Payload",
    response_class=Response,
    responses={200: {"content": {"application/octet-stream": {}}}},
)
def download_payload(letterId: StoreId, _: SuperUser, ingestion: IngestionDep) -> Response:
    """The payload as stored (the whole payload unless ``payloadTruncated``)."""
    letter = find_letter(ingestion.store, letter_id=letterId)
    return Response(
        content=letter.payload,
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="dead-letter-{letter.id}.json"'},
    )


@router.delete("/{letterId}", response_model=Envelope[None], responses=failure_responses(NO_CSRF))
def delete_dead_letter(
    letterId: StoreId,
    user: SuperUser,
    ingestion: IngestionDep,
    db: SessionDep,
) -> Envelope[None]:
    delete_letter(db, ingestion.store, letter_id=letterId, by=Actor.web(user))
    return ok(None)


@router.post(
    "/{letterId}/Reingest",
    response_model=Envelope[ReingestOut],
    responses=failure_responses(NO_CSRF, *JSON_BODY_FAILURES),
)
def reingest_dead_letter(
    letterId: StoreId,
    user: SuperUser,
    ingestion: IngestionDep,
    db: SessionDep,
    language: RequestLanguage,
    body: ReingestBody | None = None,
) -> Envelope[ReingestOut]:
    """Ingest the dead letter again (or its fixed ``payload``) through its source's path:
    accepted, it is deleted; refused, it stays and ``reason`` says why."""
    try:
        result = reingest_letter(
            db,
            ingestion.store,
            ingestion.worker,
            letter_id=letterId,
            payload=None if body is None else body.payload,
            by=Actor.web(user),
        )
    except StoreError:
        raise
    except Exception as err:
        # Ingestion is stopping, stuck (no verdict in time) or the fact store failed: a
        # retry can fix it, and the dead letter is kept.
        raise ApiError(
            503, INGESTION_FAILED(), headers={"Retry-After": str(INGEST_RETRY_AFTER_S)}
        ) from err
    reason = None if result.reason is None else result.reason.render(language)
    return ok(ReingestOut(accepted=result.accepted, reason=reason))


def _out(item: dict[str, Any]) -> DeadLetterOut:
    fields = dict(item)
    fields["payload_preview"] = fields.pop("payload")
    return DeadLetterOut(**fields)
