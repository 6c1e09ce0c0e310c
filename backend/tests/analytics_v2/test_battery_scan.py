"""The battery scan against a brute-force reading of the same samples: slots of the charge
line, health slot means, the least-squares health line combined from the slots, the latest
health, and the time below 20 %, for the period and the previous period, with and without a
shift (one on the full hour, one off it), read from the hourly battery rows plus the samples
of partial hours, and from the samples alone. About one sample in five is a closing one (the
instant its vehicle went offline)."""

import random
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import duckdb
import numpy as np
import pytest

from fleetscope.analytics.battery.scan import SampleFigures, Scanned, SlotGrid, Units, scan
from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, Selection, select_periods
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan, Shift, Window
from fleetscope.facts import battery_hours
from fleetscope.facts.battery_hours import LOW_CHARGE
from fleetscope.facts.rawlog import from_micros, to_micros

FIRST_DAY = date(2026, 3, 10)
NOW = datetime(2026, 3, 20, tzinfo=UTC)
OFFLINE_AFTER = timedelta(seconds=300)
MILLISECOND = timedelta(milliseconds=1)
REACH = timedelta(microseconds=battery_hours.reach_us(int(OFFLINE_AFTER.total_seconds() * 1e6)))
Sample = tuple[int, datetime, float, float | None]  # vehicle, at, charge, health


def _closes(at: datetime) -> bool:
    """Whether the sample at ``at`` is a closing one: about one in five, by its second."""
    return at.second % 5 == 0


def _samples(seed: int, *, previous_floor: float) -> list[Sample]:
    """Two vehicles over the period and the one before: charge a random walk that often
    falls under 20 % (in the previous period, and up to 06:00 of the first day, never under
    ``previous_floor``), health slowly falling with noise and gaps, irregular steps (some
    longer than ``OFFLINE_AFTER``)."""
    rng = random.Random(seed)
    samples: list[Sample] = []
    for vehicle in (1, 2):
        at = datetime.combine(FIRST_DAY - timedelta(days=3), time(), UTC)
        charge, health = 60.0, 95.0 - vehicle
        while at < datetime.combine(FIRST_DAY + timedelta(days=3), time(), UTC):
            charge = min(100.0, max(0.0, charge + rng.uniform(-4.0, 3.5)))
            health -= rng.uniform(0.0, 0.002)
            reported = None if rng.random() < 0.1 else round(health + rng.uniform(-0.3, 0.3), 3)
            # The previous period's night shift (a shift belongs to the day it starts) runs
            # to 06:00 on the period's first day.
            floor = previous_floor if at < datetime.combine(FIRST_DAY, time(6), UTC) else 0.0
            samples.append((vehicle, at, round(max(floor, charge), 2), reported))
            at += timedelta(seconds=rng.choice((60, 240, 420, 900)) + rng.randint(0, 59))
    return samples


def _scope(shift: Shift | None) -> AnalyticsScope:
    return AnalyticsScope(
        span=DaySpan(FIRST_DAY, FIRST_DAY + timedelta(days=2)),
        combined=False,
        shift_id=shift.id if shift else "all",
        vehicles=[VehicleRef(1, "V1", 1), VehicleRef(2, "V2", 1)],
        sites=[SiteGroup(1, ZoneInfo("UTC"), shift, excluded=False, vehicle_ids=[1, 2])],
    )


def _insert(cursor: duckdb.DuckDBPyConnection, samples: list[Sample]) -> None:
    """The samples, and the hourly rows of all samples (as the writer leaves them)."""
    columns = list(zip(*samples, strict=True))
    cursor.execute(  # one statement: executemany manages a few hundred rows per second
        "INSERT INTO battery_samples "
        "(vehicle_id, sampled_at, charge, charging, voltage, health, closes) "
        "SELECT unnest(?::INTEGER[]), unnest(?::TIMESTAMPTZ[]), "
        "unnest(?::DOUBLE[]), false, 48.0, unnest(?::DOUBLE[]), unnest(?::BOOLEAN[])",
        [*(list(column) for column in columns), [_closes(at) for at in columns[1]]],
    )
    cursor.execute("DELETE FROM battery_hourly")
    battery_hours.fill(cursor, cap_us=int(OFFLINE_AFTER.total_seconds() * 1e6))


def _scan(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    grid: SlotGrid,
    *,
    use_hours: bool = True,
) -> Scanned:
    """Both periods and the time below 20 %, as the battery resource reads them."""
    return scan(
        cursor,
        selection,
        grid=grid,
        offline_after=OFFLINE_AFTER,
        now=NOW,
        use_hours=use_hours,
    )


def _fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least squares (slope, intercept) of (x, y) pairs, two-pass."""
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx
    return slope, mean_y - slope * mean_x


def _check(
    figures: SampleFigures,
    samples: list[Sample],
    *,
    every: list[Sample],
) -> None:
    """``samples``: the vehicle's samples in the bucket; ``every``: all of its samples."""
    ordered = sorted(samples, key=lambda s: s[1])
    with_health = [(at.timestamp(), h) for _, at, _, h in ordered if h is not None]
    assert figures.health_latest == with_health[-1][1]
    slope, intercept = _fit(with_health)
    assert figures.health_line is not None
    assert figures.health_line.slope_per_second == pytest.approx(slope, rel=1e-6)
    moment = to_micros(ordered[-1][1])
    expected = intercept + slope * moment / 1e6
    assert figures.health_line.at(moment) == pytest.approx(expected, abs=1e-9)
    # Each low sample counts until the vehicle's next sample within the reach, in T or not,
    # at most the cap, to a closing one uncapped; a closing one counts nothing; without a
    # next sample within the reach nothing (the latest sample's step is open: the live
    # status has it, ``open_hold``).
    instants = sorted(at for _, at, _, _ in every)
    below = 0.0
    for _, at, charge, _ in ordered:
        later = [t for t in instants if at < t <= at + REACH]
        if charge < LOW_CHARGE and not _closes(at) and later:
            step = later[0] - at if _closes(later[0]) else min(later[0] - at, OFFLINE_AFTER)
            below += step.total_seconds()
    assert figures.below_low_seconds == pytest.approx(below, abs=1e-6)


def _check_lines(lines: Units, samples: list[Sample], *, grid: SlotGrid) -> None:
    """``lines``: one vehicle's slots; ``samples``: its samples in the period."""
    ordered = sorted(samples, key=lambda s: s[1])
    by_slot: dict[int, list[Sample]] = {}
    for sample in ordered:
        by_slot.setdefault((to_micros(sample[1]) - grid.start_us) // grid.width_us, []).append(
            sample
        )
    assert lines["slot"].tolist() == sorted(by_slot)
    for row, number in enumerate(lines["slot"].tolist()):
        inside = by_slot[number]
        lowest = min(charge for _, _, charge, _ in inside)
        highest = max(charge for _, _, charge, _ in inside)
        assert (lines["low"][row], lines["high"][row]) == (lowest, highest)
        # At the time of the first sample with that charge (ties: the earliest, so the answer
        # is the same every time), to the millisecond (the facts' resolution).
        low_at, high_at = (from_micros(int(lines[at][row])) for at in ("low_at", "high_at"))
        first_low = next(at for _, at, c, _ in inside if c == lowest)
        first_high = next(at for _, at, c, _ in inside if c == highest)
        assert abs(first_low - low_at) < MILLISECOND and abs(first_high - high_at) < MILLISECOND
        healths = [h for _, _, _, h in inside if h is not None]
        assert lines["health_n"][row] == len(healths)
        if healths:
            mean = lines["health_y"][row] / lines["health_n"][row]
            assert mean == pytest.approx(sum(healths) / len(healths), abs=1e-9)


def _of(lines: Units | None, vehicle: int) -> Units:
    assert lines is not None
    rows = lines["vehicle_id"] == vehicle
    return {name: values[rows] for name, values in lines.items()}


def _same(first: Scanned, second: Scanned) -> bool:
    if first.figures != second.figures or (first.lines is None) != (second.lines is None):
        return False
    if first.lines is None or second.lines is None:
        return True
    return first.lines.keys() == second.lines.keys() and all(
        np.array_equal(values, second.lines[name], equal_nan=True)
        for name, values in first.lines.items()
    )


SHIFTS = [
    None,
    Shift("night", time(22), time(6), frozenset(range(7))),
    Shift("odd", time(5, 30), time(14, 15), frozenset(range(7))),
]


@pytest.mark.parametrize("source", ["hours", "samples"])
@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("previous_floor", [0.0, 25.0])
def test_the_scan_matches_a_brute_force_reading(
    cursor: duckdb.DuckDBPyConnection,
    shift: Shift | None,
    previous_floor: float,
    source: str,
) -> None:
    """With low charge in both periods, and only in the period."""
    samples = _samples(seed=5, previous_floor=previous_floor)
    scope = _scope(shift)
    selection = select_periods(scope, now=NOW)
    windows = [(w, bucket) for part in selection.slices for w, bucket in part.windows]
    current = [w for w, bucket in windows if bucket == CURRENT]
    grid = SlotGrid.over(Window(current[0].start, current[-1].end), slots=50)
    assert grid.hour_aligned
    _insert(cursor, samples)
    result = _scan(cursor, selection, grid, use_hours=source != "samples")
    _check_all(result, samples, windows=windows, grid=grid)
    for (_, bucket), figures in result.figures.items():
        low = figures.below_low_seconds > 0
        assert low if bucket == CURRENT or not previous_floor else not low


def _check_all(
    result: Scanned,
    samples: list[Sample],
    *,
    windows: list[tuple[Window, int]],
    grid: SlotGrid,
) -> None:
    """``_check`` for both vehicles in both buckets, ``_check_lines`` in the period."""
    assert set(result.figures) == {(v, b) for v in (1, 2) for b in (CURRENT, PREVIOUS)}
    for (vehicle, bucket), figures in result.figures.items():
        inside = [
            s
            for s in samples
            if s[0] == vehicle and any(w.start <= s[1] < w.end for w, b in windows if b == bucket)
        ]
        every = [s for s in samples if s[0] == vehicle]
        _check(figures, inside, every=every)
        if bucket == CURRENT:
            _check_lines(_of(result.lines, vehicle), inside, grid=grid)


def test_a_period_up_to_now_off_the_full_hour(cursor: duckdb.DuckDBPyConnection) -> None:
    """T ends at now, off the full hour, and no sample lies after now; the previous period
    ends like for like at 14:37 three days before."""
    now = datetime.combine(FIRST_DAY + timedelta(days=2), time(14, 37), UTC)
    samples = [s for s in _samples(seed=5, previous_floor=0.0) if s[1] < now]
    _insert(cursor, samples)
    selection = select_periods(_scope(None), now=now)
    windows = [(w, bucket) for part in selection.slices for w, bucket in part.windows]
    assert max(w.end for w, _ in windows) == now
    current = [w for w, bucket in windows if bucket == CURRENT]
    grid = SlotGrid.over(Window(current[0].start, current[-1].end), slots=50)
    result = _scan(cursor, selection, grid)
    _check_all(result, samples, windows=windows, grid=grid)


def test_no_samples_give_no_figures(cursor: duckdb.DuckDBPyConnection) -> None:
    selection = select_periods(_scope(None), now=NOW)
    grid = SlotGrid.over(Window(NOW - timedelta(days=3), NOW), slots=50)
    assert _scan(cursor, selection, grid) == Scanned({}, None)


def test_whole_hours_are_read_from_the_hourly_rows(cursor: duckdb.DuckDBPyConnection) -> None:
    """The hourly rows alone give the figures of whole hours: the samples are not read."""
    _insert(cursor, _samples(seed=7, previous_floor=0.0))
    selection = select_periods(_scope(None), now=NOW)
    grid = SlotGrid.over(Window(NOW - timedelta(days=10), NOW), slots=50)
    expected = scan(cursor, selection, grid=grid, offline_after=OFFLINE_AFTER, now=NOW)
    assert {bucket for _, bucket in expected.figures} == {CURRENT, PREVIOUS}
    cursor.execute("DELETE FROM battery_samples")
    assert _same(scan(cursor, selection, grid=grid, offline_after=OFFLINE_AFTER, now=NOW), expected)
    assert _scan(cursor, selection, grid, use_hours=False) == Scanned({}, None)
