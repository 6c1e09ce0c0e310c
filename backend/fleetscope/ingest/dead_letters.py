"""Dead letters as the pipeline keeps them: bounded in size, in rate and in age.

- Size: a dead letter keeps its payload up to ``payload_bytes`` (setting, default 64 KiB),
  with the size and SHA-256 of the whole payload, the topic up to ``TOPIC_KEPT`` characters
  and the reason (rendered in every language, ``fleetscope.i18n.refusals``) up to
  ``REASON_MAX`` characters.
- Rate: at most ``per_source_minute`` (setting, default 1,000) per source and minute of
  receipt. The source is who sent it: ``mqtt:<interface>``, ``http:site-<id>`` (the API
  token's site) or ``import``. Beyond the cap only a count is kept, per source, minute and
  category (``dead_letter_drops``, written in the batch's transaction, so it survives a
  restart), and the cap's counts of the current minute are read back on start.
- Repeats: a message sent again (an MQTT redelivery, a retried HTTP batch) is refused again
  but kept once: the gate passes one dead letter per source, topic and payload in the
  minutes it counts (a repeat takes no place under the cap, and one beyond the cap is
  counted once, for as many as the cap keeps), and the fact store leaves out one kept
  already (``facts.dead_letters.unseen``: after a restart too).
- Age: ``retention`` (setting, default 30 days). ``Retention.run`` is called by the
  pipeline's clock tick; it removes at most ``PURGE_ROWS`` dead letters per call (a few
  milliseconds of the ingest thread), every ``PURGE_INTERVAL``, at once again while more
  are due.
"""

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from fleetscope.facts.store import FactStore
from fleetscope.facts.store_batch import DeadLetter, DeadLetterCategory, StoreBatch
from fleetscope.i18n import DEFAULT_LANGUAGE, LANGUAGES, Message
from fleetscope.i18n.refusals import NOT_STORABLE
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.registry import RegistryError
from fleetscope.vda5050.model import DecodeError

TOPIC_KEPT = 1024
REASON_MAX = 1000
SOURCE_INTERFACE_MAX = 64
PURGE_ROWS = 10_000
PURGE_INTERVAL = timedelta(minutes=10)
_MINUTE = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class DeadLetterPolicy:
    payload_bytes: int = 64 * 1024
    per_source_minute: int = 1000
    retention: timedelta = timedelta(days=30)


def source_of(raw: RawMessage) -> str:
    """The sender as the cap counts it; MQTT messages carry none and are named by the
    interface, the first part of their topic."""
    if raw.source is not None:
        return raw.source
    interface = raw.topic.split("/", 1)[0][:SOURCE_INTERFACE_MAX]
    return f"mqtt:{interface}" if interface else "mqtt"


def bounded_reason(reason: str) -> str:
    return reason if len(reason) <= REASON_MAX else reason[: REASON_MAX - 1] + "…"


def minute_of(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


class DeadLetterGate:
    """Turns the rejected messages of a batch into its dead letters, or into dropped counts
    once their source's cap for the minute is reached. One thread (the pipeline's) uses it."""

    def __init__(self, *, policy: DeadLetterPolicy, kept: dict[tuple[str, datetime], int]):
        """``kept``: dead letters already stored per source and minute (current minute)."""
        self.policy = policy
        self._kept = dict(kept)
        # (source, topic, payload SHA-256) of the letters kept or counted -> their minute
        self._passed: dict[tuple[str, str, str], datetime] = {}
        self._dropped: dict[tuple[str, datetime], int] = {}  # of them counted, per minute
        self._newest_minute = max((minute for _, minute in kept), default=None)

    def reject(self, batch: StoreBatch, *, raw: RawMessage, error: Exception) -> Message:
        """``raw`` refused with ``error``: decoding's and the registry's, or the fact store's
        (found by ``isolation``). Adds its dead letter (or drop count); returns the reason."""
        reason: Message
        if isinstance(error, RegistryError):
            category, reason = DeadLetterCategory.VEHICLE, error.reason
        elif isinstance(error, DecodeError):
            category = (
                DeadLetterCategory.LINE if raw.error is not None else DeadLetterCategory.MESSAGE
            )
            reason = error.reason
        else:
            category = DeadLetterCategory.STORE
            reason = NOT_STORABLE(error=f"{type(error).__name__}: {error}")
        if raw.dead_letter:
            self.add(batch, raw=raw, category=category, reason=reason)
        return reason

    def add(
        self,
        batch: StoreBatch,
        *,
        raw: RawMessage,
        category: DeadLetterCategory,
        reason: Message,
    ) -> None:
        source = source_of(raw)
        minute = minute_of(raw.received_at)
        self._forget_before(minute)
        payload, topic = raw.payload, raw.topic[:TOPIC_KEPT]
        digest = hashlib.sha256(payload).hexdigest()
        letter_key = (source, topic, digest)
        if letter_key in self._passed:
            return
        key = (source, minute)
        kept = self._kept.get(key, 0)
        if kept >= self.policy.per_source_minute:
            drops = batch.dead_letter_drops
            drop_key = (source, minute, category)
            drops[drop_key] = drops.get(drop_key, 0) + 1
            # Remembered too, as many as the cap keeps: a batch sent again whole is counted
            # once (a flood beyond twice the cap is counted as it comes).
            remembered = self._dropped.get(key, 0)
            if remembered < self.policy.per_source_minute:
                self._dropped[key] = remembered + 1
                self._passed[letter_key] = minute
            return
        self._kept[key] = kept + 1
        self._passed[letter_key] = minute
        texts: dict[str, str] = {
            language: bounded_reason(reason.render(language)) for language in LANGUAGES
        }
        batch.dead_letters.append(
            DeadLetter(
                received_at=raw.received_at,
                source=source,
                category=category,
                topic=topic,
                payload=payload[: self.policy.payload_bytes],
                payload_size=len(payload),
                payload_sha256=digest,
                reason=texts[DEFAULT_LANGUAGE],
                reasons=texts,
            )
        )

    def _forget_before(self, minute: datetime) -> None:
        """Counts and letters of minutes before the previous one are done with (bounded
        memory: at most twice the cap's letters per source and minute)."""
        newest = self._newest_minute
        if newest is not None and minute <= newest:
            return
        self._newest_minute = minute
        oldest = minute - _MINUTE
        for counts in (self._kept, self._dropped):
            for key in [key for key in counts if key[1] < oldest]:
                del counts[key]
        for letter in [letter for letter, at in self._passed.items() if at < oldest]:
            del self._passed[letter]


class Retention:
    """Removes dead letters older than the policy's retention, a bounded slice per run."""

    def __init__(self, *, store: FactStore, retention: timedelta) -> None:
        self._store = store
        self._retention = retention
        self._next_run: datetime | None = None

    def run(self, *, now: datetime) -> int:
        """Purges if due; returns the dead letters removed."""
        if self._next_run is not None and now < self._next_run:
            return 0
        self._next_run = now + PURGE_INTERVAL  # also after a failure: not every tick
        removed = self._store.purge_dead_letters(before=now - self._retention, limit=PURGE_ROWS)
        if removed >= PURGE_ROWS:
            self._next_run = now  # more are due: the next tick goes on
        return removed
