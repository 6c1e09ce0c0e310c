"""Dead letters are bounded: payload size (with full size and hash), a cap per source and
minute with a stored count of what was dropped, a retention period; and the migration that
brought the bounds to stores written before. Vehicles that register themselves are bounded
per site: beyond the limit a new serial number is a dead letter."""

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import orjson
from sqlalchemy import select

from fleetscope.appstore.models import Vehicle
from fleetscope.facts import schema
from fleetscope.facts.dead_letters import DeadLetterCount, DeadLetterFilter
from fleetscope.facts.store import FactStore
from fleetscope.ingest.dead_letters import DeadLetterPolicy
from fleetscope.ingest.limits import IngestLimits
from fleetscope.ingest.messages import RawMessage, Verdict
from fleetscope.ingest.pipeline import IngestPipeline
from fleetscope.ingest.registry import VehicleRegistry

from .conftest import IngestEnv
from .vda import state, topic

MINUTE = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)


def _pipeline(
    env: IngestEnv,
    store: FactStore,
    policy: DeadLetterPolicy,
    *,
    max_vehicles_per_site: int | None = None,
) -> IngestPipeline:
    return IngestPipeline(
        store=store,
        registry=VehicleRegistry(
            session_factory=env.session_factory, max_vehicles_per_site=max_vehicles_per_site
        ),
        offline_after_s=env.settings.offline_after_seconds,
        limits=IngestLimits(dead_letters=policy),
    )


def _junk(at: datetime, *, source: str | None = None, size: int = 20, n: int = 0) -> RawMessage:
    """Not JSON: a dead letter of category "message"; ``n`` tells payloads apart."""
    payload = b"x" * size + (f" {n}".encode() if n else b"")
    return RawMessage("uagv/v2/Acme/S1/state", payload, at, source=source)


def test_a_new_vehicle_beyond_the_sites_limit_is_a_dead_letter_and_nothing_else_is_lost(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    pipeline = _pipeline(ingest_env, store, DeadLetterPolicy(), max_vehicles_per_site=2)

    def message(serial: str, header_id: int, interface: str = "uagv") -> RawMessage:
        payload = orjson.dumps(state(serial, header_id, MINUTE + timedelta(seconds=header_id)))
        return RawMessage(topic(serial, "state", interface), payload, MINUTE + timedelta(minutes=1))

    outcome = pipeline.process(
        [
            message("AGV-01", 1),
            message("AGV-02", 1),
            message("AGV-99", 1),  # the site's third vehicle
            message("AGV-01", 2),
            message("AGV-99", 2, interface="siteb"),  # another site has room
        ]
    )
    assert outcome.verdicts == [Verdict.ACCEPTED] * 2 + [Verdict.REJECTED] + [Verdict.ACCEPTED] * 2
    assert str(outcome.reasons[2]).startswith(
        f"site {ingest_env.site_a} has reached 2 vehicles, the most that register themselves"
    )
    total, (letter,) = store.dead_letter_page(limit=10, offset=0)
    assert (total, letter["category"]) == (1, "vehicle")
    assert letter["reason"] == str(outcome.reasons[2])
    with ingest_env.session_factory() as session:
        serials = session.execute(select(Vehicle.site_id, Vehicle.serial_number)).all()
    site_a, site_b = ingest_env.site_a, ingest_env.site_b
    assert sorted(serials) == sorted([(site_a, "AGV-01"), (site_a, "AGV-02"), (site_b, "AGV-99")])


def test_a_message_over_the_size_limit_is_a_dead_letter_with_its_size_and_hash(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    pipeline = ingest_env.pipeline(store)  # the settings' limit: 1 MiB
    sent = MINUTE + timedelta(seconds=1)
    huge = {**state("AGV-01", 1, sent), "padding": "x" * (1024 * 1024)}  # valid but too big
    payload = orjson.dumps(huge)
    outcome = pipeline.process(
        [
            RawMessage(topic("AGV-01", "state"), payload, MINUTE + timedelta(minutes=1)),
            RawMessage(
                topic("AGV-01", "state"),
                orjson.dumps(state("AGV-01", 2, sent)),
                MINUTE + timedelta(minutes=1),
            ),
        ]
    )
    assert outcome.verdicts == [Verdict.REJECTED, Verdict.ACCEPTED]
    _, (letter,) = store.dead_letter_page(limit=10, offset=0)
    assert letter["reason"] == (
        f"message has {len(payload)} bytes, at most 1048576 allowed (FLEETSCOPE_MAX_MESSAGE_BYTES)"
    )
    assert (letter["payload_size"], letter["payload_truncated"]) == (len(payload), True)
    assert letter["payload_sha256"] == hashlib.sha256(payload).hexdigest()


def test_payload_is_kept_up_to_the_limit_with_full_size_and_hash(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    pipeline = _pipeline(ingest_env, store, DeadLetterPolicy(payload_bytes=100))
    big = _junk(MINUTE, size=15_000)
    outcome = pipeline.process([big, _junk(MINUTE, size=60)])
    assert outcome.rejected == 2
    _, (small, large) = store.dead_letter_page(limit=10, offset=0)
    assert (large["payload"], large["payload_size"]) == ("x" * 100, 15_000)
    assert large["payload_sha256"] == hashlib.sha256(b"x" * 15_000).hexdigest()
    assert large["payload_truncated"] and not small["payload_truncated"]
    assert (small["payload_size"], small["source"], small["category"]) == (
        60,
        "mqtt:uagv",
        "message",
    )


def test_a_cap_per_source_and_minute_counts_what_it_drops_across_restarts(
    ingest_env: IngestEnv, tmp_path: Path
) -> None:
    policy = DeadLetterPolicy(per_source_minute=3)
    path = ingest_env.settings.resolved_facts_path()
    later = MINUTE + timedelta(seconds=59)
    with FactStore(path) as store:
        outcome = _pipeline(ingest_env, store, policy).process(
            [_junk(MINUTE, n=n) for n in range(5)]
            + [_junk(later, source="http:site-1", n=n) for n in range(2)]
            + [_junk(MINUTE + timedelta(minutes=1), n=n) for n in range(5, 7)]
        )
        assert outcome.rejected == 9  # every sender still gets its reasons
    with FactStore(path) as store:
        assert store.dead_letter_counts() == [
            DeadLetterCount("mqtt:uagv", "message", stored=5, dropped=2),
            DeadLetterCount("http:site-1", "message", stored=2, dropped=0),
        ]
        minute_only = DeadLetterFilter(
            received_from=MINUTE, received_to=MINUTE + timedelta(minutes=1)
        )
        assert store.dead_letter_counts(filters=minute_only)[0] == DeadLetterCount(
            "mqtt:uagv", "message", stored=3, dropped=2
        )
        # A pipeline started within the minute goes on counting from what is stored.
        now = datetime.now(UTC)
        _pipeline(ingest_env, store, policy).process(
            [_junk(now, source="import", n=n) for n in range(2)]
        )
    with FactStore(path) as store:
        _pipeline(ingest_env, store, policy).process(
            [_junk(now, source="import", n=n) for n in range(2, 4)]
        )
        assert store.dead_letter_counts(filters=DeadLetterFilter(source="import")) == [
            DeadLetterCount("import", "message", stored=3, dropped=1)
        ]


def test_retention_removes_old_dead_letters_and_old_drop_counts(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    policy = DeadLetterPolicy(per_source_minute=1, retention=timedelta(days=30))
    pipeline = _pipeline(ingest_env, store, policy)
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    old, recent = now - timedelta(days=31), now - timedelta(days=29)
    pipeline.process([_junk(old, n=1), _junk(old, n=2), _junk(recent, n=3), _junk(recent, n=4)])
    assert store.dead_letter_counts()[0] == DeadLetterCount("mqtt:uagv", "message", 2, 2)
    pipeline.tick(now=now)
    assert store.dead_letter_counts() == [DeadLetterCount("mqtt:uagv", "message", 1, 1)]
    _, (kept,) = store.dead_letter_page(limit=10, offset=0)
    assert kept["received_at"] == recent


def test_a_purge_removes_a_bounded_slice_oldest_first(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    pipeline = _pipeline(ingest_env, store, DeadLetterPolicy())
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    pipeline.process([_junk(now - timedelta(days=40, minutes=i), n=i) for i in range(5)])
    assert store.purge_dead_letters(before=now, limit=2) == 2
    assert store.purge_dead_letters(before=now, limit=10) == 3
    assert store.table_counts()["dead_letters"] == 0


def test_dead_letters_of_older_stores_gain_size_hash_and_a_bounded_payload(
    tmp_path: Path,
) -> None:
    path = tmp_path / "facts.duckdb"
    connection = duckdb.connect(str(path))
    schema.migrate(connection, migrations=schema.MIGRATIONS[:5])  # before the bounds
    payload = b"y" * 100_000
    connection.execute(
        "INSERT INTO dead_letters VALUES (1, ?, 't', ?, 'old reason')", [MINUTE, payload]
    )
    connection.close()
    with FactStore(path) as store:
        _, (letter,) = store.dead_letter_page(limit=1, offset=0)
        cursor = store.cursor()
        kept = cursor.execute("SELECT octet_length(payload) FROM dead_letters").fetchone()
        cursor.close()
    assert (letter["source"], letter["category"], letter["reason"]) == (
        "unknown",
        "unknown",
        "old reason",
    )
    assert letter["payload_size"] == 100_000 and kept == (64 * 1024,)
    assert letter["payload_sha256"] == hashlib.sha256(payload).hexdigest()


def test_a_message_sent_again_is_refused_again_but_kept_once_also_after_a_restart(
    ingest_env: IngestEnv,
) -> None:
    path = ingest_env.settings.resolved_facts_path()
    policy = DeadLetterPolicy(per_source_minute=2)
    bad = _junk(MINUTE)
    with FactStore(path) as store:
        pipeline = _pipeline(ingest_env, store, policy)
        first = pipeline.process([bad, bad, _junk(MINUTE, n=1)])
        assert first.rejected == 3 and first.reasons[1] == first.reasons[0]
        # The repeat took no place under the cap of 2: the third letter is kept.
        assert store.dead_letter_counts() == [DeadLetterCount("mqtt:uagv", "message", 2, 0)]
    redelivered = RawMessage(bad.topic, bad.payload, MINUTE + timedelta(hours=2))
    elsewhere = RawMessage("uagv/v2/Acme/S2/state", bad.payload, MINUTE + timedelta(hours=2))
    with FactStore(path) as store:  # a restart: the broker redelivers what was not acked
        again = _pipeline(ingest_env, store, policy).process([redelivered, elsewhere])
        assert again.rejected == 2 and str(again.reasons[0]) == str(first.reasons[0])
        total, letters = store.dead_letter_page(limit=10, offset=0)
        assert total == 3
        assert sorted(letter["topic"] for letter in letters) == [
            "uagv/v2/Acme/S1/state",
            "uagv/v2/Acme/S1/state",
            "uagv/v2/Acme/S2/state",
        ]
        # Two days on the same bytes are a message of their own again (the window is a day).
        late = RawMessage(bad.topic, bad.payload, MINUTE + timedelta(days=2))
        _pipeline(ingest_env, store, policy).process([late])
        assert store.dead_letter_page(limit=10, offset=0)[0] == 4


def test_a_batch_beyond_the_cap_sent_again_is_counted_once(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    pipeline = _pipeline(ingest_env, store, DeadLetterPolicy(per_source_minute=3))
    batch = [_junk(MINUTE, n=n) for n in range(5)]
    for _ in range(3):  # a client retrying its batch within the minute
        assert pipeline.process(batch).rejected == 5
    assert store.dead_letter_counts() == [DeadLetterCount("mqtt:uagv", "message", 3, 2)]
    # New letters beyond the cap are still counted, also beyond what is remembered.
    pipeline.process([_junk(MINUTE, n=n) for n in range(5, 10)])
    assert store.dead_letter_counts() == [DeadLetterCount("mqtt:uagv", "message", 3, 7)]


def test_a_deleted_dead_letters_id_is_never_given_again(ingest_env: IngestEnv) -> None:
    path = ingest_env.settings.resolved_facts_path()
    with FactStore(path) as store:
        _pipeline(ingest_env, store, DeadLetterPolicy()).process(
            [_junk(MINUTE, n=1), _junk(MINUTE, n=2)]
        )
        _, letters = store.dead_letter_page(limit=10, offset=0)
        last = max(letter["id"] for letter in letters)
        assert store.delete_dead_letter(last)
        with store.exclusive():  # a bulk operation (a merge, a re-derivation's swap)
            pass
        _pipeline(ingest_env, store, DeadLetterPolicy()).process([_junk(MINUTE, n=3)])
        _, letters = store.dead_letter_page(limit=10, offset=0)
        assert [letter["id"] for letter in letters] == [last + 1, last - 1]
        assert store.delete_dead_letter(last + 1)
    with FactStore(path) as store:  # a restart
        _pipeline(ingest_env, store, DeadLetterPolicy()).process([_junk(MINUTE, n=4)])
        _, letters = store.dead_letter_page(limit=10, offset=0)
        assert [letter["id"] for letter in letters] == [last + 2, last - 1]
