"""The ingest pipeline with hand-made messages: facts, dedup, dead letters, registry, rebuild."""

from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from fleetscope.appstore.models import Vehicle
from fleetscope.facts.store import FactStore
from fleetscope.ingest import pipeline as pipeline_module
from fleetscope.ingest.batch import ingest_lines, rebuild
from fleetscope.ingest.messages import RawMessage, Verdict
from fleetscope.vda5050.model import Message

from .conftest import IngestEnv
from .facts_dump import dump
from .vda import T0, connection, factsheet, line, state, topic, trip


def _raw(serial: str, kind: str, payload: dict[str, object], **kw: object) -> RawMessage:
    interface = str(kw.pop("interface", "uagv"))
    return RawMessage(
        topic=topic(serial, kind, interface),
        payload=orjson.dumps(payload),
        received_at=T0,
        **kw,  # type: ignore[arg-type]
    )


def _trip_raw(serial: str, interface: str = "uagv") -> list[RawMessage]:
    return [_raw(serial, kind, p, interface=interface) for kind, p in trip(serial, start=T0)]


def _vehicles(env: IngestEnv) -> dict[str, int]:
    with env.session_factory() as session:
        return {v.serial_number: v.site_id for v in session.scalars(select(Vehicle))}


def test_messages_become_facts_and_new_vehicles_join_the_interfaces_site(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    pipeline = ingest_env.pipeline(store)
    outcome = pipeline.process(_trip_raw("S1") + _trip_raw("S2", interface="siteb"))
    assert outcome.rejected == 0 and outcome.duplicates == 0
    assert _vehicles(ingest_env) == {"S1": ingest_env.site_a, "S2": ingest_env.site_b}
    cursor = store.cursor()
    orders = cursor.execute("SELECT outcome, count(*) FROM orders GROUP BY outcome").fetchall()
    zones = dict(cursor.execute("SELECT vehicle_id, time_zone FROM vehicle_zones").fetchall())
    cursor.close()
    assert orders == [("finished", 6)]
    assert sorted(zones.values()) == ["America/Chicago", "Europe/Berlin"]
    assert store.table_counts()["raw_keys"] == len(outcome.verdicts)


def test_duplicates_are_counted_not_derived_again(ingest_env: IngestEnv, store: FactStore) -> None:
    pipeline = ingest_env.pipeline(store)
    messages = _trip_raw("S1")
    first = pipeline.process(messages + messages[:2])  # two repeated within the batch
    assert (first.accepted, first.duplicates) == (len(messages), 2)
    before = dump(store)
    again = pipeline.process(messages)
    assert (again.accepted, again.duplicates) == (0, len(messages))
    assert dump(store) == before


def test_bad_messages_become_dead_letters_with_reasons(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    pipeline = ingest_env.pipeline(store)
    good = _raw("S1", "state", state("S1", 1, T0))
    outcome = pipeline.process(
        [
            RawMessage(topic=topic("S1", "state"), payload=b"{not json", received_at=T0),
            _raw("S9", "state", state("S9", 1, T0), interface="nobody"),
            good,
        ]
    )
    assert outcome.verdicts == [Verdict.REJECTED, Verdict.REJECTED, Verdict.ACCEPTED]
    assert "no site receives vehicles of interface 'nobody'" in str(outcome.reasons[1])
    count, items = store.dead_letter_page(limit=10, offset=0)
    assert count == 2
    german = store.dead_letter_page(limit=10, offset=0, language="de")[1]
    assert german[0]["reason"].startswith(
        "kein Standort empfängt Fahrzeuge der Schnittstelle 'nobody'"
    )
    assert german[1]["reason"] == (
        "ungültiges JSON: JSON fehlerhaft: Schlüssel eines Objekts müssen Texte sein (Byte 1)"
    )
    assert {item["topic"] for item in items} == {
        topic("S1", "state"),
        topic("S9", "state", "nobody"),
    }


def test_a_digit_that_is_not_ascii_is_one_dead_letter_not_a_failed_batch(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    """ "²".isdigit() is true but int("²") fails: in the version and in the topic's major
    version it once failed the whole batch, and the broker delivered it first again forever."""
    pipeline = ingest_env.pipeline(store)
    superscript = {**state("S2", 1, T0), "version": "\u00b2.0.0"}
    wrong_topic = RawMessage(
        topic="uagv/v\u00b2/Acme/S3/state",
        payload=orjson.dumps(state("S3", 1, T0)),
        received_at=T0,
    )
    outcome = pipeline.process(
        [_raw("S1", "state", state("S1", 1, T0)), _raw("S2", "state", superscript), wrong_topic]
    )
    assert outcome.verdicts == [Verdict.ACCEPTED, Verdict.REJECTED, Verdict.REJECTED]
    assert "is not [major].[minor].[patch]" in str(outcome.reasons[1])
    assert "has major version 'v\u00b2'" in str(outcome.reasons[2])


def test_an_error_decoding_did_not_foresee_costs_only_its_message(
    ingest_env: IngestEnv, store: FactStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The safety net behind decode's own checks: a bug in decoding one payload is that
    payload's dead letter, never a failed batch for everyone (decode itself stands in for the
    bug, the only way to have one on purpose)."""
    real = pipeline_module.decode

    def flawed(topic: str, payload: bytes, **kw: Any) -> Message:
        if b"S2" in payload:
            raise ValueError("a bug")
        return real(topic, payload, **kw)

    monkeypatch.setattr(pipeline_module, "decode", flawed)
    pipeline = ingest_env.pipeline(store)
    outcome = pipeline.process(
        [_raw("S1", "state", state("S1", 1, T0)), _raw("S2", "state", state("S2", 1, T0))]
    )
    assert outcome.verdicts == [Verdict.ACCEPTED, Verdict.REJECTED]
    assert "could not be decoded: ValueError: a bug" in str(outcome.reasons[1])
    assert store.dead_letter_page(limit=10, offset=0)[0] == 1


def test_an_app_store_that_is_away_fails_the_batch_and_the_retry_records_the_model(
    ingest_env: IngestEnv, store: FactStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A locked app store is the installation's trouble, not the factsheet's: the batch
    fails whole (HTTP 503, MQTT redelivers it), and its retry writes the vehicle's model."""
    messages = [
        _raw("S1", "connection", connection("S1", 1, T0)),
        _raw("S1", "factsheet", factsheet("S1", 1, T0, series="Carrier X3")),
    ]
    pipeline = ingest_env.pipeline(store)
    pipeline.process(messages[:1])
    real = pipeline.registry.update_details

    def locked(**kw: Any) -> None:
        raise OperationalError("UPDATE vehicles", {}, Exception("database is locked"))

    monkeypatch.setattr(pipeline.registry, "update_details", locked)
    with pytest.raises(OperationalError):
        pipeline.process(messages)
    monkeypatch.setattr(pipeline.registry, "update_details", real)
    again = pipeline.process(messages)
    assert again.verdicts == [Verdict.DUPLICATE, Verdict.ACCEPTED]
    with ingest_env.session_factory() as session:
        assert session.scalars(select(Vehicle.model)).one() == "Carrier X3"


def test_a_sites_token_never_writes_into_a_sibling_sites_vehicle(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    """Sites A and B belong to one organization: B's token sending A's serial number is
    answered as any serial new to B (product.md 6: no answer reveals a serial elsewhere),
    registers B's own "S1" and writes nothing into A's. Two organizations' twins:
    ``test_vehicle_identity``."""
    pipeline = ingest_env.pipeline(store)
    pipeline.process([_raw("S1", "state", state("S1", 1, T0))])  # registered in site A
    outcome = pipeline.process(
        [_raw("S1", "state", state("S1", 2, T0 + timedelta(seconds=5)), site_id=ingest_env.site_b)]
    )
    assert outcome.verdicts == [Verdict.ACCEPTED]
    with ingest_env.session_factory() as session:
        vehicles = {v.site_id: v.id for v in session.scalars(select(Vehicle))}
    assert sorted(vehicles) == sorted([ingest_env.site_a, ingest_env.site_b])
    cursor = store.cursor()
    frames = cursor.execute(
        "SELECT vehicle_id, count(*) FROM raw_keys GROUP BY vehicle_id ORDER BY vehicle_id"
    ).fetchall()
    cursor.close()
    assert frames == sorted([(vehicles[ingest_env.site_a], 1), (vehicles[ingest_env.site_b], 1)])


def test_factsheet_and_headers_update_the_vehicle(ingest_env: IngestEnv, store: FactStore) -> None:
    pipeline = ingest_env.pipeline(store)
    pipeline.process(
        [
            _raw("S1", "connection", connection("S1", 1, T0)),
            _raw("S1", "factsheet", factsheet("S1", 1, T0, series="Carrier X2")),
        ]
    )
    with ingest_env.session_factory() as session:
        vehicle = session.scalars(select(Vehicle)).one()
        assert (vehicle.model, vehicle.protocol_version) == ("Carrier X2", "2.0.0")


def test_a_factsheet_without_time_redelivered_is_a_duplicate_also_after_a_restart(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    """A 2.1 factsheet may omit headerId and timestamp; a broker resends a retained one on
    every reconnect. The receive time stands in for its time, but not for its identity."""
    document = factsheet("S1", 1, T0, series="Carrier X2") | {"version": "2.1.0"}
    del document["timestamp"], document["headerId"]

    def delivered(after: timedelta, sheet: dict[str, object] = document) -> RawMessage:
        return RawMessage(
            topic=topic("S1", "factsheet"), payload=orjson.dumps(sheet), received_at=T0 + after
        )

    first = ingest_env.pipeline(store).process([delivered(timedelta(0))])
    again = ingest_env.pipeline(store).process([delivered(timedelta(minutes=1))])
    # After a restart: a new pipeline on the same store.
    restarted = ingest_env.pipeline(store).process([delivered(timedelta(hours=1))] * 2)
    assert (first.accepted, again.duplicates, restarted.duplicates) == (1, 1, 2)
    assert store.table_counts()["raw_keys"] == 1
    # A changed factsheet is new.
    changed = document | {
        "typeSpecification": {**document["typeSpecification"], "seriesName": "X3"}
    }
    assert (
        ingest_env.pipeline(store).process([delivered(timedelta(hours=2), changed)]).accepted == 1
    )
    with ingest_env.session_factory() as session:
        assert session.scalars(select(Vehicle)).one().model == "X3"


def test_restart_from_snapshots_gives_the_same_facts_as_one_run(
    ingest_env: IngestEnv, tmp_path: Path
) -> None:
    messages = _trip_raw("S1")
    with ingest_env.store() as store:
        ingest_env.pipeline(store).process(messages)
        one_run = dump(store)
    with FactStore(tmp_path / "restarted.duckdb") as store:
        # A fresh pipeline per half: the second restores the first's committed snapshot.
        ingest_env.pipeline(store).process(messages[:7])
        ingest_env.pipeline(store).process(messages[7:])
        assert dump(store) == one_run


def test_rebuild_replays_messages_and_ticks_identically(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    pipeline = ingest_env.pipeline(store)
    lines = [line("S1", kind, p) for kind, p in trip("S1", start=T0)]
    lines += [line("S2", kind, p) for kind, p in trip("S2", start=T0, orders=2)]
    result = ingest_lines(pipeline, lines, batch_size=5)
    assert result.accepted == len(lines)
    # Silence: the clock makes both vehicles offline; the tick is part of the raw log.
    assert pipeline.tick(now=T0 + timedelta(minutes=10)) > 0
    cursor = store.cursor()
    offline = cursor.execute("SELECT count(*) FROM live_status WHERE state = 'offline'").fetchone()
    cursor.close()
    assert offline == (2,)
    before = dump(store)
    rebuilt = rebuild(ingest_env.pipeline(store), batch_size=7)
    assert rebuilt.skipped == 0 and rebuilt.frames == len(lines) + 2
    assert dump(store) == before


def test_a_batch_is_derived_in_timestamp_order_per_vehicle(
    ingest_env: IngestEnv, store: FactStore, tmp_path: Path
) -> None:
    # product.md 2: "per vehicle, in timestamp order". A batch whose states arrive out of
    # order (HTTP, an import) gives the facts of the same states in order.
    s1 = [m for m in _trip_raw("S1") if "/state" in m.topic]
    s2 = [m for m in _trip_raw("S2") if "/state" in m.topic]
    shuffled = [s1[1], s2[2], s1[0], s1[3], s2[0], s1[2], s2[1], *s2[3:], *s1[4:]]
    with FactStore(tmp_path / "in_order.duckdb") as in_order:
        ingest_env.pipeline(in_order).process(s1 + s2)
        expected = _facts_and_snapshots(in_order)
    assert ingest_env.pipeline(store).process(shuffled).accepted == len(shuffled)
    assert _facts_and_snapshots(store) == expected
    # Stored in the order derived, so a rebuild gives the same facts.
    assert rebuild(ingest_env.pipeline(store), batch_size=3).skipped == 0
    assert _facts_and_snapshots(store) == expected


def _facts_and_snapshots(store: FactStore) -> dict[str, list[tuple[Any, ...]]]:
    """``dump`` without the raw log's sequence number of each snapshot (where the vehicle's
    last frame is in the batch depends on how the vehicles' messages interleave)."""
    found = dump(store)
    found["deriver_snapshots"] = [row[:2] for row in found["deriver_snapshots"]]
    return found
