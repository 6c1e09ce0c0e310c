"""The ingest pipeline: raw messages -> decode -> dedup -> vehicle -> derivation -> fact store.

``IngestPipeline`` is not thread-safe by design: exactly one thread drives it (the ingest
worker in the server, the command itself in ``import`` and ``rebuild``). A batch is written
in one transaction together with the deriver snapshots, so facts and machine state never
diverge; if the write fails, the touched derivers are dropped and restored from the last
committed snapshot on their next message (``derivers``).

One bad message costs nothing but itself: what decoding or the registry refuses is a dead
letter (``dead_letters``); a batch whose write still fails is split (``isolation``) until the
offending message alone is one. ``process`` raises only when the store itself fails.
"""

import hashlib
import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from fleetscope.derive import VehicleDeriver, in_derivation_order
from fleetscope.facts.model import LiveStatus
from fleetscope.facts.rawlog import FrameKind, RawFrame
from fleetscope.facts.store import DedupKey, FactStore, StoreBatch, StoredKey
from fleetscope.i18n.refusals import UNDECODABLE
from fleetscope.ingest.dead_letters import DeadLetterGate, Retention, minute_of
from fleetscope.ingest.derivers import Derivers
from fleetscope.ingest.isolation import is_infrastructural, store_isolating
from fleetscope.ingest.limits import IngestLimits
from fleetscope.ingest.live import LiveHub
from fleetscope.ingest.messages import BatchOutcome, RawMessage, Verdict
from fleetscope.ingest.registry import RegistryError, VehicleInfo, VehicleRegistry
from fleetscope.vda5050.decode import decode
from fleetscope.vda5050.limits import DecodeLimits
from fleetscope.vda5050.model import (
    ConnectionMessage,
    DecodeError,
    FactsheetMessage,
    Message,
    MessageKind,
    StateMessage,
)

log = logging.getLogger(__name__)


def _decode(raw: RawMessage, *, limits: DecodeLimits) -> Message:
    """``decode``, whatever it raises this message's fault alone: decoding is pure, so an
    error it did not foresee is a dead letter, never a failed batch that the broker would
    deliver first again and again (every tenant's messages waiting behind it)."""
    try:
        return decode(raw.topic, raw.payload, received_at=raw.received_at, limits=limits)
    except DecodeError:
        raise
    except Exception as error:
        log.exception("decoding %r raised instead of refusing", raw.topic)
        raise DecodeError(UNDECODABLE(error=f"{type(error).__name__}: {error}")) from None


_CONTENT_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def content_instant(payload: bytes) -> datetime:
    """The dedup key's instant of a message without a time of its own (a 2.1 factsheet may
    omit it), taken from its bytes: the receive time would make every redelivery new (a
    retained factsheet, resent on each reconnect, stored once more per restart), while a
    changed factsheet stays new. Within nine years of 1970, where no live message lies."""
    digest = hashlib.blake2b(payload, digest_size=6).digest()
    return _CONTENT_EPOCH + timedelta(microseconds=int.from_bytes(digest, "big"))


# (index in the batch, message, vehicle, dedup key, raw): a plain tuple, one per message.
_Candidate = tuple[int, Message, VehicleInfo, DedupKey, RawMessage]


def _vehicle_and_message(candidate: _Candidate) -> tuple[int, Message]:
    return candidate[2].vehicle_id, candidate[1]


_KIND_TEXT: dict[type, str] = {
    StateMessage: MessageKind.STATE.value,
    ConnectionMessage: MessageKind.CONNECTION.value,
    FactsheetMessage: MessageKind.FACTSHEET.value,
}


class IngestPipeline:
    def __init__(
        self,
        *,
        store: FactStore,
        registry: VehicleRegistry,
        offline_after_s: float,
        limits: IngestLimits,
        hub: LiveHub | None = None,
    ) -> None:
        """``limits``: decode's bounds and the dead letters' (``IngestLimits.from_settings``)."""
        self.store = store
        self.registry = registry
        self.hub = hub
        self._derivers = Derivers(store=store, offline_after_s=offline_after_s)
        self._details: dict[int, tuple[str | None, str | None]] = {}  # model, protocol version
        self._latest_sent = store.latest_sent()
        self._limits = limits.decode
        self._replay_limits = limits.decode.for_replay()
        self._dead_letter_policy = limits.dead_letters
        self._gate = self._new_gate()
        self._retention = Retention(store=store, retention=limits.dead_letters.retention)

    def process(self, messages: Sequence[RawMessage]) -> BatchOutcome:
        """Ingest one batch (one transaction); returns a verdict per message, in order."""
        outcome = BatchOutcome(verdicts=[Verdict.REJECTED] * len(messages))
        batch = StoreBatch()
        latest_sent = self._latest_sent.copy()  # noted per candidate by _decode_and_resolve
        candidates, probe = self._decode_and_resolve(messages, outcome, batch)
        accepted = candidates
        if probe:
            stored = self.store.find_stored(probe)
            if stored:
                verdicts = outcome.verdicts
                accepted = []
                for candidate in candidates:
                    if candidate[3] in stored:
                        verdicts[candidate[0]] = Verdict.DUPLICATE
                    else:
                        accepted.append(candidate)
        try:
            self._store(accepted, batch)
        except Exception as error:
            # What the batch noted as sent was not stored: only what its parts store counts.
            self._latest_sent = latest_sent
            try:
                if is_infrastructural(error):
                    raise
                self._isolate(accepted, batch, outcome, error)
            except BaseException:
                # Nor were its dead letters: the gate must not take a redelivery of them for
                # a repeat of letters kept. It counts from what is stored again.
                self._gate = self._new_gate()
                raise
        return outcome

    def _new_gate(self) -> DeadLetterGate:
        since = minute_of(datetime.now(UTC)) - timedelta(minutes=1)
        try:
            kept = self.store.dead_letters_kept_since(since=since)
        except Exception:
            # A failing store fails its next write too; back again, the cap's counts of this
            # minute start over.
            kept = {}
            log.warning("dead-letter counts not read back; the cap counts from zero")
        return DeadLetterGate(policy=self._dead_letter_policy, kept=kept)

    def _store(self, group: Sequence[_Candidate], batch: StoreBatch) -> None:
        """Derive ``group`` into ``batch``, write it in one transaction; if that fails, drop
        the derivers it touched (restored from their snapshots) and raise."""
        try:
            self._derive(group, batch)
            self.store.write_batch(batch)
        except Exception:
            self._derivers.drop(vehicle.vehicle_id for _, _, vehicle, _, _ in group)
            raise
        if self.hub is not None and batch.live:
            self.hub.publish(batch.live.values())

    def _isolate(
        self,
        accepted: list[_Candidate],
        batch: StoreBatch,
        outcome: BatchOutcome,
        error: Exception,
    ) -> None:
        """The batch's write failed for a reason of its own (``isolation``): its parts are
        stored, then its dead letters and the messages refused on their own are written
        together. If even that fails, the store fails and the error is raised."""
        log.warning("ingest batch of %d messages failed, isolating: %r", len(accepted), error)
        refused = store_isolating(
            accepted, error=error, attempt=self._store_part, vehicle_of=lambda c: c[2].vehicle_id
        )
        for (index, _, _, _, raw), refusal in refused:
            outcome.verdicts[index] = Verdict.REJECTED
            outcome.reasons[index] = self._gate.reject(batch, raw=raw, error=refusal)
            log.warning("dead letter on %s: %s", raw.topic[:200], outcome.reasons[index])
        self.store.write_batch(
            StoreBatch(dead_letters=batch.dead_letters, dead_letter_drops=batch.dead_letter_drops)
        )

    def _store_part(self, part: Sequence[_Candidate]) -> None:
        self._store(part, StoreBatch())
        latest_sent = self._latest_sent
        for _, _, _, key, _ in part:
            stream = (key[0], key[1])
            newest = latest_sent.get(stream)
            if newest is None or key[3] > newest:
                latest_sent[stream] = key[3]

    def _decode_and_resolve(
        self, messages: Sequence[RawMessage], outcome: BatchOutcome, batch: StoreBatch
    ) -> tuple[list[_Candidate], list[DedupKey]]:
        """Decode, resolve the vehicle and drop repeats within the batch, in one pass.

        Returns the candidates (every message not rejected and not repeated in the batch)
        and the keys that may already be stored (to probe). Runs once per message: locals
        instead of attribute look-ups, and no object per message beyond the tuples kept.
        """
        candidates: list[_Candidate] = []
        probe: list[DedupKey] = []
        verdicts = outcome.verdicts
        accepted_verdict = Verdict.ACCEPTED
        duplicate_verdict = Verdict.DUPLICATE
        latest_sent = self._latest_sent
        limits = self._limits
        seen: set[DedupKey] = set()
        # One registry look-up per topic and sender site per batch. The topic names the
        # vehicle: decode rejects a payload whose manufacturer or serial number differs.
        resolved: dict[tuple[str, int | None], VehicleInfo] = {}
        for index, raw in enumerate(messages):
            try:
                if raw.error is not None:
                    raise DecodeError(raw.error)
                message = _decode(raw, limits=limits)
                header = message.header
                route = (raw.topic, raw.site_id)
                vehicle = resolved.get(route)
                if vehicle is None:
                    vehicle = resolved[route] = self.registry.resolve(
                        manufacturer=header.manufacturer,
                        serial_number=header.serial_number,
                        interface=header.interface,
                        site_id=raw.site_id,
                    )
            except (DecodeError, RegistryError) as err:
                outcome.reasons[index] = self._gate.reject(batch, raw=raw, error=err)
                continue
            kind = _KIND_TEXT[type(message)]
            sent = header.timestamp
            if type(message) is FactsheetMessage and not message.timed:
                sent = content_instant(raw.payload)
            key = (vehicle.vehicle_id, kind, header.header_id, sent)
            if key in seen:
                verdicts[index] = duplicate_verdict
                continue
            seen.add(key)
            stream = (vehicle.vehicle_id, kind)
            newest = latest_sent.get(stream)
            if newest is None or sent > newest:
                latest_sent[stream] = sent
            else:
                # Not newer than what is stored (or earlier in this batch): may be stored.
                probe.append(key)
            verdicts[index] = accepted_verdict
            candidates.append((index, message, vehicle, key, raw))
        return candidates, probe

    def _derive(self, accepted: Sequence[_Candidate], batch: StoreBatch) -> None:
        """Derive ``accepted`` and add them to ``batch``: raw frames in the order derived
        (each vehicle's states by timestamp), so a rebuild replays the same order."""
        if not accepted:
            return
        accepted = in_derivation_order(accepted, vehicle_and_message=_vehicle_and_message)
        seq = self.store.allocate_seq(len(accepted))
        last_seq: dict[int, int] = {}
        vehicles: dict[int, VehicleInfo] = {}
        derivers: dict[int, VehicleDeriver] = {}
        details = self._details
        frames = batch.frames
        keys = batch.keys
        facts = batch.facts
        message_frame = FrameKind.MESSAGE
        for _, message, vehicle, key, raw in accepted:
            vehicle_id = vehicle.vehicle_id
            frames.append(
                RawFrame(message_frame, seq, raw.received_at, vehicle_id, raw.topic, raw.payload)
            )
            keys.append(StoredKey(seq, key))
            deriver = derivers.get(vehicle_id)
            if deriver is None:
                deriver = derivers[vehicle_id] = self._derivers.of(vehicle)
                vehicles[vehicle_id] = vehicle
            deriver.feed_into(message, facts)
            last_seq[vehicle_id] = seq
            seq += 1
            known = details.get(vehicle_id)
            # Only a factsheet or a header with another version can change the details.
            if (
                known is None
                or message.header.version != known[1]
                or type(message) is FactsheetMessage
            ):
                self._note_details(vehicle, message)
        known_zone = self.store.known_zone
        for vehicle_id, last in last_seq.items():
            if not known_zone(vehicle_id):
                vehicle = vehicles[vehicle_id]
                batch.zones[vehicle_id] = (vehicle.site_id, vehicle.time_zone)
            deriver = derivers[vehicle_id]
            batch.snapshots[vehicle_id] = (deriver.snapshot(), last)
            batch.live[vehicle_id] = deriver.live()

    def _note_details(self, vehicle: VehicleInfo, message: Message) -> None:
        """Keep the app store's model (factsheet) and protocol version (header) current."""
        known_model, known_version = self._details.setdefault(
            vehicle.vehicle_id, (vehicle.model, vehicle.protocol_version)
        )
        version = message.header.version or known_version
        model = message.series_name if isinstance(message, FactsheetMessage) else None
        model = model or known_model
        if (model, version) != (known_model, known_version):
            self.registry.update_details(
                vehicle_id=vehicle.vehicle_id, model=model, protocol_version=version
            )
            # Only once written: if the app store refused it, the next message tries again.
            self._details[vehicle.vehicle_id] = (model, version)

    # --- clock, rebuild, derivers (``derivers``) -------------------------------------------

    def tick(self, *, now: datetime) -> int:
        """Advance every vehicle's clock (offline after silence); returns the facts made.
        Also removes dead letters past their retention (a bounded slice, when due)."""
        batch = self._derivers.tick_batch(now=now)
        self._commit(batch)
        self._retention.run(now=now)
        return len(batch.facts)

    def replay(self, frames: Sequence[RawFrame]) -> int:
        """Rebuild: feed stored frames (in stored order) to the derivers; returns frames skipped.
        Writes facts, rollups and snapshots but no raw data (the frames are already stored)."""
        batch, skipped = self._derivers.replay_batch(
            frames, registry=self.registry, limits=self._replay_limits
        )
        self._commit(batch)
        return skipped

    def restore_all(self, vehicle_ids: Sequence[int]) -> None:
        """Load the derivers of these vehicles now, so clock ticks reach them before a message."""
        self._derivers.restore_all(self.registry, vehicle_ids)

    def reload_vehicles(self, vehicle_ids: Sequence[int], *, restore: Sequence[int]) -> None:
        """These vehicles' facts and snapshots were replaced (``ingest.rederive``): their
        derivers are dropped, those of ``restore`` (the ones with a snapshot) made again
        from it with their site's current configuration (so clock ticks reach them) and
        their live status published. In the pipeline's thread."""
        self._derivers.drop(vehicle_ids)
        self.registry.forget(vehicle_ids)
        self._derivers.restore_all(self.registry, restore)
        if self.hub is not None:
            self.hub.publish(self._derivers.live_statuses_of(restore))

    def live_statuses(self) -> list[LiveStatus]:
        return self._derivers.live_statuses()

    def reset(self) -> None:
        self._derivers.clear()

    def _commit(self, batch: StoreBatch) -> None:
        try:
            self.store.write_batch(batch)
        except Exception:
            self._derivers.drop(batch.snapshots)
            raise
        if self.hub is not None and batch.live:
            self.hub.publish(batch.live.values())
