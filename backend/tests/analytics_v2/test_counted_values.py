"""Percentiles from (value, count) pairs equal those of the values themselves."""

import duckdb
import numpy as np
import pytest

from fleetscope.analytics.counted_values import CountedValues

QUANTILES = (0.0, 0.5, 0.9, 0.95, 1.0)


@pytest.mark.parametrize("seed", range(5))
def test_quantiles_and_mean_match_the_expanded_values(seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 40, size=int(rng.integers(1, 300))) * 250_000  # many repeats
    distinct, counts = np.unique(values, return_counts=True)
    order = rng.permutation(len(distinct))  # pairs arrive in any order
    counted = CountedValues.of(distinct[order], counts[order])
    assert counted.quantiles(QUANTILES) == pytest.approx(
        [float(np.quantile(values, q)) for q in QUANTILES]
    )
    assert counted.mean() == pytest.approx(float(values.mean()))
    assert counted.total == len(values)


def test_same_as_duckdb_quantile_cont() -> None:
    values = [3.0, 3.0, 3.0, 7.0, 10.0, 10.0, 41.0]
    [(expected,)] = (
        duckdb.connect()
        .execute(
            "SELECT quantile_cont(v, [0.5, 0.9]) FROM (SELECT unnest(?::DOUBLE[]) AS v)",
            [values],
        )
        .fetchall()
    )
    counted = CountedValues.of([10.0, 3.0, 41.0, 7.0], [2, 3, 1, 1])
    assert counted.quantiles([0.5, 0.9]) == pytest.approx(expected)


def test_no_values() -> None:
    counted = CountedValues.of([], [])
    assert counted.quantiles([0.5]) == [None]
    assert counted.mean() is None
