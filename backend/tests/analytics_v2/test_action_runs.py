"""The actions in memory (``action_runs``) against the Actions table's SQL: counts and
failures of both periods, duration and wait percentiles and the mean wait of the period,
with shifts off the full hour and two sites; statuses other than FINISHED and FAILED, and
actions that never ran, counted as the SQL counts them."""

import math
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from analytics_v2.inserts import insert_rows
from fleetscope.analytics.action_runs import (
    ACTION_DURATIONS,
    ACTION_WAITS,
    ActionFigures,
    action_figures,
)
from fleetscope.analytics.actions import action_figures_by_sql
from fleetscope.analytics.fact_rows import CURRENT, PREVIOUS, Selection, SiteSlice
from fleetscope.analytics.periods import Window
from fleetscope.analytics.sorted_runs import SortedRuns
from fleetscope.facts.store import FactStore

START = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.fixture
def store() -> Iterator[FactStore]:
    with FactStore(":memory:") as opened:
        yield opened


def _append(store: FactStore, rng: random.Random, count: int) -> None:
    rows = []
    for number in range(count):
        end = START + timedelta(seconds=rng.uniform(0, 6 * 86400))
        ran = rng.random() < 0.85
        run = timedelta(seconds=rng.choice([4, 10, rng.uniform(0.5, 40)]))
        wait = timedelta(milliseconds=rng.choice([0, 1500, int(rng.expovariate(1 / 8000))]))
        started = end - run if ran else None
        first_seen = (started or end - run) - wait
        status = rng.choice(["FINISHED"] * 8 + ["FAILED", "FAILED", "RUNNING"])
        rows.append(
            (
                rng.choice([1, 2, 3, 4, 9]),
                f"a{number}",
                rng.choice(["pick", "drop", "pick", "charge"]),
                f"o{number // 3}",
                first_seen,
                started,
                end,
                status,
                False,  # load_handling: not read by the action pages
            )
        )
    timestamps = ["TIMESTAMPTZ"] * 3
    types = ["INTEGER", *["VARCHAR"] * 3, *timestamps, "VARCHAR", "BOOLEAN"]
    insert_rows(store, "actions", types, rows)


def _days(first: int, last: int) -> Window:
    return Window(START + timedelta(days=first), START + timedelta(days=last))


def _shift(day: int) -> Window:
    return Window(
        START + timedelta(days=day, hours=5, minutes=30),
        START + timedelta(days=day, hours=14, minutes=15),
    )


SELECTIONS = {
    "period-and-previous": Selection(
        [SiteSlice([1, 2, 3, 4], [(_days(0, 3), PREVIOUS), (_days(3, 6), CURRENT)])]
    ),
    "every-vehicle-in-shifts": Selection(  # one site holds every vehicle: sums by hour
        [
            SiteSlice(
                [1, 2, 3, 4, 9],
                [(_shift(d), PREVIOUS) for d in range(3)]
                + [(_shift(d), CURRENT) for d in range(3, 6)],
            )
        ]
    ),
    "shifts-and-two-sites": Selection(
        [
            SiteSlice([1, 3], [(_shift(d), PREVIOUS) for d in range(3)] + [(_days(3, 5), CURRENT)]),
            SiteSlice([2], [(_shift(d), CURRENT) for d in range(2, 6)]),
        ]
    ),
}


def _close(found: float | None, expected: float | None) -> bool:
    if found is None or expected is None:
        return found is expected
    return math.isclose(found, expected, rel_tol=1e-9, abs_tol=1e-9)


def _same(
    found: dict[tuple[str, int], ActionFigures], expected: dict[tuple[str, int], ActionFigures]
) -> None:
    assert found.keys() == expected.keys()
    for key, figures in expected.items():
        other = found[key]
        assert (other.count, other.failed) == (figures.count, figures.failed), key
        for name in ("duration_p50_s", "duration_p90_s", "mean_wait_s", "wait_p50_s"):
            assert _close(getattr(other, name), getattr(figures, name)), (key, name)


@pytest.mark.parametrize("name", list(SELECTIONS))
@pytest.mark.usefixtures("marking")
def test_the_runs_give_the_figures_of_sql(store: FactStore, name: str) -> None:
    _append(store, random.Random(name), 4000)
    cursor = store.cursor()
    try:
        durations = SortedRuns.read(cursor, ACTION_DURATIONS)
        waits = SortedRuns.read(cursor, ACTION_WAITS)
        assert durations is not None and waits is not None
        expected = action_figures_by_sql(cursor, SELECTIONS[name])
    finally:
        cursor.close()
    assert {key for key in expected if key[1] == PREVIOUS}  # both periods hold actions
    assert any(figures.wait_p50_s is not None for figures in expected.values())
    _same(action_figures(durations, waits, SELECTIONS[name]), expected)


def test_no_actions(store: FactStore) -> None:
    cursor = store.cursor()
    durations = SortedRuns.read(cursor, ACTION_DURATIONS)
    waits = SortedRuns.read(cursor, ACTION_WAITS)
    cursor.close()
    assert durations is not None and waits is not None
    assert action_figures(durations, waits, SELECTIONS["period-and-previous"]) == {}
