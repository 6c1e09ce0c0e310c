"""Rollups: site-local days, UTC hours, additive merges and the cycle-time histogram."""

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from fleetscope.facts.model import (
    BatterySample,
    ChargeSession,
    ErrorEpisode,
    OrderOutcome,
    OrderRun,
    StateInterval,
    VehicleState,
)
from fleetscope.facts.rollup import (
    CYCLE_BUCKET_COLUMNS,
    CYCLE_BUCKET_COUNT,
    MEASURE_NAMES,
    RollupAccumulator,
    cycle_bucket,
    cycle_bucket_lower_bounds,
)
from fleetscope.facts.store import FactStore, StoreBatch

BERLIN = ZoneInfo("Europe/Berlin")


def _acc() -> RollupAccumulator:
    return RollupAccumulator(zone_of=lambda _: BERLIN)


def _measure(row: list[object], name: str) -> object:
    return row[MEASURE_NAMES.index(name)]


def test_interval_is_split_at_local_midnight_and_at_utc_hours() -> None:
    acc = _acc()
    # 22:30 to 01:30 UTC on 2026-01-10 is 23:30 to 02:30 in Berlin (UTC+1).
    start = datetime(2026, 1, 10, 22, 30, tzinfo=UTC)
    acc.add(StateInterval(1, VehicleState.IDLE, start, start + timedelta(hours=3)))
    days = {day.isoformat(): _measure(row, "idle_s") for (_, day), row in acc.daily.items()}
    assert days == {"2026-01-10": 1800.0, "2026-01-11": 9000.0}
    hours = {hour.hour: _measure(row, "idle_s") for (_, hour), row in acc.hourly.items()}
    assert hours == {22: 1800.0, 23: 3600.0, 0: 3600.0, 1: 1800.0}


def test_a_dst_day_has_23_hours() -> None:
    acc = _acc()
    start = datetime(2026, 3, 28, 23, 0, tzinfo=UTC)  # local midnight of the 29th (UTC+1)
    acc.add(StateInterval(1, VehicleState.OFFLINE, start, start + timedelta(hours=23)))
    days = {day.isoformat(): _measure(row, "offline_s") for (_, day), row in acc.daily.items()}
    assert days == {"2026-03-29": 23 * 3600.0}


def test_orders_errors_and_battery_are_folded() -> None:
    acc = _acc()
    t = datetime(2026, 1, 10, 10, 0, tzinfo=UTC)
    for seconds, outcome in (
        (100, OrderOutcome.FINISHED),
        (400, OrderOutcome.FINISHED),
        (50, OrderOutcome.FAILED),
    ):
        acc.add(
            OrderRun(
                1, "o", "w", t, t + timedelta(seconds=seconds), outcome, 0.0, 1, 1, 0.0, 0.0, 0
            )
        )
    acc.add(
        ErrorEpisode(1, "E", "FATAL", "", "{}", t, t + timedelta(seconds=60), None, None, "", "")
    )
    acc.add(
        ErrorEpisode(1, "W", "WARNING", "", "{}", t, t + timedelta(seconds=5), None, None, "", "")
    )
    # 90 % held 30 s, then 80 % held 60 s before the second sample: time-weighted.
    acc.add(BatterySample(1, t, 80.0, False, None, None, 30.0, 2700.0, 10.0))
    acc.add(BatterySample(1, t, 40.0, False, None, None, 60.0, 4800.0, 40.0))
    acc.add(ChargeSession(1, t, t + timedelta(hours=1), 30.0, 90.0, 95.0))
    (row,) = acc.daily.values()
    assert _measure(row, "orders_finished") == 2 and _measure(row, "orders_failed") == 1
    assert _measure(row, "cycle_s_sum") == 500.0 and _measure(row, "cycle_s_max") == 400.0
    histogram = [_measure(row, column) for column in CYCLE_BUCKET_COLUMNS]
    assert sum(histogram) == 2
    assert histogram[cycle_bucket(100)] == 1 and histogram[cycle_bucket(400)] == 1
    assert _measure(row, "errors_fatal") == 1 and _measure(row, "errors_warning") == 1
    assert _measure(row, "stop_errors") == 1 and _measure(row, "stop_error_s") == 60.0
    assert _measure(row, "battery_charge_min") == 40.0
    assert _measure(row, "battery_charge_sum") == 7500.0
    assert _measure(row, "battery_samples") == 90_000_000  # microseconds held
    assert _measure(row, "charged_pct") == 60.0 and _measure(row, "discharged_pct") == 65.0


_CYCLE_COUNT = " + ".join(CYCLE_BUCKET_COLUMNS)  # finished orders of a rollup row


def test_cycle_buckets_are_log_spaced_and_cover_everything() -> None:
    bounds = cycle_bucket_lower_bounds()
    assert len(bounds) == CYCLE_BUCKET_COUNT
    for index, lower in enumerate(bounds[1:], start=1):
        assert cycle_bucket(lower * 1.0001) == index
    assert cycle_bucket(0.0) == 0
    assert cycle_bucket(10**9) == CYCLE_BUCKET_COUNT - 1
    ratios = {round(b / a, 6) for a, b in itertools.pairwise(bounds[1:])}
    assert len(ratios) == 1


def test_batches_merge_additively_in_the_store(tmp_path: Path) -> None:
    t = datetime(2026, 1, 10, 10, 0, tzinfo=UTC)
    with FactStore(tmp_path / "facts.duckdb") as store:
        for minutes, charge in ((10, 50.0), (20, 30.0)):
            order = OrderRun(
                1,
                "o",
                "w",
                t,
                t + timedelta(minutes=minutes),
                OrderOutcome.FINISHED,
                0.0,
                1,
                1,
                0.0,
                0.0,
                0,
            )
            store.write_batch(
                StoreBatch(
                    zones={1: (1, "Europe/Berlin")},
                    facts=[order, BatterySample(1, t, charge, False, None, None)],
                    snapshots={1: ({}, 0)},
                )
            )
        cursor = store.cursor()
        row = cursor.execute(
            "SELECT orders_finished, cycle_s_sum, cycle_s_max, battery_charge_min, "  # noqa: S608 - constants
            f"{_CYCLE_COUNT} FROM rollup_daily"
        ).fetchone()
        cursor.close()
    assert row == (2, 1800.0, 1200.0, 30.0, 2)


def test_merging_more_rows_than_one_vector_keeps_histograms(tmp_path: Path) -> None:
    """Merges spanning several DuckDB vectors (2,048 rows) keep every value."""
    t = datetime(2026, 1, 1, tzinfo=UTC)
    long_idle = StateInterval(1, VehicleState.IDLE, t, t + timedelta(hours=3000))
    order = OrderRun(1, "o", "w", t, t + timedelta(seconds=100), OrderOutcome.FINISHED,
                     0.0, 1, 1, 0.0, 0.0, 0)  # fmt: skip
    with FactStore(tmp_path / "facts.duckdb") as store:
        for _ in range(2):
            store.write_batch(
                StoreBatch(
                    zones={1: (1, "Europe/Berlin")},
                    facts=[long_idle, order],
                    snapshots={1: ({}, 0)},
                )
            )
        cursor = store.cursor()
        hourly = cursor.execute(
            f"SELECT count(*), sum(idle_s), sum({_CYCLE_COUNT}) FROM rollup_hourly"  # noqa: S608
        ).fetchone()
        daily = cursor.execute(
            "SELECT sum(idle_s), sum(orders_finished) FROM rollup_daily"
        ).fetchone()
        cursor.close()
    assert hourly == (3000, 2 * 3000 * 3600.0, 2)
    assert daily == (2 * 3000 * 3600.0, 2)
