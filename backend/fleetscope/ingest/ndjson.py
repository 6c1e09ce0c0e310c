"""The NDJSON line format of HTTP ingestion and file import: {"topic", "payload"} per line."""

from collections.abc import Iterable, Iterator
from datetime import datetime

import orjson

from fleetscope.i18n import refusals
from fleetscope.i18n.text import Message
from fleetscope.ingest.messages import RawMessage


def parse_line(
    line: bytes,
    *,
    received_at: datetime,
    site_id: int | None = None,
    source: str | None = None,
) -> RawMessage:
    """One line as a message; an unreadable line comes back with ``error`` set (dead letter).
    ``source``: the sender, as the dead letters' cap per source counts it."""

    def bad(reason: Message) -> RawMessage:
        return RawMessage(
            topic="",
            payload=line,
            received_at=received_at,
            site_id=site_id,
            error=reason,
            source=source,
        )

    try:
        envelope = orjson.loads(line)
    except orjson.JSONDecodeError as err:
        return bad(refusals.line_not_json(str(err)))
    if not isinstance(envelope, dict):
        return bad(refusals.LINE_NOT_OBJECT())
    topic = envelope.get("topic")
    payload = envelope.get("payload")
    if not isinstance(topic, str) or not topic:
        return bad(refusals.LINE_WITHOUT_TOPIC())
    if not isinstance(payload, dict):
        return bad(refusals.LINE_WITHOUT_PAYLOAD())
    return RawMessage(
        topic=topic,
        payload=orjson.dumps(payload),
        received_at=received_at,
        site_id=site_id,
        source=source,
    )


def numbered_lines(lines: Iterable[bytes], *, start: int = 1) -> Iterator[tuple[int, bytes]]:
    """Non-blank lines with their 1-based number in the input (blank lines keep counting)."""
    for number, line in enumerate(lines, start=start):
        stripped = line.strip()
        if stripped:
            yield number, stripped
