"""The configured bounds of ingestion: what decode accepts, what dead letters keep."""

from dataclasses import dataclass, field
from datetime import timedelta

from fleetscope.ingest.dead_letters import DeadLetterPolicy
from fleetscope.settings import Settings
from fleetscope.vda5050.limits import DecodeLimits


@dataclass(frozen=True, slots=True)
class IngestLimits:
    decode: DecodeLimits = field(default_factory=DecodeLimits)
    dead_letters: DeadLetterPolicy = field(default_factory=DeadLetterPolicy)

    @classmethod
    def from_settings(cls, settings: Settings) -> "IngestLimits":
        return cls(
            decode=DecodeLimits(
                earliest=settings.earliest_timestamp,
                allowed_skew=timedelta(seconds=settings.timestamp_skew_seconds),
                max_payload_bytes=settings.max_message_bytes,
            ),
            dead_letters=DeadLetterPolicy(
                payload_bytes=settings.dead_letter_payload_bytes,
                per_source_minute=settings.dead_letters_per_source_minute,
                retention=timedelta(days=settings.dead_letter_retention_days),
            ),
        )
