"""Re-derivation jobs: a small hand-made fleet whose orders change workflow when the site's
rules change; the old facts stay readable while the job runs, a vehicle ingested meanwhile
is not lost, the vehicles are swapped in one at a time with ingestion between them, progress
reaches 100 %, a job interrupted while staging or between two swaps resumes, and the
server's own runner follows a rule change made through the Administration API."""

import time
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import AuditEntry, RederiveJob, Site, Vehicle
from fleetscope.demo.seed import DEMO_MANUFACTURER, DemoData
from fleetscope.facts.rawlog import segment_table
from fleetscope.facts.rollup import MEASURE_NAMES
from fleetscope.facts.store import FactStore
from fleetscope.ingest.batch import rebuild
from fleetscope.ingest.rederive import RederiveRunner, start_rederive
from fleetscope.ingest.service import IngestionHandle, build_pipeline
from fleetscope.settings import Settings
from tests.ingest.facts_dump import dump
from tests.ingest.vda import T0, line, state

SUPERUSER = "superuser@demo.fleetscope"
SITE = "Hamburg DC"
BEFORE = [r"^(?P<workflow>[A-Z]+)_"]  # PICK_A-001 -> PICK
AFTER = [r"^(?P<workflow>[A-Z]+_[A-Z])-"]  # PICK_A-001 -> PICK_A
ORDERS_FINISHED = MEASURE_NAMES.index("orders_finished")


def _order(serial: str, order_id: str, first_header: int, minute: int) -> list[bytes]:
    """One finished order: driving through two nodes, then idle with both traversed."""
    start = T0 + timedelta(minutes=minute)
    maker = DEMO_MANUFACTURER
    messages = [
        state(
            serial,
            first_header,
            start,
            order_id=order_id,
            nodes=(1, 2),
            driving=True,
            manufacturer=maker,
        ),
        state(
            serial,
            first_header + 1,
            start + timedelta(seconds=20),
            order_id=order_id,
            last_node=2,
            manufacturer=maker,
        ),
    ]
    return [line(serial, "state", payload, manufacturer=maker) for payload in messages]


class Fleet:
    """The site's token, its vehicles and what the fact store says of their orders."""

    def __init__(self, app: FastAPI, client: TestClient, factory: SessionFactory, site: int):
        self.app, self.client, self.factory, self.site = app, client, factory, site
        created = client.post(f"/v2/Admin/Sites/{site}/Tokens", json={"name": "fleet"})
        self.token = created.json()["data"]["token"]

    @property
    def ingestion(self) -> IngestionHandle:
        handle: IngestionHandle = self.app.state.ingestion
        return handle

    @property
    def store(self) -> FactStore:
        return self.ingestion.store

    def send(self, lines: list[bytes]) -> None:
        response = self.client.post(
            "/v2/Ingest/vda5050",
            content=b"\n".join(lines),
            headers={"Authorization": f"Bearer {self.token}"},
        )
        assert response.status_code == 200, response.text
        assert response.json()["data"]["rejected"] == [], response.text

    def set_rules(self, rules: list[str]) -> None:
        with self.factory() as session:
            site = session.get(Site, self.site)
            assert site is not None
            site.workflow_rules = rules
            session.commit()

    def vehicle_ids(self) -> dict[str, int]:
        with self.factory() as session:
            vehicles = session.scalars(select(Vehicle).where(Vehicle.site_id == self.site))
            return {vehicle.serial_number: vehicle.id for vehicle in vehicles}

    def orders(self) -> dict[str, str]:
        cursor = self.store.cursor()
        try:
            rows = cursor.execute("SELECT order_id, workflow FROM orders").fetchall()
        finally:
            cursor.close()
        return {str(order): str(workflow) for order, workflow in rows}

    def frames(self) -> int:
        """The raw log's frames: 10 messages and the clock's ticks so far."""
        cursor = self.store.cursor()
        try:
            row = cursor.execute("SELECT sum(frame_count)::BIGINT FROM raw_chunks").fetchone()
        finally:
            cursor.close()
        assert row is not None and self.store.table_counts()["raw_keys"] == 10
        return int(row[0])

    def finished_in_rollups(self) -> tuple[dict[int, int], dict[int, int], float]:
        """Finished orders per vehicle in the daily and the hourly rollups, and the site's."""
        cursor = self.store.cursor()
        try:
            daily = cursor.execute(
                "SELECT vehicle_id, sum(orders_finished)::BIGINT FROM rollup_daily GROUP BY ALL"
            ).fetchall()
            hourly = cursor.execute(
                "SELECT vehicle_id, sum(orders_finished)::BIGINT FROM rollup_hourly GROUP BY ALL"
            ).fetchall()
            site = cursor.execute(
                "SELECT coalesce(sum(measures[?]), 0) FROM rollup_site_daily WHERE site_id = ?",
                [ORDERS_FINISHED + 1, self.site],
            ).fetchone()
        finally:
            cursor.close()
        assert site is not None
        return dict(daily), dict(hourly), float(site[0])

    def same_as_a_rebuild(self, settings: Settings, path: Path) -> None:
        """Every fact, rollup, snapshot and live status equals what ``rebuild`` derives
        from the same raw log with the sites' configuration now: the raw log is copied and
        the facts read in the ingest thread, so no batch or clock tick comes in between."""
        store = self.store

        def copy_and_dump() -> dict[str, Any]:
            cursor = store.cursor()
            try:
                chunks = cursor.execute("SELECT * EXCLUDE (segment) FROM raw_chunks").fetchall()
                keys = cursor.execute("SELECT * FROM raw_keys").fetchall()
            finally:
                cursor.close()
            with FactStore(path) as copy, copy.exclusive() as connection:
                # A new store: its raw log has one (empty) segment.
                for table, rows in ((segment_table(1), chunks), ("raw_keys", keys)):
                    with connection.appender(table) as appender:
                        appender.append_rows(rows)
            return dump(store)

        derived = self.ingestion.worker.call(copy_and_dump).result(timeout=60)
        with FactStore(path) as copy:
            rebuild(build_pipeline(settings, session_factory=self.factory, store=copy))
            assert dump(copy) == derived

    def queue(self, vehicle_ids: list[int], reason: str = "workflowRules") -> int:
        with self.factory() as session:
            job = start_rederive(
                session,
                reason=reason,
                site_id=self.site,
                vehicle_ids=vehicle_ids,
                created_by=SUPERUSER,
            )
            session.commit()
            return job.id

    def job(self, job_id: int) -> dict[str, Any]:
        response = self.client.get(f"/v2/Admin/Jobs/{job_id}")
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()["data"]
        return data

    def site_rollups_agree(self) -> dict[int, int]:
        """Each site's daily and hourly rows hold the finished orders of its vehicles'
        rows at that day or hour; returns the finished orders per site."""
        cursor = self.store.cursor()
        try:
            for site_table, table, key in (
                ("rollup_site_daily", "rollup_daily", "day"),
                ("rollup_site_hourly", "rollup_hourly", "hour_utc"),
            ):
                sites = cursor.execute(
                    f"SELECT site_id, {key}, measures[?]::BIGINT FROM {site_table}",  # noqa: S608
                    [ORDERS_FINISHED + 1],
                ).fetchall()
                vehicles = cursor.execute(
                    f"SELECT z.site_id, r.{key}, sum(r.orders_finished)::BIGINT "  # noqa: S608
                    f"FROM {table} r JOIN vehicle_zones z USING (vehicle_id) GROUP BY ALL"
                ).fetchall()
                assert sorted(sites) == sorted(vehicles), site_table
            totals = cursor.execute(
                "SELECT site_id, sum(measures[?])::BIGINT FROM rollup_site_daily GROUP BY ALL",
                [ORDERS_FINISHED + 1],
            ).fetchall()
        finally:
            cursor.close()
        return {int(site): int(total) for site, total in totals}

    def runner(
        self,
        on_batch: Callable[[int, int], None] | None = None,
        on_swap: Callable[[int, list[int]], None] | None = None,
        swap_facts: int = 1,
    ) -> RederiveRunner:
        return RederiveRunner(
            store=self.store,
            worker=self.ingestion.worker,
            pipeline=self.ingestion.pipeline,
            session_factory=self.factory,
            offline_after_s=65.0,
            stage_facts=1,  # a staged batch (and a progress note) per fact: many steps
            swap_facts=swap_facts,  # 1: a swap step per vehicle
            on_batch=on_batch,
            on_swap=on_swap,
        )


@pytest.fixture
def fleet(
    app: FastAPI, client: TestClient, seeded: DemoData, login: Any, session_factory: SessionFactory
) -> Iterator[Fleet]:
    """HAM-01 ran PICK_A-001 and PICK_B-002, HAM-02 DROP_A-003 (rules: BEFORE); the
    server's own runner is stopped, so each test drives one of its own."""
    login(client, SUPERUSER)
    fleet = Fleet(app, client, session_factory, seeded.site_ids[SITE])
    fleet.ingestion.rederive.stop()  # type: ignore[union-attr]
    fleet.set_rules(BEFORE)
    fleet.send(_order("HAM-01", "PICK_A-001", 1, minute=0))
    fleet.send(_order("HAM-02", "DROP_A-003", 1, minute=0))
    fleet.send(_order("HAM-01", "PICK_B-002", 3, minute=2))
    assert fleet.orders() == {"PICK_A-001": "PICK", "PICK_B-002": "PICK", "DROP_A-003": "DROP"}
    yield fleet


@pytest.mark.sqlite_only
def test_a_rule_change_rederives_while_old_facts_stay_readable_and_ingestion_goes_on(
    fleet: Fleet, settings: Settings, tmp_path: Path
) -> None:
    vehicles = fleet.vehicle_ids()
    fleet.set_rules(AFTER)
    job_id = fleet.queue([vehicles["HAM-01"], vehicles["HAM-02"]])
    queued = fleet.job(job_id)
    assert (queued["state"], queued["percent"], queued["framesDone"]) == ("queued", 0.0, 0)
    seen: list[tuple[dict[str, str], dict[str, Any]]] = []

    def during(job: int, done: int) -> None:
        if seen:
            return
        # Mid-job: the old facts are read, the job's progress shows, and ingestion goes on
        # for a vehicle of the job (a new order) and for one outside it.
        seen.append((fleet.orders(), fleet.job(job)))
        fleet.send(_order("HAM-01", "PICK_C-005", 5, minute=4))
        fleet.send(_order("HAM-03", "DROP_B-004", 1, minute=4))

    steps: list[list[int]] = []
    # Both vehicles' few facts in one swap step.
    runner = fleet.runner(
        during, on_swap=lambda job, vehicles: steps.append(vehicles), swap_facts=1_000
    )
    assert runner.run_pending() == [job_id]
    assert steps == [sorted([vehicles["HAM-01"], vehicles["HAM-02"]])]
    old, progress = seen[0]
    assert old == {"PICK_A-001": "PICK", "PICK_B-002": "PICK", "DROP_A-003": "DROP"}
    assert progress["state"] == "running" and progress["framesDone"] > 0
    # The raw log's frames when it started: three requests' 6 messages, and the clock's
    # ticks that turned the vehicles offline by then (their messages are from January).
    assert progress["framesDone"] < progress["framesTotal"] >= 6
    assert 0 < progress["percent"] < 100

    assert fleet.orders() == {
        "PICK_A-001": "PICK_A",
        "PICK_B-002": "PICK_B",
        "DROP_A-003": "DROP_A",
        "PICK_C-005": "PICK_C",  # ingested during the job, derived again at its end
        "DROP_B-004": "DROP_B",  # another vehicle, ingested with the site's rules now
    }
    done = fleet.job(job_id)
    assert (done["state"], done["percent"], done["secondsLeft"]) == ("done", 100.0, 0)
    # Every frame up to its end was read (the 10 messages and the ticks stored by then),
    # then the job's vehicles' 6 messages stored when it started were swapped in.
    assert 10 + 6 <= done["framesDone"] == done["framesTotal"] <= fleet.frames() + 6
    assert done["finishedAt"]
    # Each order counted once in every rollup (the old rows are gone, not added to).
    daily, hourly, site = fleet.finished_in_rollups()
    expected = {vehicles["HAM-01"]: 3, vehicles["HAM-02"]: 1, fleet.vehicle_ids()["HAM-03"]: 1}
    assert daily == hourly == expected and site == 5.0
    # The pipeline derives the job's vehicles with the new rules from now on.
    fleet.send(_order("HAM-02", "DROP_C-006", 3, minute=6))
    assert fleet.orders()["DROP_C-006"] == "DROP_C"
    fleet.same_as_a_rebuild(settings, tmp_path / "rebuilt.duckdb")


@pytest.mark.sqlite_only
def test_each_vehicle_is_swapped_in_alone_and_ingestion_goes_on_between_two_swaps(
    fleet: Fleet, settings: Settings, tmp_path: Path
) -> None:
    vehicles = fleet.vehicle_ids()
    first, second = sorted([vehicles["HAM-01"], vehicles["HAM-02"]])
    fleet.set_rules(AFTER)
    job_id = fleet.queue([first, second])
    between: list[tuple[dict[str, str], dict[str, str], dict[int, int], dict[str, Any]]] = []

    def after_swap(job: int, vehicles: list[int]) -> None:
        if vehicles != [first]:
            return
        before = fleet.orders()
        # Another vehicle's message goes through the real pipeline (HTTP ingestion waits
        # for its verdict) and is stored before the job's second vehicle is swapped in.
        fleet.send(_order("HAM-03", "DROP_B-004", 1, minute=4))
        between.append((before, fleet.orders(), fleet.site_rollups_agree(), fleet.job(job)))

    assert fleet.runner(on_swap=after_swap).run_pending() == [job_id]
    assert len(between) == 1
    before, after, site_orders, progress = between[0]
    # The first vehicle's orders are new, the second's still old: never a mix per vehicle.
    if first == vehicles["HAM-01"]:
        assert before == {"PICK_A-001": "PICK_A", "PICK_B-002": "PICK_B", "DROP_A-003": "DROP"}
    else:
        assert before == {"PICK_A-001": "PICK", "PICK_B-002": "PICK", "DROP_A-003": "DROP_A"}
    assert after == {**before, "DROP_B-004": "DROP_B"}
    # The site's rollups agree with its vehicles' at that commit: 3 orders, then HAM-03's.
    assert site_orders == {fleet.site: 4}
    assert progress["state"] == "running" and 0 < progress["percent"] < 100
    assert fleet.job(job_id)["state"] == "done"
    assert fleet.orders() == {
        "PICK_A-001": "PICK_A",
        "PICK_B-002": "PICK_B",
        "DROP_A-003": "DROP_A",
        "DROP_B-004": "DROP_B",
    }
    assert fleet.site_rollups_agree() == {fleet.site: 4}
    fleet.same_as_a_rebuild(settings, tmp_path / "rebuilt.duckdb")


@pytest.mark.sqlite_only
def test_a_job_stopped_between_two_swaps_leaves_a_consistent_store_and_completes_later(
    fleet: Fleet, settings: Settings, tmp_path: Path
) -> None:
    vehicles = fleet.vehicle_ids()
    first = min(vehicles["HAM-01"], vehicles["HAM-02"])
    fleet.set_rules(AFTER)
    job_id = fleet.queue([vehicles["HAM-01"], vehicles["HAM-02"]])
    stopping = fleet.runner()
    stopping._on_swap = lambda job, vehicles: stopping.stop()
    assert stopping.run_pending() == [job_id]
    stopped = fleet.job(job_id)
    assert stopped["state"] == "running" and 0 < stopped["framesDone"] < stopped["framesTotal"]
    # One vehicle swapped in, the other not: each whole, and the site rollups agree.
    orders = fleet.orders()
    if first == vehicles["HAM-01"]:
        assert orders == {"PICK_A-001": "PICK_A", "PICK_B-002": "PICK_B", "DROP_A-003": "DROP"}
    else:
        assert orders == {"PICK_A-001": "PICK", "PICK_B-002": "PICK", "DROP_A-003": "DROP_A"}
    assert fleet.site_rollups_agree() == {fleet.site: 3}
    # A restarted runner queues the job again and completes it.
    assert fleet.runner().run_pending() == [job_id]
    assert fleet.job(job_id)["state"] == "done"
    assert fleet.orders() == {
        "PICK_A-001": "PICK_A",
        "PICK_B-002": "PICK_B",
        "DROP_A-003": "DROP_A",
    }
    fleet.same_as_a_rebuild(settings, tmp_path / "rebuilt.duckdb")


@pytest.mark.sqlite_only
def test_a_moved_vehicle_is_rederived_at_its_new_site(
    fleet: Fleet, settings: Settings, tmp_path: Path
) -> None:
    created = fleet.client.post(
        "/v2/Admin/Sites",
        json={
            "organizationId": _organization_of(fleet),
            "name": "Bremen Port",
            "timeZone": "America/New_York",
        },
    )
    assert created.status_code == 201, created.text
    bremen = created.json()["data"]["id"]
    ham02 = fleet.vehicle_ids()["HAM-02"]
    moved = fleet.client.patch(f"/v2/Admin/Vehicles/{ham02}", json={"siteId": bremen})
    assert moved.status_code == 200, moved.text
    job = moved.json()["data"]["job"]
    assert (job["reason"], job["vehicleIds"]) == ("vehicleSite", [ham02])
    assert fleet.runner().run_pending() == [job["id"]]

    cursor = fleet.store.cursor()
    try:
        zones = cursor.execute(
            "SELECT vehicle_id, site_id, time_zone FROM vehicle_zones"
        ).fetchall()
        members = cursor.execute("SELECT site_id, vehicle_id FROM site_rollup_members").fetchall()
        site_orders = cursor.execute(
            "SELECT site_id, sum(measures[?])::BIGINT FROM rollup_site_daily GROUP BY ALL",
            [ORDERS_FINISHED + 1],
        ).fetchall()
    finally:
        cursor.close()
    ham01 = fleet.vehicle_ids()["HAM-01"]
    assert sorted(zones) == sorted(
        [(ham01, fleet.site, "Europe/Berlin"), (ham02, bremen, "America/New_York")]
    )
    assert sorted(members) == sorted([(fleet.site, ham01), (bremen, ham02)])
    assert sorted(site_orders) == sorted([(fleet.site, 2), (bremen, 1)])
    fleet.same_as_a_rebuild(settings, tmp_path / "rebuilt.duckdb")


@pytest.mark.sqlite_only
def test_a_time_zone_change_rederives_the_sites_days(
    fleet: Fleet, settings: Settings, tmp_path: Path
) -> None:
    def finished_by_day() -> list[tuple[int, date, int]]:
        cursor = fleet.store.cursor()
        try:
            rows = cursor.execute(
                "SELECT vehicle_id, day, orders_finished FROM rollup_daily "
                "WHERE orders_finished > 0 ORDER BY ALL"
            ).fetchall()
        finally:
            cursor.close()
        return [(int(v), day, int(n)) for v, day, n in rows]

    vehicles = fleet.vehicle_ids()
    ham01, ham02 = vehicles["HAM-01"], vehicles["HAM-02"]
    # The orders finished at 08:00-08:03 UTC on 12 January: that day in Berlin ...
    assert finished_by_day() == [(ham01, date(2026, 1, 12), 2), (ham02, date(2026, 1, 12), 1)]
    patched = fleet.client.patch(
        f"/v2/Admin/Sites/{fleet.site}", json={"timeZone": "Pacific/Honolulu"}
    )
    assert patched.status_code == 200, patched.text
    job = patched.json()["data"]["job"]
    assert (job["state"], job["reason"], job["siteId"]) == ("queued", "timeZone", fleet.site)
    assert set(job["vehicleIds"]) == set(vehicles.values())
    with fleet.factory() as session:
        entry = session.scalars(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
        assert entry is not None
        assert (entry.action, entry.before, entry.after) == (
            "site.update",
            {"id": fleet.site, "timeZone": "Europe/Berlin"},
            {"id": fleet.site, "timeZone": "Pacific/Honolulu"},
        )
    assert fleet.runner(swap_facts=1_000).run_pending() == [job["id"]]  # one step
    assert fleet.job(job["id"])["state"] == "done"
    # ... and 22:00-22:03 on 11 January in Honolulu (UTC-10) once re-derived.
    assert finished_by_day() == [(ham01, date(2026, 1, 11), 2), (ham02, date(2026, 1, 11), 1)]
    assert fleet.site_rollups_agree() == {fleet.site: 3}
    fleet.same_as_a_rebuild(settings, tmp_path / "rebuilt.duckdb")


def _organization_of(fleet: Fleet) -> int:
    with fleet.factory() as session:
        site = session.get(Site, fleet.site)
        assert site is not None
        return site.organization_id


# The jobs' rows on both app stores (claimed, noted, queued again): PostgreSQL too.
def test_an_interrupted_job_resumes_from_the_start_at_the_next_run(fleet: Fleet) -> None:
    vehicles = fleet.vehicle_ids()
    fleet.set_rules(AFTER)
    job_id = fleet.queue([vehicles["HAM-01"]])
    first = fleet.runner()
    first._on_batch = lambda job, done: first.stop()
    assert first.run_pending() == [job_id]
    stopped = fleet.job(job_id)
    assert stopped["state"] == "running" and 0 < stopped["framesDone"] < stopped["framesTotal"]
    assert fleet.orders()["PICK_A-001"] == "PICK"  # nothing swapped in
    assert fleet.runner().run_pending() == [job_id]
    assert fleet.job(job_id)["state"] == "done"
    assert fleet.orders() == {"PICK_A-001": "PICK_A", "PICK_B-002": "PICK_B", "DROP_A-003": "DROP"}


@pytest.mark.sqlite_only
def test_the_servers_runner_follows_a_rule_change_made_in_the_administration(
    app: FastAPI, client: TestClient, seeded: DemoData, login: Any, session_factory: SessionFactory
) -> None:
    login(client, SUPERUSER)
    fleet = Fleet(app, client, session_factory, seeded.site_ids[SITE])
    fleet.set_rules(BEFORE)
    fleet.send(_order("HAM-01", "PICK_A-001", 1, minute=0))
    patched = client.patch(f"/v2/Admin/Sites/{fleet.site}", json={"workflowRules": AFTER})
    assert patched.status_code == 200, patched.text
    job = patched.json()["data"]["job"]
    assert job["reason"] == "workflowRules" and fleet.vehicle_ids()["HAM-01"] in job["vehicleIds"]
    ingestion = fleet.ingestion
    assert ingestion.rederive is not None
    ingestion.rederive.wake()
    deadline = time.monotonic() + 60
    while fleet.job(job["id"])["state"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fleet.job(job["id"])["state"] == "done"
    assert fleet.orders() == {"PICK_A-001": "PICK_A"}
    listed = client.get("/v2/Admin/Jobs", params={"pageSize": 1}).json()["data"]
    assert (listed["total"], listed["items"][0]["id"]) == (1, job["id"])


def test_jobs_are_for_the_superuser_only(
    client: TestClient, seeded: DemoData, login: Any, make_client: Any
) -> None:
    anonymous = make_client()
    assert anonymous.get("/v2/Admin/Jobs").status_code == 401
    for email in ("customer", "partner", "support", "service"):
        other = make_client()
        login(other, f"{email}@demo.fleetscope")
        assert other.get("/v2/Admin/Jobs").status_code == 404
        assert other.get("/v2/Admin/Jobs/1").status_code == 404
    login(client, SUPERUSER)
    assert client.get("/v2/Admin/Jobs").json()["data"]["items"] == []
    missing = client.get("/v2/Admin/Jobs/7")
    assert (missing.status_code, missing.json()["msg"]) == (404, "job 7 not found")
    assert client.get("/v2/Admin/Jobs", params={"pageSize": 0}).status_code == 422


@pytest.mark.sqlite_only
def test_an_unknown_reason_is_refused(session_factory: SessionFactory) -> None:
    from fleetscope.appstore.errors import InvalidInputError

    with session_factory() as session, pytest.raises(InvalidInputError) as refused:
        start_rederive(session, reason="shifts", site_id=None, vehicle_ids=[1], created_by="x")
    assert str(refused.value).startswith("reason: 'shifts' is not one of workflowRules")
    with session_factory() as session:
        assert session.scalars(select(RederiveJob)).all() == []
