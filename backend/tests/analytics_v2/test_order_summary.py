"""``summarize_orders`` against a brute-force reference, on orders written as SQL values:
per vehicle and for the fleet, cycles beyond 6.4 days, large ids, workflows."""

import random
from collections.abc import Iterator
from typing import Any

import duckdb
import pytest

from fleetscope.analytics.processes.orders import OUTCOMES, OrderSummary, summarize_orders
from fleetscope.facts.rollup import CYCLE_BUCKET_COUNT, cycle_bucket

from .conftest import quantile_cont

Order = tuple[int, str, str, int, float, float, int]  # vehicle, workflow, outcome, µs, ..bucket
QUANTILES = (0.5, 0.9, 0.95)


@pytest.fixture
def memory() -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect()
    yield connection
    connection.close()


def _orders(rng: random.Random, vehicle_ids: list[int], *, huge: bool = False) -> list[Order]:
    orders: list[Order] = []
    for _ in range(600):
        micros = int(rng.lognormvariate(18, 1.2)) + rng.randrange(1000)  # jitter
        if huge and rng.random() < 0.05:
            micros = rng.randrange(2**39, 2**45)  # beyond 6.4 days
        orders.append(
            (
                rng.choice(vehicle_ids),
                rng.choice(["PICK", "DROP", "CHARGE"]),
                rng.choice([*OUTCOMES, "finished", "finished", "finished", "aborted"]),
                micros,
                rng.choice([0.0, rng.uniform(0, 90)]),
                rng.uniform(0, 30),
                rng.choice([0, 0, 1]),
            )
        )
    return orders


def _rows(orders: list[Order]) -> tuple[str, list[Any]]:
    values = ", ".join("(?, ?, ?, ?::BIGINT, ?, ?, ?)" for _ in orders)
    return (
        f"SELECT * FROM (VALUES {values}) AS f(vehicle_id, workflow, outcome, cycle_us, "  # noqa: S608 - test constants
        "paused_s, waiting_s, bucket)",
        [value for order in orders for value in order],
    )


def _check(found: OrderSummary, orders: list[Order]) -> None:
    ended = [o for o in orders if o[2] in OUTCOMES]
    assert found.outcomes == {
        outcome: n for outcome in OUTCOMES if (n := sum(o[2] == outcome for o in ended))
    }
    assert found.paused_s == pytest.approx(sum(o[4] for o in ended), rel=1e-12)
    assert found.waiting_s == pytest.approx(sum(o[5] for o in ended), rel=1e-12)
    cycles = [o[3] for o in ended if o[2] == "finished"]
    assert found.cycle_sum_us == pytest.approx(sum(cycles), rel=1e-12)
    if not cycles:
        assert found.quantiles is found.maximum is None
        return
    seconds = [micros / 1e6 for micros in cycles]
    expected = [quantile_cont(seconds, q) for q in QUANTILES]
    assert found.quantiles == pytest.approx(expected, rel=1e-12, abs=1e-9)
    assert found.maximum == pytest.approx(max(seconds), abs=1e-9)
    histogram = [0] * CYCLE_BUCKET_COUNT
    for micros in cycles:
        histogram[cycle_bucket(micros / 1e6)] += 1
    assert found.histogram == histogram


@pytest.mark.parametrize(
    ("vehicle_ids", "huge"),
    [([3, 5, 8], False), ([3, 5, 8], True), ([7, 40_000, 2**31 - 1], False)],
    ids=["small-ids", "beyond-6.4-days", "large-ids"],
)
def test_per_vehicle_and_fleet_match_a_brute_force(
    memory: duckdb.DuckDBPyConnection, vehicle_ids: list[int], huge: bool
) -> None:
    orders = _orders(random.Random(f"{vehicle_ids}{huge}"), vehicle_ids, huge=huge)
    found = summarize_orders(memory, _rows(orders), key="vehicle_id", fleet=True)
    for vehicle_id in vehicle_ids:
        for bucket in (0, 1):
            mine = [o for o in orders if o[0] == vehicle_id and o[6] == bucket]
            _check(found.get((vehicle_id, bucket), OrderSummary()), mine)
    for bucket in (0, 1):
        _check(found[(None, bucket)], [o for o in orders if o[6] == bucket])


def test_workflows_and_a_single_group(memory: duckdb.DuckDBPyConnection) -> None:
    orders = _orders(random.Random("workflows"), [1, 2])
    found = summarize_orders(memory, _rows(orders), key="workflow")
    assert {workflow for workflow, _ in found} == {"PICK", "DROP", "CHARGE"}
    for (workflow, bucket), summary in found.items():
        mine = [o for o in orders if o[1] == workflow and o[6] == bucket]
        _check(summary, mine)
    picked = summarize_orders(memory, _rows(orders), key=None, where=("workflow = ?", ["DROP"]))
    for bucket in (0, 1):
        mine = [o for o in orders if o[1] == "DROP" and o[6] == bucket]
        _check(picked[(None, bucket)], mine)


def test_no_orders(memory: duckdb.DuckDBPyConnection) -> None:
    rows = _rows(_orders(random.Random("none"), [1]))
    assert summarize_orders(memory, rows, key="vehicle_id", where=("false", []), fleet=True) == {}


def test_histogram_buckets_agree_with_the_rollups_at_every_edge(
    memory: duckdb.DuckDBPyConnection,
) -> None:
    """Cycle times a microsecond around each bucket's lower edge land where the rollups put
    them (``cycle_bucket``)."""
    edges = [round(5e6 * 2 ** ((bucket - 1) / 4)) for bucket in range(1, CYCLE_BUCKET_COUNT)]
    cycles = [0, 1, *(edge + delta for edge in edges for delta in (-1, 0, 1)), 10**12]
    orders: list[Order] = [(1, "W", "finished", micros, 0.0, 0.0, 0) for micros in cycles]
    found = summarize_orders(memory, _rows(orders), key=None)
    expected = [0] * CYCLE_BUCKET_COUNT
    for micros in cycles:
        expected[cycle_bucket(micros / 1e6)] += 1
    summary = found[(None, 0)]
    assert summary.histogram == expected
    assert summary.maximum == 1e6  # 10**12 µs: beyond 6.4 days, exact
