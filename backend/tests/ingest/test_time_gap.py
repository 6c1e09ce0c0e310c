"""A gap in time costs constant work: a vehicle whose first state is from 2001 and whose next
one is from now closes one offline interval of 25 years, which the rollups keep as one row
(``rollup_offline_spans``) instead of a row per hour; every reading of the rollups still
counts that time as offline, and another vehicle's live tile keeps updating meanwhile."""

import asyncio
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import orjson
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from sqlalchemy import select

from fleetscope.analytics.core.collect import CollectRequest, Tagged, collect
from fleetscope.analytics.core.measure_table import COLUMN, MeasureTable
from fleetscope.analytics.core.periods import Window, midnight
from fleetscope.appstore.models import Vehicle
from fleetscope.facts.model import LiveStatus
from fleetscope.facts.store import FactStore
from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.ingest.messages import RawMessage
from fleetscope.ingest.service import start_ingestion

from .conftest import IngestEnv
from .vda import state, topic

FIRST = datetime(2001, 1, 1, tzinfo=UTC)
OFFLINE_AFTER = timedelta(seconds=65)
BERLIN = ZoneInfo("Europe/Berlin")
DAY_S = 86_400.0


def _ids(env: IngestEnv) -> dict[str, int]:
    with env.session_factory() as session:
        return {v.serial_number: v.id for v in session.scalars(select(Vehicle))}


def _ingest_gap(env: IngestEnv, store: FactStore) -> datetime:
    """OLD: a state from 2001, then one from now; OTHER: states around now, in the same
    batch. Returns now."""
    now = datetime.now(UTC).replace(microsecond=0)
    sent = [
        ("OTHER", state("OTHER", 1, now - timedelta(seconds=30))),
        ("OLD", state("OLD", 1, FIRST)),
        ("OLD", state("OLD", 2, now)),
        ("OTHER", state("OTHER", 2, now)),
    ]
    messages = [RawMessage(topic(serial, "state"), orjson.dumps(p), now) for serial, p in sent]
    assert env.pipeline(store).process(messages).accepted == len(messages)
    return now


def _rows(store: FactStore, sql: str, parameters: list[object]) -> list[tuple[object, ...]]:
    cursor = store.cursor()
    try:
        return cursor.execute(sql, parameters).fetchall()
    finally:
        cursor.close()


def test_a_gap_of_years_adds_a_bounded_number_of_rows_and_the_right_facts(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    now = _ingest_gap(ingest_env, store)
    old = _ids(ingest_env)["OLD"]
    silent_from = FIRST + OFFLINE_AFTER
    assert _rows(
        store,
        "SELECT state, start_at, end_at FROM state_intervals WHERE vehicle_id = ? ORDER BY 2",
        [old],
    ) == [("idle", FIRST, silent_from), ("offline", silent_from, now)]
    assert _rows(store, "SELECT * FROM rollup_offline_spans", []) == [(old, silent_from, now)]
    # The vehicle's rows: the hour and the Berlin day of each message, nothing in between.
    for table, key in (("rollup_hourly", "hour_utc"), ("rollup_daily", "day")):
        keys = _rows(store, f"SELECT {key} FROM {table} WHERE vehicle_id = ? ORDER BY 1", [old])  # noqa: S608
        assert len(keys) == 2, table
    counts = store.table_counts()
    # Both vehicles' rows (now's hour may be two hours for OTHER) and the site's.
    assert counts["rollup_hourly"] <= 4 and counts["rollup_site_hourly"] <= 3
    assert counts["rollup_daily"] <= 4 and counts["rollup_site_daily"] <= 3
    assert counts["battery_hourly"] <= 5


def _collect(
    store: FactStore,
    windows: list[Window],
    *,
    vehicle_ids: list[int],
    now: datetime,
    zone: ZoneInfo | None = None,
    site_id: int | None = None,
    by_vehicle: bool = True,
    use_rollups: bool = True,
) -> MeasureTable:
    request = CollectRequest(
        vehicle_ids,
        [Tagged(window, bucket) for bucket, window in enumerate(windows)],
        by_vehicle=by_vehicle,
        use_rollups=use_rollups,
        daily_zone=zone,
        site_id=site_id,
    )
    cursor = store.cursor()
    try:
        return collect(cursor, request, now=now, offline_after=OFFLINE_AFTER)
    finally:
        cursor.close()


def _states(table: MeasureTable, key: tuple[int, int]) -> tuple[float, float]:
    row = table.rows([key])[0]
    return round(float(row[COLUMN["idle_s"]]), 3), round(float(row[COLUMN["offline_s"]]), 3)


def _day(day: date) -> Window:
    return Window(midnight(day, BERLIN), midnight(day + timedelta(days=1), BERLIN))


def test_the_offline_time_of_the_gap_is_read_from_every_kind_of_rollup(
    ingest_env: IngestEnv, store: FactStore
) -> None:
    now = _ingest_gap(ingest_env, store)
    ids = _ids(ingest_env)
    old, other = ids["OLD"], ids["OTHER"]
    silent_from = FIRST + OFFLINE_AFTER
    days = [_day(date(2001, 1, 1)), _day(date(2001, 1, 2)), _day(date(2010, 6, 1))]
    # Berlin's 1 January begins an hour before the first message (no data), then 65 s idle.
    expected_days = [(65.0, 23 * 3600 - 65.0), (0.0, DAY_S), (0.0, DAY_S)]
    # Whole local days from the daily rows, the same as UTC hours, and from the raw facts.
    for zone in (BERLIN, None):
        for use_rollups in (True, False):
            table = _collect(
                store, days, vehicle_ids=[old], now=now, zone=zone, use_rollups=use_rollups
            )
            found = [_states(table, (old, bucket)) for bucket in range(3)]
            assert found == expected_days, (zone, use_rollups)
    # Partial hours at both ends (raw facts) around whole hours (rollup rows), inside the gap.
    odd = [Window(FIRST + timedelta(minutes=30), FIRST + timedelta(hours=5, minutes=10))]
    assert _states(_collect(store, odd, vehicle_ids=[old], now=now), (old, 0)) == (0.0, 16_800.0)
    # Up to now: the whole gap in one window (years of rollup hours and days, read as one row).
    gap = [Window(midnight(date(2001, 1, 1), BERLIN), now)]
    expected_gap = (65.0, (now - silent_from).total_seconds())
    for zone in (BERLIN, None):
        assert _states(_collect(store, gap, vehicle_ids=[old], now=now, zone=zone), (old, 0)) == (
            expected_gap
        )
    # The fleet of the site from the site's rollups: OTHER has no data in 2010.
    site = _collect(
        store,
        days[2:],
        vehicle_ids=[old, other],
        now=now,
        zone=BERLIN,
        site_id=ingest_env.site_a,
        by_vehicle=False,
    )
    assert _states(site, (0, 0)) == (0.0, DAY_S)


def _stamp_now() -> datetime:
    """Now at the millisecond resolution of the messages' timestamps."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


@pytest.mark.mqtt
def test_another_vehicles_tile_keeps_updating_after_a_first_message_from_long_ago(
    ingest_env: IngestEnv, tmp_path: Path
) -> None:
    with PrivateMosquitto(workdir=tmp_path / "mosquitto") as broker:
        settings = ingest_env.settings.model_copy(
            update={"mqtt_url": broker.url, "mqtt_client_id": f"fs-{uuid.uuid4().hex[:8]}"}
        )
        handle = start_ingestion(settings, session_factory=ingest_env.session_factory)
        client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=f"vehicles-{uuid.uuid4().hex[:8]}",
        )
        try:
            assert handle.mqtt is not None and handle.mqtt.subscribed.wait(5)
            client.connect("127.0.0.1", broker.port)
            client.loop_start()

            def publish(serial: str, header_id: int, at: datetime) -> None:
                payload = orjson.dumps(state(serial, header_id, at, charge=50.0 + header_id))
                client.publish(topic(serial, "state"), payload, qos=1).wait_for_publish(5)

            async def watch() -> tuple[list[LiveStatus], datetime]:
                subscription = handle.hub.subscribe(max_size=1_000)
                publish("LIVE", 1, _stamp_now())
                # 1970 is before decode's earliest instant: a dead letter, costing nothing.
                publish("EPOCH", 1, datetime(1970, 1, 1, tzinfo=UTC))
                publish("EPOCH", 2, _stamp_now())
                publish("OLD", 1, FIRST)
                publish("OLD", 2, _stamp_now())
                last = FIRST
                for header_id in range(2, 7):  # the tile's updates right after it
                    await asyncio.sleep(0.1)
                    last = _stamp_now()
                    publish("LIVE", header_id, last)
                received: list[LiveStatus] = []
                # Far more than the ingestion of these messages takes; a gap costing work
                # per hour (25 years: over 20 s here) would hold the statuses back.
                deadline = time.monotonic() + 15
                while not any(s.last_message_at == last for s in received):
                    remaining = deadline - time.monotonic()
                    assert remaining > 0, "the live tile stopped updating"
                    received.append(await asyncio.wait_for(subscription.get(), remaining))
                handle.hub.unsubscribe(subscription)
                return received, last

            received, last = asyncio.run(watch())
            ids = _ids(ingest_env)
            live = [s for s in received if s.vehicle_id == ids["LIVE"]]
            assert live[-1].last_message_at == last and live[-1].charge == 56.0
            assert ids["OLD"] in handle.hub.latest()
            counts = handle.store.table_counts()
            assert counts["rollup_offline_spans"] == 1 and counts["rollup_hourly"] <= 8
            assert counts["dead_letters"] == 1  # EPOCH's state of 1970
        finally:
            client.disconnect()
            client.loop_stop()
            handle.stop()
