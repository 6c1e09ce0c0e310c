"""The Administration's dead letters: delete one, or send it again through ingestion.

A re-ingested dead letter takes the path its source took: ``http:site-<id>`` as that site's
API token (the vehicle is looked up in that site), ``mqtt:<interface>`` and ``import`` by the
topic's interface. It is queued on the ingest worker like any message and answered once its
batch is committed. Accepted (or already stored: a duplicate), the dead letter is deleted;
refused, it stays as it was (no second dead letter is written) and the reason is returned.
The fact store and the app store are two databases: the audit entry is written once the
fact store's change is committed.
"""

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from fleetscope.appstore.audit import Actor, record_change
from fleetscope.appstore.errors import InvalidInputError, NotFoundError
from fleetscope.facts.dead_letters import StoredDeadLetter
from fleetscope.facts.store import FactStore
from fleetscope.facts.store_batch import DeadLetterCategory
from fleetscope.i18n import Message
from fleetscope.i18n.ingest_admin import DEAD_LETTER_NOT_FOUND, DEAD_LETTER_PAYLOAD_CUT
from fleetscope.i18n.refusals import ALREADY_STORED, REFUSED
from fleetscope.ingest.messages import RawMessage, Verdict
from fleetscope.ingest.ndjson import parse_line
from fleetscope.ingest.worker import IngestWorker

# Waiting longer for a verdict than this means ingestion is stuck; the caller answers 503.
VERDICT_TIMEOUT_S = 60.0
_HTTP_SOURCE = re.compile(r"http:site-(\d+)")


@dataclass(frozen=True, slots=True)
class ReingestResult:
    accepted: bool
    reason: Message | None = None


def letter_fields(letter: StoredDeadLetter) -> dict[str, Any]:
    """What the audit log keeps of a dead letter (not its payload, only its digest)."""
    return {
        "id": letter.id,
        "receivedAt": letter.received_at,
        "source": letter.source,
        "category": letter.category,
        "topic": letter.topic,
        "payloadSize": letter.payload_size,
        "payloadSha256": letter.payload_sha256,
        "reason": letter.reason,
    }


def find_letter(store: FactStore, *, letter_id: int) -> StoredDeadLetter:
    letter = store.dead_letter(letter_id)
    if letter is None:
        raise NotFoundError(DEAD_LETTER_NOT_FOUND(letter=letter_id))
    return letter


def delete_letter(session: Session, store: FactStore, *, letter_id: int, by: Actor) -> None:
    letter = find_letter(store, letter_id=letter_id)
    if not store.delete_dead_letter(letter_id):
        raise NotFoundError(DEAD_LETTER_NOT_FOUND(letter=letter_id))
    record_change(
        session,
        by=by,
        action="deadLetter.delete",
        entity_type="deadLetter",
        entity_id=letter_id,
        before=letter_fields(letter),
    )
    session.commit()


def message_of(letter: StoredDeadLetter, *, payload: bytes, received_at: datetime) -> RawMessage:
    """The dead letter as its source sent it: an unreadable NDJSON line (category ``line``)
    is read as a line again, anything else is the topic and the payload."""
    match = _HTTP_SOURCE.fullmatch(letter.source)
    site_id = int(match.group(1)) if match else None
    source = letter.source if letter.source.startswith(("http:", "import")) else None
    if letter.category == DeadLetterCategory.LINE.value or not letter.topic:
        message = parse_line(payload, received_at=received_at, site_id=site_id, source=source)
    else:
        message = RawMessage(letter.topic, payload, received_at, site_id, source=source)
    message.dead_letter = False
    return message


def reingest_letter(
    session: Session,
    store: FactStore,
    worker: IngestWorker,
    *,
    letter_id: int,
    payload: str | None,
    by: Actor,
) -> ReingestResult:
    """Send the dead letter (or ``payload``, its fixed text) through ingestion again.

    Raises ``TimeoutError`` when ingestion gives no verdict within ``VERDICT_TIMEOUT_S`` and
    the store's error when its write fails: nothing is deleted then.
    """
    letter = find_letter(store, letter_id=letter_id)
    if payload is None:
        if letter.truncated:
            raise InvalidInputError(
                DEAD_LETTER_PAYLOAD_CUT(kept=len(letter.payload), size=letter.payload_size)
            )
        data = letter.payload
    else:
        data = payload.encode()
    message = message_of(letter, payload=data, received_at=datetime.now(UTC))
    outcome = worker.submit([message]).result(timeout=VERDICT_TIMEOUT_S)
    verdict = outcome.verdicts[0]
    if verdict is Verdict.REJECTED:
        return ReingestResult(accepted=False, reason=outcome.reasons.get(0, REFUSED()))
    store.delete_dead_letter(letter_id)
    record_change(
        session,
        by=by,
        action="deadLetter.reingest",
        entity_type="deadLetter",
        entity_id=letter_id,
        before=letter_fields(letter),
        after={"fixedPayload": payload is not None, "verdict": verdict.value},
    )
    session.commit()
    duplicate = verdict is Verdict.DUPLICATE
    return ReingestResult(accepted=True, reason=ALREADY_STORED() if duplicate else None)
