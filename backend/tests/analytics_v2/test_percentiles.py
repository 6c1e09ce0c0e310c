"""Grouped percentiles (product.md section 3): exact up to 31 days, histograms beyond, within
0.5 % of the exact figure, checked against a hand-written ``quantile_cont`` on seeded data."""

import random
from datetime import UTC, date, datetime

import duckdb
import pytest

from fleetscope.analytics.core.percentiles import exact_for, percentiles
from fleetscope.analytics.core.periods import DaySpan, Window

from .conftest import quantile_cont

QUANTILES = (0.0, 0.05, 0.5, 0.9, 0.95, 1.0)


@pytest.fixture(scope="module")
def durations() -> dict[tuple[int, str], list[int]]:
    """Microsecond durations per (vehicle, kind): log-normal, a few zeros, one group of one."""
    generator = random.Random(24)
    groups: dict[tuple[int, str], list[int]] = {}
    for vehicle in (1, 2, 3):
        for kind in ("pick", "drop"):
            groups[(vehicle, kind)] = [
                int(generator.lognormvariate(17, 1.2)) for _ in range(generator.randint(50, 3000))
            ]
    groups[(1, "pick")] += [0, 0, 0, 1, 2]
    groups[(4, "charge")] = [7_000_000]
    return groups


@pytest.fixture(scope="module")
def cursor(durations: dict[tuple[int, str], list[int]]) -> duckdb.DuckDBPyConnection:
    connection = duckdb.connect()
    connection.execute("CREATE TABLE d (vehicle_id INTEGER, kind VARCHAR, us BIGINT)")
    connection.executemany(
        "INSERT INTO d VALUES (?, ?, ?)",
        [(v, k, us) for (v, k), values in durations.items() for us in values],
    )
    connection.execute("INSERT INTO d VALUES (5, 'pick', NULL)")  # no value: no group
    return connection


ROWS = ("SELECT vehicle_id, kind, us FROM d WHERE vehicle_id <> ?", [99])
SETS = (("vehicle_id", "kind"), ("kind",))


def _expected(durations: dict[tuple[int, str], list[int]]) -> dict[tuple[object, ...], list[float]]:
    expected = {
        (v, k): [quantile_cont([float(x) for x in xs], q) for q in QUANTILES]
        for (v, k), xs in durations.items()
    }
    for kind in {k for _, k in durations}:
        pooled = [float(x) for (_, k), xs in durations.items() if k == kind for x in xs]
        expected[(None, kind)] = [quantile_cont(pooled, q) for q in QUANTILES]
    return expected


def test_exact_is_quantile_cont(
    cursor: duckdb.DuckDBPyConnection, durations: dict[tuple[int, str], list[int]]
) -> None:
    found = percentiles(cursor, ROWS, value="us", sets=SETS, quantiles=QUANTILES, exact=True)
    expected = _expected(durations)
    assert found.keys() == expected.keys()
    for key, values in expected.items():
        assert found[key] == pytest.approx(values, rel=1e-12), key


def test_histogram_is_within_half_a_percent(
    cursor: duckdb.DuckDBPyConnection, durations: dict[tuple[int, str], list[int]]
) -> None:
    found = percentiles(cursor, ROWS, value="us", sets=SETS, quantiles=QUANTILES, exact=False)
    expected = _expected(durations)
    assert found.keys() == expected.keys()
    worst = 0.0
    for key, values in expected.items():
        for got, want in zip(found[key], values, strict=True):
            if want == 0:
                assert got == 0, key
            else:
                worst = max(worst, abs(got - want) / want)
    assert 0 < worst <= 0.005


def test_histogram_of_one_value_and_of_zeros(cursor: duckdb.DuckDBPyConnection) -> None:
    one = percentiles(
        cursor,
        ("SELECT * FROM d WHERE vehicle_id = 4", []),
        value="us",
        sets=(("vehicle_id",),),
        quantiles=(0.5,),
        exact=False,
    )
    assert one.keys() == {(4,)}
    assert one[(4,)][0] == pytest.approx(7_000_000, rel=0.005)
    zeros = percentiles(
        cursor,
        ("SELECT * FROM d WHERE us = 0", []),
        value="us",
        sets=(("kind",),),
        quantiles=(0.0, 0.001),
        exact=False,
    )
    assert zeros == {("pick",): [0.0, 0.0]}


def test_exact_up_to_31_days() -> None:
    assert exact_for(DaySpan(date(2026, 1, 1), date(2026, 1, 31)))
    assert not exact_for(DaySpan(date(2026, 1, 1), date(2026, 2, 1)))
    start = datetime(2026, 1, 1, 12, tzinfo=UTC)
    rolling = DaySpan(
        date(2026, 1, 1), date(2026, 2, 1), clip=Window(start, start.replace(month=2))
    )
    assert exact_for(rolling)  # 31 days of time over 32 calendar days
    longer = Window(start, start.replace(month=2, hour=13))
    assert not exact_for(DaySpan(date(2026, 1, 1), date(2026, 2, 1), clip=longer))
