"""Percentiles, maxima and histograms of ``sorted_durations`` against a plain sort."""

import math
import random

import duckdb
import numpy as np
import pytest

from fleetscope.analytics.sorted_durations import (
    CYCLE_EDGES_US,
    SortedDurations,
    key_codes,
    packed_key_sql,
)
from fleetscope.facts.rollup import CYCLE_BUCKET_COUNT, cycle_bucket

from .conftest import quantile_cont

QUANTILES = (0.0, 0.25, 0.5, 0.9, 0.95, 1.0)


def _sample(rng: random.Random, kind: str) -> list[int]:
    """Durations in microseconds with the shapes that break rank arithmetic."""
    size = rng.choice([1, 2, 3, 7, 50, 400])
    if kind == "ties":
        return [rng.choice([0, 5_000_000, 60_000_000]) for _ in range(size)]
    if kind == "huge":  # beyond 6.4 days: the run switches to milliseconds
        return [rng.randrange(-(10**13), 10**13) for _ in range(size)]
    if kind == "signed":
        return [rng.randrange(-3_000_000, 3_000_000) for _ in range(size)]
    return [int(rng.lognormvariate(13, 2)) for _ in range(size)]


def _expected_histogram(values: list[int]) -> list[int]:
    histogram = [0] * CYCLE_BUCKET_COUNT
    for micros in values:
        histogram[cycle_bucket(micros / 1_000_000)] += 1
    return histogram


@pytest.mark.parametrize("kind", ["ties", "huge", "signed", "spread"])
def test_groups_and_their_union_match_an_exact_sort(kind: str) -> None:
    rng = random.Random(kind)
    groups = {code: _sample(rng, kind) for code in rng.sample(range(0, 5000), 6)}
    codes = [code for code, values in groups.items() for _ in values]
    micros = [value for values in groups.values() for value in values]
    order = list(range(len(codes)))
    rng.shuffle(order)
    durations = SortedDurations(
        np.array([codes[i] for i in order]), np.array([micros[i] for i in order])
    )
    unit = 1000 if kind == "huge" else 1  # milliseconds, rounded down

    def exact(values: list[int]) -> list[float]:
        seconds = [(value // unit) * unit / 1e6 for value in values]
        return [quantile_cont(seconds, q) for q in QUANTILES]

    found = durations.groups([*groups, 999_999], QUANTILES)
    assert found[-1] is None  # a code without durations
    for (_, values), figures in zip(groups.items(), found, strict=False):
        assert figures is not None
        assert figures.quantiles == pytest.approx(exact(values), rel=1e-12, abs=1e-9)
        assert figures.maximum == pytest.approx(max(exact(values)), abs=1e-9)
        if unit == 1:
            assert figures.histogram == _expected_histogram(values)
    union = durations.union(list(groups), QUANTILES)
    assert union is not None
    everything = [value for values in groups.values() for value in values]
    assert union.quantiles == pytest.approx(exact(everything), rel=1e-12, abs=1e-9)
    assert union.histogram == [
        sum(column) for column in zip(*(f.histogram for f in found[:-1] if f), strict=True)
    ]


def test_single_and_two_durations_are_exact() -> None:
    durations = SortedDurations(np.array([4, 6, 6]), np.array([480_000_001, 10_000_000, 1]))
    single, two = durations.groups([4, 6], (0.5, 0.9))
    assert single is not None and single.quantiles == [480.000001, 480.000001]
    assert two is not None and two.quantiles == pytest.approx([5.0000005, 9.0000001])
    assert durations.union([4, 6], (0.5,)) is not None


def test_large_codes_are_renumbered() -> None:
    codes = np.array([2**40, 2**40, 3, 2**40 + 1])
    durations = SortedDurations(codes, np.array([2_000_000, 1_000_000, 7, 5]))
    one, other, small = durations.groups([2**40, 2**40 + 1, 3], (0.5,))
    assert one is not None and one.quantiles == [1.5]
    assert other is not None and other.quantiles == [0.000005]
    assert small is not None and small.quantiles == [0.000007]


def test_bucket_edges_agree_with_the_rollups() -> None:
    for bucket, micros in enumerate(CYCLE_EDGES_US.tolist(), start=1):
        assert cycle_bucket(micros / 1_000_000) == bucket
        assert cycle_bucket((micros - 1) / 1_000_000) == bucket - 1
    assert math.isclose(CYCLE_EDGES_US[4] / 1e6, 10.0)


def test_empty() -> None:
    durations = SortedDurations(np.array([], dtype=np.int64), np.array([], dtype=np.int64))
    assert durations.groups([1, 2], (0.5,)) == [None, None]
    assert durations.union([1, 2], (0.5,)) is None


_PACKED = f"SELECT {packed_key_sql('c', 'v')} FROM (SELECT unnest(?::BIGINT[]) AS c, unnest(?::BIGINT[]) AS v)"  # noqa: S608, E501 - constants only


def test_keys_packed_by_duckdb_give_counts_and_exact_totals() -> None:
    rng = random.Random("totals")
    groups = {
        code: _sample(rng, kind)
        for code, kind in zip((0, 1, 5, 9), ("spread", "signed", "ties", "spread"), strict=True)
    }
    rows = [(code, value) for code, values in groups.items() for value in values]
    rng.shuffle(rows)
    connection = duckdb.connect()
    table = connection.execute(
        _PACKED,
        [[c for c, _ in rows], [v for _, v in rows]],
    ).fetchnumpy()
    keys = np.asarray(table[next(iter(table))], dtype=np.int64)
    assert (key_codes(keys) == [c for c, _ in rows]).all()
    durations = SortedDurations.of_keys(keys)
    codes = [9, 0, 3, 5, 1, 1, 999_999_999]  # unknown, repeated and out-of-range codes
    assert durations.counts(codes).tolist() == [len(groups.get(c, [])) for c in codes]
    assert durations.totals(codes) == [sum(groups.get(c, [])) for c in codes]
    for code, figures in zip(codes, durations.groups(codes, QUANTILES), strict=True):
        if code in groups:
            assert figures is not None
            seconds = [value / 1e6 for value in groups[code]]
            expected = [quantile_cont(seconds, q) for q in QUANTILES]
            assert figures.quantiles == pytest.approx(expected, rel=1e-12, abs=1e-9)


def test_durations_or_codes_that_do_not_fit_are_null() -> None:
    limit, codes = 2**39, 2**23
    pairs = [(0, limit), (1, -limit - 1), (-1, 5), (codes, 5), (codes - 1, limit - 1), (0, -limit)]
    found = (
        duckdb.connect()
        .execute(
            _PACKED,
            [[c for c, _ in pairs], [v for _, v in pairs]],
        )
        .fetchall()
    )
    assert [row[0] is None for row in found] == [True, True, True, True, False, False]
    assert key_codes(np.array([found[4][0]], dtype=np.int64)).tolist() == [codes - 1]
