"""Processes (analysis, workflows, actions) against the simulator's ground truth."""

from collections import Counter
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from analytics.conftest import END, START
from fastapi.testclient import TestClient

from fleetscope.facts.store import FactStore
from fleetscope.simulator.truth import OrderTruth

from .conftest import PERIOD, World, close, get_data, ham_ids, quantile_cont

BERLIN = ZoneInfo("Europe/Berlin")


def _cycles(orders: list[OrderTruth]) -> list[float]:
    return [
        (order.end - order.start).total_seconds()
        for order in orders
        if order.outcome == "finished" and order.end is not None
    ]


def _assert_figures(figures: dict, orders: list[OrderTruth]) -> None:
    outcomes = Counter(order.outcome for order in orders)
    assert figures["outcomes"]["finished"] == outcomes["finished"]
    assert figures["outcomes"]["failed"] == outcomes["failed"]
    assert figures["outcomes"]["cancelled"] == outcomes["cancelled"]
    assert figures["outcomes"]["total"] == len(orders)
    cycles = _cycles(orders)
    cycle = figures["cycle"]
    assert cycle["count"] == len(cycles) == sum(figures["histogram"])
    for key, quantile in (("p50Seconds", 0.5), ("p90Seconds", 0.9), ("p95Seconds", 0.95)):
        assert close(cycle[key], quantile_cont(cycles, quantile)), (key, cycle[key])
    assert close(cycle["maxSeconds"], max(cycles))


def test_cycle_times_and_outcomes_per_vehicle(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Processes", **PERIOD, vehicles=ham_ids(world), combined="false")
    entries = {entry["vehicleId"]: entry for entry in data["entries"]}
    assert len(entries) == len(world.ham_ids)
    for vehicle in world.truth.vehicles:
        orders = [o for o in world.truth.orders if o.serial_number == vehicle.serial_number]
        _assert_figures(entries[world.vehicle_id(vehicle.serial_number)]["current"], orders)
    _assert_figures(data["fleet"]["current"], world.truth.orders)
    assert len(data["histogramEdges"]) == len(data["fleet"]["current"]["histogram"])
    # The simulation starts on the first day: the previous period has no orders.
    assert data["fleet"]["previous"]["outcomes"]["total"] == 0
    assert data["fleet"]["previous"]["cycle"]["p50Seconds"] is None


def test_combined_gives_one_entry_equal_to_the_fleet(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Processes", **PERIOD, vehicles=ham_ids(world), combined="true")
    assert [entry["vehicleId"] for entry in data["entries"]] == [None]
    assert data["entries"][0] == data["fleet"]
    times = data["fleet"]["current"]["times"]
    assert times["pausedSeconds"] >= 0 and times["waitingSeconds"] > 0


def test_previous_period_is_the_day_before(world: World, customer: TestClient) -> None:
    last = get_data(
        customer,
        "Processes",
        **{"from": "2026-10-26", "to": "2026-10-26"},
        shift="all",
        vehicles=ham_ids(world),
        combined="true",
    )
    before = get_data(
        customer,
        "Processes",
        **{"from": "2026-10-25", "to": "2026-10-25"},
        shift="all",
        vehicles=ham_ids(world),
        combined="true",
    )
    assert last["fleet"]["previous"] == before["fleet"]["current"]


def test_workflow_table_matches_truth(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Workflows", **PERIOD, vehicles=ham_ids(world))
    rows = {row["workflow"]: row for row in data["workflows"]}
    by_workflow = Counter(order.workflow for order in world.truth.orders)
    assert set(rows) == set(by_workflow)
    for workflow, count in by_workflow.items():
        orders = [o for o in world.truth.orders if o.workflow == workflow]
        row = rows[workflow]
        assert row["orders"] == count
        finished = sum(1 for o in orders if o.outcome == "finished")
        assert row["successRate"] == finished / count
        assert close(row["cycleP50Seconds"], quantile_cont(_cycles(orders), 0.5))
        assert close(row["cycleP90Seconds"], quantile_cont(_cycles(orders), 0.9))
        assert row["ordersTrend"] == count  # nothing in the previous period
    assert data["previousRecorded"] is False  # so the trends are no comparison
    counts = [row["orders"] for row in data["workflows"]]
    assert counts == sorted(counts, reverse=True) and data["sort"] == "-orders"
    by_name = get_data(customer, "Workflows", **PERIOD, vehicles=ham_ids(world), sort="workflow")
    assert [r["workflow"] for r in by_name["workflows"]] == sorted(by_workflow)
    # Every numeric column sorts, ties by name: here by finished orders of the truth.
    finished_of = {
        workflow: sum(
            1 for o in world.truth.orders if o.workflow == workflow and o.outcome == "finished"
        )
        for workflow in by_workflow
    }
    by_finished = get_data(
        customer, "Workflows", **PERIOD, vehicles=ham_ids(world), sort="finished"
    )
    expected = sorted(by_workflow, key=lambda workflow: (finished_of[workflow], workflow))
    assert [r["workflow"] for r in by_finished["workflows"]] == expected


def test_workflow_orders_pages_cover_the_truth(world: World, customer: TestClient) -> None:
    workflow = "REPLENISH"
    truth = sorted((o for o in world.truth.orders if o.workflow == workflow), key=lambda o: o.start)
    seen = []
    page = 1
    while True:
        data = get_data(
            customer,
            f"Workflows/{workflow}/Orders",
            **PERIOD,
            vehicles=ham_ids(world),
            page=page,
            pageSize=100,
            sort="start",
        )
        assert data["total"] == len(truth)
        seen += data["items"]
        if page >= data["pages"]:
            break
        page += 1
    assert [item["orderId"] for item in seen] == [o.order_id for o in truth]
    for item, order in zip(seen, truth, strict=True):
        assert item["outcome"] == order.outcome
        assert close(item["durationSeconds"], (order.end - order.start).total_seconds())
    failed = get_data(
        customer,
        f"Workflows/{workflow}/Orders",
        **PERIOD,
        vehicles=ham_ids(world),
        outcome="failed",
        sort="-duration",
    )
    assert failed["total"] == sum(1 for o in truth if o.outcome == "failed")
    durations = [item["durationSeconds"] for item in failed["items"]]
    assert durations == sorted(durations, reverse=True)


def test_last_page_read_from_the_end_equals_the_forward_order(
    world: World, customer: TestClient
) -> None:
    common = {**PERIOD, "vehicles": ham_ids(world), "sort": "-duration", "pageSize": 7}
    first = get_data(customer, "Workflows/EMPTY_RETURN/Orders", **common, page=1)
    every = get_data(
        customer,
        "Workflows/EMPTY_RETURN/Orders",
        **PERIOD,
        vehicles=ham_ids(world),
        sort="-duration",
        pageSize=500,
    )
    last = get_data(customer, "Workflows/EMPTY_RETURN/Orders", **common, page=first["pages"])
    assert every["total"] == first["total"] <= 500
    expected_last = every["items"][(first["pages"] - 1) * 7 :]
    assert last["items"] == expected_last
    assert first["items"] == every["items"][:7]


def test_workflow_histogram(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Workflows/PICK_TO_LINE/Histogram", **PERIOD, vehicles=ham_ids(world))
    _assert_figures(
        data["current"], [o for o in world.truth.orders if o.workflow == "PICK_TO_LINE"]
    )


def test_a_histogram_bar_leads_to_the_orders_it_counts(world: World, customer: TestClient) -> None:
    """Each bar of a workflow's cycle-time histogram: the orders list filtered to its bucket
    holds as many orders as the bar counts, all finished, within the bucket's edges."""
    workflow = "PICK_TO_LINE"
    data = get_data(customer, f"Workflows/{workflow}/Histogram", **PERIOD, vehicles=ham_ids(world))
    edges = [*data["histogramEdges"], float("inf")]
    bars = data["current"]["histogram"]
    assert sum(bars) > 0
    for bucket, count in enumerate(bars):
        if not count:
            continue
        listed = get_data(
            customer,
            f"Workflows/{workflow}/Orders",
            **PERIOD,
            vehicles=ham_ids(world),
            cycleBucket=bucket,
            pageSize=500,
        )
        assert listed["total"] == count
        for item in listed["items"]:
            assert item["outcome"] == "finished"
            assert edges[bucket] - 1e-3 <= item["durationSeconds"] < edges[bucket + 1] + 1e-3


def test_a_processes_histogram_bar_leads_to_the_workflows_it_counts(
    world: World, customer: TestClient
) -> None:
    """A bar of the fleet's cycle-time histogram on Processes: the workflows filtered to its
    bucket hold only its finished orders, each workflow as many as its own histogram's bar."""
    common = {**PERIOD, "vehicles": ham_ids(world)}
    processes = get_data(customer, "Processes", **common, combined="true")
    bars = processes["fleet"]["current"]["histogram"]
    assert sum(1 for count in bars if count) > 3
    for bucket, count in enumerate(bars):
        if not count:
            continue
        data = get_data(customer, "Workflows", **common, cycleBucket=bucket)
        assert data["histogramEdges"] == processes["histogramEdges"]
        rows = data["workflows"]
        assert sum(row["finished"] for row in rows) == count
        for row in rows:
            assert row["orders"] == row["finished"] and row["successRate"] == 1
            own = get_data(customer, f"Workflows/{row['workflow']}/Histogram", **common)
            assert own["current"]["histogram"][bucket] == row["finished"]


def _ended_in_cell(order: OrderTruth, weekday: int | None, hour: int | None) -> bool:
    """Whether ``order`` ended in T (the whole simulation) on that Berlin weekday and hour."""
    if order.end is None or order.outcome is None:
        return False
    local = order.end.astimezone(BERLIN)
    return weekday in (None, local.weekday()) and hour in (None, local.hour)


def test_a_heatmap_cell_leads_to_the_orders_it_counts(world: World, customer: TestClient) -> None:
    """Each cell of the orders heatmap (Berlin weekday and hour the finished orders ended in;
    the 25th repeats 02:00-03:00, two hours of one cell): the workflows filtered to the cell
    count as many finished orders, and every workflow's order list holds the truth's orders
    that ended there. A weekday alone (a heatmap row) likewise."""
    common = {**PERIOD, "vehicles": ham_ids(world), "combined": "true"}
    heatmap = get_data(customer, "Productivity", **common)["heatmap"]
    cells = [(day, hour) for day in range(7) for hour in range(24) if heatmap[day][hour]]
    assert len(cells) > 40 and heatmap[6][2] > 0  # 2026-10-24..26: Saturday to Monday
    for weekday, hour in [*cells, (5, None), (6, None), (0, None), (6, 2)]:
        expected = [o for o in world.truth.orders if _ended_in_cell(o, weekday, hour)]
        finished = sum(order.outcome == "finished" for order in expected)
        if hour is not None:
            assert finished == heatmap[weekday][hour], (weekday, hour)
        cell = {"weekday": weekday} | ({} if hour is None else {"hour": hour})
        rows = get_data(customer, "Workflows", **common, **cell)["workflows"]
        assert sum(row["finished"] for row in rows) == finished, cell
        assert {row["workflow"]: row["orders"] for row in rows} == Counter(
            order.workflow for order in expected
        )
    truth = [o for o in world.truth.orders if _ended_in_cell(o, 6, 2)]
    for workflow, count in Counter(order.workflow for order in truth).items():
        listed = get_data(
            customer, f"Workflows/{workflow}/Orders", **common, weekday=6, hour=2, pageSize=500
        )
        wanted = {o.order_id for o in truth if o.workflow == workflow}
        assert listed["total"] == count and {i["orderId"] for i in listed["items"]} == wanted
        bars = get_data(customer, f"Workflows/{workflow}/Histogram", **common, weekday=6, hour=2)
        assert bars["current"]["outcomes"]["total"] == count


def test_a_heatmap_cell_compares_the_same_cell_before(world: World, customer: TestClient) -> None:
    """The previous period is narrowed to the cell as well: Monday the 26th's 10 o'clock has no
    previous orders (the day before is a Sunday), Sunday's 10 o'clock on the 26th has none, and
    its previous period is the 25th's 10 o'clock."""
    common = {"from": "2026-10-26", "to": "2026-10-26", "shift": "all", "vehicles": ham_ids(world)}
    monday = get_data(customer, "Workflows", **common, weekday=0, hour=10)["workflows"]
    assert sum(row["orders"] for row in monday) > 0
    assert all(row["previousOrders"] == 0 for row in monday)
    sunday = get_data(customer, "Workflows", **common, weekday=6, hour=10)["workflows"]
    ended = [
        o
        for o in world.truth.orders
        if _ended_in_cell(o, 6, 10) and o.end is not None and o.end.astimezone(BERLIN).day == 25
    ]
    assert all(row["orders"] == 0 for row in sunday)
    assert {row["workflow"]: row["previousOrders"] for row in sunday} == Counter(
        order.workflow for order in ended
    )


def test_a_heatmap_cells_comparison_needs_that_cell_recorded_before(
    world: World, customer: TestClient
) -> None:
    """The week of Monday 26 October against the one before, whose data begin on Saturday
    the 24th: as a whole it was recorded, but its Monday (the 19th) was not, so Mondays have
    no comparison; its Sunday (the 25th) was, so Sundays have one."""
    week = {"from": "2026-10-26", "to": "2026-11-01", "shift": "all", "vehicles": ham_ids(world)}
    assert get_data(customer, "Workflows", **week)["previousRecorded"] is True
    mondays = get_data(customer, "Workflows", **week, weekday=0)
    assert sum(row["orders"] for row in mondays["workflows"]) > 0
    assert mondays["previousRecorded"] is False
    assert (
        mondays["previousCoverage"]["noDataSeconds"] == mondays["previousCoverage"]["periodSeconds"]
    )
    assert get_data(customer, "Workflows", **week, weekday=6)["previousRecorded"] is True
    # One day against a day that holds no Monday at all: nothing to compare either.
    day = {**week, "to": "2026-10-26"}
    assert get_data(customer, "Workflows", **day, weekday=0, hour=10)["previousRecorded"] is False


def test_actions_match_truth(world: World, customer: TestClient) -> None:
    data = get_data(customer, "Actions", **PERIOD, vehicles=ham_ids(world))
    rows = {row["actionType"]: row for row in data["actions"]}
    totals: Counter[str] = Counter()
    failures: Counter[str] = Counter()
    for vehicle in world.truth.vehicles:
        for action_type, counts in vehicle.actions.items():
            totals[action_type] += counts["finished"] + counts["failed"]
            failures[action_type] += counts["failed"]
    assert set(rows) == set(totals)
    for action_type, total in totals.items():
        row = rows[action_type]
        assert row["count"] == total, action_type
        assert row["failed"] == failures[action_type], action_type
        assert row["failureRate"] == failures[action_type] / total
    # Durations and waits: the same figures as DuckDB's own over the action facts.
    store: FactStore = customer.app.state.ingestion.store  # type: ignore[attr-defined]
    cursor = store.cursor()
    try:
        expected = cursor.execute(
            "SELECT action_type, quantile_cont(run_s, [0.5, 0.9]), avg(wait_s), "
            "quantile_cont(wait_s, 0.5) FROM (SELECT action_type, CASE WHEN status = "
            "'FINISHED' THEN epoch_us(end_at) - epoch_us(started_at) END / 1e6 AS run_s, "
            "(epoch_us(started_at) - epoch_us(first_seen_at)) / 1e6 AS wait_s FROM actions "
            "WHERE list_contains(?, vehicle_id) AND end_at >= ? AND end_at < ?) GROUP BY ALL",
            [world.ham_ids, START, END],
        ).fetchall()
    finally:
        cursor.close()
    assert {row[0] for row in expected} == set(rows)
    for action_type, durations, mean_wait, wait_p50 in expected:
        row = rows[action_type]
        assert [row["durationP50Seconds"], row["durationP90Seconds"]] == pytest.approx(durations)
        assert row["meanWaitSeconds"] == pytest.approx(mean_wait)
        assert row["waitP50Seconds"] == pytest.approx(wait_p50)
    assert rows["pick"]["durationP50Seconds"] > 0


def test_failed_actions_drill_down(world: World, customer: TestClient) -> None:
    expected = sum(v.actions["drop"]["failed"] for v in world.truth.vehicles)
    data = get_data(
        customer, "Actions/drop/Failures", **PERIOD, vehicles=ham_ids(world), pageSize=500
    )
    assert data["total"] == expected == len(data["items"])
    ends = [item["end"] for item in data["items"]]
    assert ends == sorted(ends, reverse=True)
    one = world.vehicle_id("HAM-02")
    only = get_data(
        customer, "Actions/drop/Failures", **PERIOD, vehicles=ham_ids(world), vehicle=one
    )
    assert only["total"] == world.truth.vehicles[1].actions["drop"]["failed"]
    assert {item["vehicleId"] for item in only["items"]} == {one}


def test_late_shift_counts_orders_ending_in_its_windows(world: World, customer: TestClient) -> None:
    """Six windows (three days and the three before): T is read by the hourly join."""
    data = get_data(
        customer,
        "Processes",
        **{**PERIOD, "shift": "late"},
        vehicles=ham_ids(world),
        combined="true",
    )
    windows = [
        (
            datetime(2026, 10, day, 14, tzinfo=BERLIN),
            datetime(2026, 10, day, 22, tzinfo=BERLIN),
        )
        for day in (24, 25, 26)
    ]
    inside = [
        order
        for order in world.truth.orders
        if order.end is not None and any(start <= order.end < end for start, end in windows)
    ]
    _assert_figures(data["fleet"]["current"], inside)
