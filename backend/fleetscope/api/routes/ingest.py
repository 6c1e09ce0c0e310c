"""HTTP ingestion of VDA 5050 messages (NDJSON, per-site API token)."""

import asyncio
import zlib
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from fleetscope.api.deps import RequestLanguage, SessionDep, SettingsDep, release_connection
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import (
    BAD_API_TOKEN,
    BAD_GZIP,
    OVERSIZED_BODY,
    SLOW_BODY,
    UNSUPPORTED_ENCODING,
    ApiError,
    failure_responses,
)
from fleetscope.appstore.schemas import CamelModel
from fleetscope.i18n.messages import (
    BODY_INFLATES_TOO_LARGE,
    BODY_NOT_GZIP,
    BODY_TOO_LARGE,
    BODY_TOO_MANY_LINES,
    INGESTION_FAILED,
    INGESTION_NOT_RUNNING,
    INVALID_API_TOKEN,
    UNSUPPORTED_CONTENT_ENCODING,
)
from fleetscope.i18n.refusals import REFUSED
from fleetscope.ingest.messages import RawMessage, Verdict
from fleetscope.ingest.ndjson import numbered_lines, parse_line
from fleetscope.ingest.service import IngestionHandle
from fleetscope.ingest.tokens import site_of_token

router = APIRouter(tags=["Ingest"])


class RejectedLine(CamelModel):
    line: int
    reason: str = Field(description="why it was refused, in the request's language")


class IngestResult(CamelModel):
    accepted: int
    duplicates: int
    rejected: list[RejectedLine]


# A 503 of ingestion: the fact store failed; the same request again is the fix.
INGEST_RETRY_AFTER_S = 5


def get_ingestion(request: Request) -> IngestionHandle:
    handle: IngestionHandle | None = getattr(request.app.state, "ingestion", None)
    if handle is None:
        raise ApiError(503, INGESTION_NOT_RUNNING())
    return handle


IngestionDep = Annotated[IngestionHandle, Depends(get_ingestion)]


def get_token_site(request: Request, db: SessionDep) -> int:
    """The site of the request's ``Authorization: Bearer`` API token, else 401."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    site_id = site_of_token(db, token=token.strip()) if scheme.lower() == "bearer" else None
    release_connection(db)
    if site_id is None:
        raise ApiError(401, INVALID_API_TOKEN())
    return site_id


TokenSite = Annotated[int, Depends(get_token_site)]


async def read_limited_body(request: Request, *, limit: int) -> bytes:
    """The body, refused with 413 as soon as it is known to exceed ``limit`` bytes. The rest
    of the body is never read, so the connection cannot carry another request: the answer
    closes it rather than leaving the server to drain what the client still sends."""
    too_large = ApiError(413, BODY_TOO_LARGE(limit=limit), headers={"Connection": "close"})
    declared = request.headers.get("Content-Length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def body_is_gzip(request: Request) -> bool:
    """Whether the body comes gzip-encoded (NDJSON shrinks about tenfold); 415 for any other
    coding, which would otherwise be read as NDJSON and refused line by line."""
    coding = request.headers.get("Content-Encoding", "").strip().lower()
    if coding in ("", "identity"):
        return False
    if coding in ("gzip", "x-gzip"):
        return True
    raise ApiError(415, UNSUPPORTED_CONTENT_ENCODING(coding=coding[:64]))


def gunzip_limited(body: bytes, *, limit: int) -> bytes:
    """``body`` gzip-decoded (member after member, as concatenated gzip files are), refused
    with 413 as soon as the result exceeds ``limit`` bytes (a few KiB may inflate to GiB)
    and with 400 when it is not complete gzip data."""
    pieces: list[bytes] = []
    size = 0
    rest = body
    while rest:
        inflater = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16)  # gzip header and trailer
        try:
            piece = inflater.decompress(rest, limit + 1 - size)
        except zlib.error as error:
            raise ApiError(400, BODY_NOT_GZIP(detail=str(error))) from None
        size += len(piece)
        if size > limit:
            raise ApiError(413, BODY_INFLATES_TOO_LARGE(limit=limit))
        if not inflater.eof:
            raise ApiError(400, BODY_NOT_GZIP(detail="the data ends inside a member"))
        pieces.append(piece)
        rest = inflater.unused_data.lstrip(b"\0")  # gzip pads some archives with zeros
    return b"".join(pieces)


def _parse_body(body: bytes, site_id: int) -> tuple[list[int], list[RawMessage]]:
    received_at = datetime.now(UTC)
    source = f"http:site-{site_id}"  # the dead letters' cap counts per source and minute
    numbers: list[int] = []
    messages: list[RawMessage] = []
    for number, line in numbered_lines(body.split(b"\n")):
        numbers.append(number)
        messages.append(parse_line(line, received_at=received_at, site_id=site_id, source=source))
    return numbers, messages


@router.post(
    "/Ingest/vda5050",
    response_model=Envelope[IngestResult],
    responses=failure_responses(
        BAD_API_TOKEN, BAD_GZIP, SLOW_BODY, OVERSIZED_BODY, UNSUPPORTED_ENCODING
    ),
)
async def ingest_vda5050(
    request: Request,
    site_id: TokenSite,
    settings: SettingsDep,
    ingestion: IngestionDep,
    language: RequestLanguage,
) -> Envelope[IngestResult]:
    """NDJSON, one ``{"topic": "...", "payload": {...}}`` per line; lines counted from 1.
    The body may be gzip-encoded (``Content-Encoding: gzip``)."""
    gzipped = body_is_gzip(request)
    limit = settings.ingest_max_body_bytes
    body = await read_limited_body(request, limit=limit)
    # Inflating and parsing up to 16 MiB would stall the event loop: a worker thread does it.
    if gzipped:
        body = await run_in_threadpool(gunzip_limited, body, limit=limit)
    # 16 MiB of one-byte lines would be 8 million verdicts (gigabytes while answered).
    if body.count(b"\n") + (not body.endswith(b"\n")) > settings.ingest_max_lines:
        raise ApiError(413, BODY_TOO_MANY_LINES(limit=settings.ingest_max_lines))
    numbers, messages = await run_in_threadpool(_parse_body, body, site_id)
    if not messages:
        return ok(IngestResult(accepted=0, duplicates=0, rejected=[]))
    try:
        # ``submit`` blocks while the ingest queue is full (backpressure): not on the loop.
        pending = await run_in_threadpool(ingestion.worker.submit, messages)
        outcome = await asyncio.wrap_future(pending)
    except Exception as err:
        # The pipeline raises only when the fact store itself fails (a bad line is a dead
        # letter, never a failure of the request): a retry can fix it.
        raise ApiError(
            503, INGESTION_FAILED(), headers={"Retry-After": str(INGEST_RETRY_AFTER_S)}
        ) from err
    rejected = [
        RejectedLine(
            line=numbers[index], reason=outcome.reasons.get(index, REFUSED()).render(language)
        )
        for index, verdict in enumerate(outcome.verdicts)
        if verdict is Verdict.REJECTED
    ]
    return ok(
        IngestResult(accepted=outcome.accepted, duplicates=outcome.duplicates, rejected=rejected)
    )
