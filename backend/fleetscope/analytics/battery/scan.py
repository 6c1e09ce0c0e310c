"""The battery measures of T per vehicle and time slot (whole hours from ``battery_hourly``,
the rest from the samples: units that compose exactly), one statement per bucket, and each
vehicle's figures per bucket from its slots (docs/analytics-v2.md, Battery)."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.battery.open_hold import open_holds
from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, Selection, SiteSlice, rows_in_periods
from fleetscope.analytics.core.periods import Window, merge_windows, split_hour_ranges
from fleetscope.analytics.core.rollups import HOURS_OF_RANGES, range_parameters
from fleetscope.facts import battery_hours
from fleetscope.facts.battery_hours import MEASURE_COLUMNS, MICROS_PER_HOUR
from fleetscope.facts.rawlog import to_micros

Units = dict[str, npt.NDArray[Any]]
MICROS = 1_000_000
MILLIS = 1_000
# A slot's value where its aggregate is NULL (no samples of that kind); sums are 0.
_EMPTY = {"low": np.inf, "low_at": np.inf, "high": -np.inf, "high_at": np.inf}
_EMPTY |= {"health_last_at": -np.inf, "health_last": np.nan}
_SAMPLE_COLUMNS = (
    "f.vehicle_id, epoch_us(f.sampled_at) AS t, f.charge, f.health, f.held_s, f.discharged, "
    "f.closes, f.held_low"
)


@dataclass(frozen=True, slots=True)
class HealthLine:  # health = intercept + slope x epoch seconds
    slope_per_second: float
    intercept: float

    def at(self, epoch_us: int) -> float:
        return self.intercept + self.slope_per_second * epoch_us / MICROS


@dataclass(frozen=True, slots=True)
class SlotGrid:
    """Slot ``i`` is [start + i x width, start + (i + 1) x width), over a period that the
    slots cover: the first slot may begin before it (at the full hour), the last end after."""

    start_us: int
    width_us: int
    count: int
    period: Window

    @classmethod
    def over(cls, window: Window, *, slots: int) -> "SlotGrid":
        """About ``slots`` equal slots, each at least a second wide; slots of an hour or more are
        whole UTC hours from a full hour (``hour_aligned``: from the hourly rows), maybe fewer."""
        start_us, end_us = to_micros(window.start), to_micros(window.end)
        width_us = max((end_us - start_us) // max(1, slots), MICROS)
        if width_us >= MICROS_PER_HOUR:
            start_us -= start_us % MICROS_PER_HOUR
            width_us = -(-(end_us - start_us) // max(1, slots) // MICROS_PER_HOUR)
            width_us = max(1, width_us) * MICROS_PER_HOUR
        return cls(start_us, width_us, max(1, -(-(end_us - start_us) // width_us)), window)

    @classmethod
    def hourly(cls, window: Window) -> "SlotGrid":
        """Slots of one UTC hour each, from the full hour before ``window`` on."""
        start_us, end_us = to_micros(window.start), to_micros(window.end)
        start_us -= start_us % MICROS_PER_HOUR
        return cls(
            start_us, MICROS_PER_HOUR, max(1, -(-(end_us - start_us) // MICROS_PER_HOUR)), window
        )

    @property
    def hour_aligned(self) -> bool:
        return self.start_us % MICROS_PER_HOUR == 0 and self.width_us % MICROS_PER_HOUR == 0

    def middles_us(self) -> npt.NDArray[np.int64]:
        """Every slot's middle (to the millisecond), moved into the period."""
        first = self.start_us + self.width_us // 2
        middles = first + np.arange(self.count, dtype=np.int64) * self.width_us
        middles = np.clip(middles, to_micros(self.period.start), to_micros(self.period.end))
        return middles - middles % MILLIS


@dataclass(slots=True)
class SampleFigures:  # of one vehicle in one bucket
    health_latest: float | None = None
    health_line: HealthLine | None = None  # least squares over the bucket's samples
    below_low_seconds: float = 0.0
    discharged: float = 0.0  # percentage points the charge fell inside the bucket


def vehicle_starts(vehicles: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """The first row of each vehicle in ``vehicles`` (grouped by vehicle; ids are not negative)."""
    return np.flatnonzero(np.diff(vehicles, prepend=-1))


def _hour_rows(part: SiteSlice, parameters: list[Any]) -> tuple[str, list[Window]]:
    """The hourly rows of the whole hours of ``part``'s windows, and the rest as pieces."""
    split = split_hour_ranges(window for window, _ in part.windows)
    if not split.ranges:
        return "", split.pieces
    hours = f"{battery_hours.TABLE} r"
    if len(split.ranges) > 1:
        # Many ranges (a shift over a year): a hash join on the hours they expand to.
        hours = f"{battery_hours.TABLE} r JOIN {HOURS_OF_RANGES} sel ON r.hour_utc = sel.hour_utc"
        parameters += range_parameters([(window, 0) for window in split.ranges])
    parameters += [split.ranges[0].start, split.ranges[-1].end, part.vehicle_ids]
    sql = (
        f"SELECT r.vehicle_id, epoch_us(r.hour_utc) AS u, {', '.join(MEASURE_COLUMNS)} "  # noqa: S608 - constants only
        f"FROM {hours} WHERE r.hour_utc >= ? AND r.hour_utc < ? "
        "AND list_contains(?::INTEGER[], r.vehicle_id)"
    )
    return sql, split.pieces


def _sample_units(samples: Selection, *, grid: SlotGrid, cap_us: int, parameters: list[Any]) -> str:
    """The samples of ``samples`` grouped by slot of ``grid``. Each sample's next one (the
    end of a step under 20 %) may lie outside them: it is looked up (ASOF join) among the
    samples of the same windows extended by the longest step (``reach_us``); a step without
    one is still open (``open_hold``)."""
    rows_sql, rows_parameters = rows_in_periods(
        samples, table="battery_samples", at="sampled_at", columns=_SAMPLE_COLUMNS
    )
    reach = timedelta(microseconds=battery_hours.reach_us(cap_us))
    extended: list[SiteSlice] = []
    for part in samples.slices:
        ends = merge_windows(Window(w.start, w.end + reach) for w, _ in part.windows)
        extended.append(SiteSlice(part.vehicle_ids, [(w, 0) for w in ends]))
    next_sql, next_parameters = rows_in_periods(
        Selection(extended), table="battery_samples", at="sampled_at", columns=_SAMPLE_COLUMNS
    )
    parameters += [grid.start_us, grid.start_us, grid.width_us, grid.width_us]
    parameters += [*rows_parameters, *next_parameters]
    slotted = (
        "SELECT vehicle_id, t, ? + (t - ?) // ? * ? AS u, (t - u) / 1e6 AS x, charge, health, "  # noqa: S608 - constants only
        f"held_s, held_low, discharged, closes FROM ({rows_sql})"
    )
    measures = battery_hours.unit_aggregates(cap_us=cap_us)
    return (
        f"SELECT vehicle_id, u, {measures} "  # noqa: S608 - constants only
        f"FROM ({battery_hours.with_next(slotted, next_sql)}) GROUP BY vehicle_id, u"
    )


def slot_columns(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    *,
    grid: SlotGrid,
    offline_after: timedelta,
    use_hours: bool,
) -> Units | None:
    """The measures per vehicle and slot of ``grid`` with samples, ascending (None: none):
    arrays ``MEASURE_COLUMNS``, ``vehicle_id``, ``slot`` (from 0); health x in seconds after the
    slot's start, instants in epoch µs. A step under 20 % is capped at ``offline_after`` (the
    hourly rows hold the writer's: the same setting); ``use_hours=False``: every sample (tests)."""
    sqls: list[str] = []
    raw: list[SiteSlice] = []
    parameters: list[Any] = [grid.start_us, grid.width_us, grid.start_us, grid.start_us]
    parameters += [grid.width_us, grid.width_us]
    for part in selection.slices:
        if not (part.windows and part.vehicle_ids):
            continue
        if use_hours and grid.hour_aligned:
            sql, pieces = _hour_rows(part, parameters)
            sqls += [sql] if sql else []
            part = SiteSlice(part.vehicle_ids, [(piece, 0) for piece in pieces])
        raw.append(part)
    if not Selection(raw).empty:
        cap = battery_hours.cap_us(offline_after)
        units = _sample_units(Selection(raw), grid=grid, cap_us=cap, parameters=parameters)
        sqls.append(units)
    if not sqls:
        return None
    # One integer group key (vehicle, slot) groups much faster than two columns. Health
    # moments move from each unit's origin to the slot's start (x + o: sum x + n o,
    # sum x² + 2 o sum x + n o², sum x y + o sum y). A tied extreme is its earliest instant
    # (as in ``facts.battery_hours``): one answer whatever order the units arrive in.
    # Fetched column-wise: ``fetchall`` converts value by value.
    found = cursor.execute(
        "SELECT key, min(low) AS low, arg_min(low_at, (low, low_at)) AS low_at, "  # noqa: S608 - constants only
        "max(high) AS high, arg_max(high_at, (high, -high_at)) AS high_at, "
        "sum(health_n)::DOUBLE AS health_n, sum(health_x + health_n * o) AS health_x, "
        "sum(health_y) AS health_y, "
        "sum(health_xx + 2 * o * health_x + health_n * o * o) AS health_xx, "
        "sum(health_xy + o * health_y) AS health_xy, max(health_last_at) AS health_last_at, "
        "arg_max(health_last, health_last_at) AS health_last, sum(low_s) AS low_s, "
        "sum(discharged) AS discharged "
        f"FROM (SELECT vehicle_id::BIGINT * {grid.count} + slot AS key, *, "
        "(u - slot_start) / 1e6 AS o FROM ("
        "SELECT *, (u - ?) // ? AS slot, ? + (u - ?) // ? * ? AS slot_start "
        f"FROM ({' UNION ALL '.join(f'({sql})' for sql in sqls)}))) GROUP BY key ORDER BY key",
        parameters,
    ).fetchnumpy()
    keys = np.asarray(found["key"], dtype=np.int64)
    if not len(keys):
        return None
    return {
        name: np.ma.filled(np.ma.asarray(found[name]).astype(np.float64), _EMPTY.get(name, 0.0))
        for name in MEASURE_COLUMNS
    } | {"vehicle_id": keys // grid.count, "slot": keys % grid.count}


def _fits(starts: npt.NDArray[np.intp], c: Units, grid: SlotGrid) -> list[HealthLine | None]:
    """Each vehicle's least-squares line over epoch seconds (rows ``starts[i]`` up to the next
    start) from each slot's n, mean and centred Sxx, Sxy: n = sum n_i, mean = sum n_i mean_i / n,
    Sxx = sum (Sxx_i + n_i (mean_x_i - mean_x)^2), Sxy likewise (a constant health gives 0 up
    to rounding). As ``regr_slope``: none below two samples or when they share one instant."""
    n = c["health_n"]
    with np.errstate(invalid="ignore", divide="ignore"):
        slot_x = np.where(n > 0, c["health_x"] / n, 0.0)  # after the slot's start
        slot_y = np.where(n > 0, c["health_y"] / n, 0.0)
        slot_sxx = np.where(n > 0, c["health_xx"] - c["health_x"] * slot_x, 0.0)
        slot_sxy = np.where(n > 0, c["health_xy"] - c["health_x"] * slot_y, 0.0)
        mean_x = slot_x + c["slot"] * (grid.width_us / MICROS)
        total = np.add.reduceat(n, starts)
        x = np.add.reduceat(n * mean_x, starts) / total
        y = np.add.reduceat(n * slot_y, starts) / total
        lengths = np.diff(np.append(starts, len(n)))
        dx, dy = mean_x - np.repeat(x, lengths), slot_y - np.repeat(y, lengths)
        sxx = np.add.reduceat(slot_sxx + n * dx * dx, starts)
        slopes = np.add.reduceat(slot_sxy + n * dx * dy, starts) / sxx
    x += grid.start_us / MICROS
    return [
        HealthLine(slope, y_ - slope * x_) if count >= 2 and spread > 0 else None
        for count, x_, y_, spread, slope in zip(
            total.tolist(), x.tolist(), y.tolist(), sxx.tolist(), slopes.tolist(), strict=True
        )
    ]


def _figures(c: Units, grid: SlotGrid, bucket: int) -> dict[tuple[int, int], SampleFigures]:
    vehicles = c["vehicle_id"]
    starts = vehicle_starts(vehicles)
    # Each vehicle's last row (slot) with a health sample, -1 for none.
    rows = np.where(c["health_n"] > 0, np.arange(len(vehicles)), -1)
    return {
        (vehicle, bucket): SampleFigures(
            health_line=line,
            health_latest=float(c["health_last"][last]) if last >= 0 else None,
            below_low_seconds=low_s,
            discharged=fallen,
        )
        for vehicle, line, low_s, fallen, last in zip(
            vehicles[starts].tolist(),
            _fits(starts, c, grid),
            np.add.reduceat(c["low_s"], starts).tolist(),
            np.add.reduceat(c["discharged"], starts).tolist(),
            np.maximum.reduceat(rows, starts).tolist(),
            strict=True,
        )
    }


def in_bucket(selection: Selection, bucket: int) -> Selection:
    return Selection(
        [
            SiteSlice(p.vehicle_ids, [w for w in p.windows if w[1] == bucket])
            for p in selection.slices
        ]
    )


class Scanned(NamedTuple):
    figures: dict[tuple[int, int], SampleFigures]  # per vehicle and bucket with samples
    lines: Units | None  # the period's slots (``slot_columns``); None: no samples in it


def scan(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    *,
    grid: SlotGrid,
    offline_after: timedelta,
    now: datetime,
    use_hours: bool = True,
) -> Scanned:
    """The figures of each vehicle and bucket (the open hold's included), and the period's
    lines in the slots of ``grid``; the previous period is one slot."""
    parts = [(CURRENT, in_bucket(selection, CURRENT), grid)]
    previous = in_bucket(selection, PREVIOUS)
    if (bounds := previous.bounds) is not None:
        parts.append((PREVIOUS, previous, SlotGrid.over(bounds, slots=1)))
    figures: dict[tuple[int, int], SampleFigures] = {}
    lines = None
    for bucket, part, part_grid in parts:
        c = slot_columns(
            cursor, part, grid=part_grid, offline_after=offline_after, use_hours=use_hours
        )
        if c is not None:
            figures |= _figures(c, part_grid, bucket)
        if bucket == CURRENT:
            lines = c
    for key, hold in open_holds(cursor, selection, now=now, offline_after=offline_after).items():
        item = figures.setdefault(key, SampleFigures())
        item.below_low_seconds += hold.below_low_seconds
        item.discharged += hold.fallen
    return Scanned(figures, lines)
