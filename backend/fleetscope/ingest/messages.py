"""What the ingest pipeline takes (``RawMessage``, from any transport) and what it answers
per batch (``BatchOutcome``: a ``Verdict`` per message, with the reason of each rejection)."""

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from msgspec import Struct

from fleetscope.i18n.text import Message


# One per message: a msgspec Struct costs a fraction of a dataclass to create, and with
# gc=False (it holds only atoms and an immutable reason) the collector never tracks it.
class RawMessage(Struct, gc=False):
    topic: str
    payload: bytes
    received_at: datetime
    # The sender's site (HTTP token); None for MQTT and file import (site from the topic).
    site_id: int | None = None
    # Set when the line around the message was already unreadable: dead-lettered as is.
    error: Message | None = None
    # Who sent it, for the dead letters' cap per source and minute: "http:site-<id>",
    # "import"; None for MQTT, whose source is the topic's interface ("mqtt:<interface>").
    source: str | None = None
    # False for a dead letter sent again (Administration's re-ingest): refused once more,
    # it stays the one dead letter it was instead of becoming a second.
    dead_letter: bool = True


class Verdict(StrEnum):
    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"
    REJECTED = "rejected"


@dataclass(slots=True)
class BatchOutcome:
    verdicts: list[Verdict] = field(default_factory=list)
    # Index in the batch -> why it was rejected (``fleetscope.i18n.refusals``).
    reasons: dict[int, Message] = field(default_factory=dict)

    @property
    def accepted(self) -> int:
        return self.verdicts.count(Verdict.ACCEPTED)

    @property
    def duplicates(self) -> int:
        return self.verdicts.count(Verdict.DUPLICATE)

    @property
    def rejected(self) -> int:
        return self.verdicts.count(Verdict.REJECTED)

    def slice(self, start: int, stop: int) -> "BatchOutcome":
        return BatchOutcome(
            verdicts=self.verdicts[start:stop],
            reasons={i - start: r for i, r in self.reasons.items() if start <= i < stop},
        )
