"""One pass over the battery samples of T for the battery page: lines, health fit, low charge.

The samples are most of the fact store (100 vehicles over a year: 5.3 M rows), so they are
read once per bucket and grouped in DuckDB; only the groups come to Python. The period's
samples (``scan_period``) are grouped by vehicle and time slot (the period cut into the
equal slots of the charge chart; about 5,000 groups for any length of period):
- charge line: per slot the lowest and the highest sample at their times (as ISO 8601
  text made by DuckDB: 15,000 Python datetimes would cost more than the whole query);
- health line: per slot the mean SoH of the samples that report one;
- health fit: per slot the centred least-squares moments (``regr_avgx`` ... ``regr_sxy``,
  numerically stable, samples without SoH left out), which combine exactly (Chan et al.)
  into the least-squares line of all the vehicle's samples in the period;
- latest SoH: read afterwards, from the earliest of the vehicles' last slots with one on;
- samples under 20 %: where the slot's lowest charge is under 20 %.
The previous period draws no line: its samples are grouped by vehicle only
(``scan_previous``). Then ``add_below_low``: only vehicles with samples under 20 % pay for
the time below 20 % (the step to the next sample needs a window over the samples in
order), and only from their first low slot to their last one.
"""

from datetime import timedelta
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.battery_slots import (
    LOW_CHARGE,
    MICROS,
    ChargeSlot,
    HealthLine,
    SampleFigures,
    SlotGrid,
)
from fleetscope.analytics.fact_rows import (
    CURRENT,
    PREVIOUS,
    Selection,
    SiteSlice,
    rows_in_periods,
)
from fleetscope.analytics.periods import Window
from fleetscope.facts.rawlog import from_micros, to_micros

_SAMPLE_COLUMNS = "f.vehicle_id, epoch_us(f.sampled_at) AS t, f.charge, f.health"
_SAMPLE_COLUMNS_AT = f"{_SAMPLE_COLUMNS}, f.sampled_at"
# The period query's columns that make a ``ChargeSlot``, in its field order.
_SLOT_COLUMNS = ("slot", "low_at", "low", "high_at", "high", "mean_y")
# Instants of the lines: ISO 8601 in UTC to the millisecond (the facts' resolution), made by
# DuckDB's strftime from a zone-less TIMESTAMP of the epoch microseconds.
_ISO_FORMAT = "%Y-%m-%dT%H:%M:%S.%gZ"


def _fits(
    starts: npt.NDArray[np.intp], columns: dict[str, Any], origin_s: float
) -> list[HealthLine | None]:
    """The least-squares line of each vehicle (rows ``starts[i]`` up to the next start) from
    its slots' centred moments: n = sum n_i, mean = sum n_i mean_i / n,
    Sxx = sum (Sxx_i + n_i (mean_x_i - mean_x)^2), Sxy likewise (exact, and a constant health
    gives a slope of exactly 0). Like ``regr_slope``: none below two samples or when they
    share one instant. x in seconds after ``origin_s``; the lines are over epoch seconds."""
    count = np.ma.filled(columns["count"], 0).astype(np.float64)
    mean_x = np.ma.filled(columns["mean_x"], 0.0)
    mean_y = np.ma.filled(columns["mean_y"], 0.0)
    total = np.add.reduceat(count, starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        vehicle_x = np.add.reduceat(count * mean_x, starts) / total
        vehicle_y = np.add.reduceat(count * mean_y, starts) / total
        lengths = np.diff(np.append(starts, len(count)))
        dx = mean_x - np.repeat(vehicle_x, lengths)
        dy = mean_y - np.repeat(vehicle_y, lengths)
        sxx = np.add.reduceat(np.ma.filled(columns["sxx"], 0.0) + count * dx * dx, starts)
        sxy = np.add.reduceat(np.ma.filled(columns["sxy"], 0.0) + count * dx * dy, starts)
        slopes = sxy / sxx
    lines: list[HealthLine | None] = []
    for n, x, y, spread, slope in zip(
        total.tolist(),
        vehicle_x.tolist(),
        vehicle_y.tolist(),
        sxx.tolist(),
        slopes.tolist(),
        strict=True,
    ):
        fitted = n >= 2 and spread > 0
        lines.append(HealthLine(slope, y - slope * (x + origin_s)) if fitted else None)
    return lines


def _bucket(selection: Selection, bucket: int) -> Selection:
    return Selection(
        [
            SiteSlice(part.vehicle_ids, [w for w in part.windows if w[1] == bucket])
            for part in selection.slices
        ]
    )


def scan_period(
    cursor: duckdb.DuckDBPyConnection, selection: Selection, *, grid: SlotGrid
) -> dict[tuple[int, int], SampleFigures]:
    """Per vehicle with samples in the period (bucket CURRENT of ``selection``): slots of
    ``grid``, health line and latest health, samples under 20 %."""
    selection = _bucket(selection, CURRENT)
    if selection.empty:
        return {}
    sql, parameters = rows_in_periods(
        selection, table="battery_samples", at="sampled_at", columns=_SAMPLE_COLUMNS
    )
    # One integer group key (vehicle, slot): one key column groups much faster than two.
    # Fetched column-wise: ``fetchall`` converts value by value and took longer than the
    # query for these 5,000 rows.
    columns = cursor.execute(
        f"SELECT key // ? AS vehicle_id, key % ? AS slot, "  # noqa: S608 - constants only
        f"strftime(make_timestamp(low_at), '{_ISO_FORMAT}') AS low_at, low, "
        f"strftime(make_timestamp(high_at), '{_ISO_FORMAT}') AS high_at, high, mean_y, "
        "count, mean_x, sxx, sxy FROM ("
        "SELECT key, arg_min(t, charge) AS low_at, min(charge) AS low, "
        "arg_max(t, charge) AS high_at, max(charge) AS high, regr_count(health, x) AS count, "
        "regr_avgx(health, x) AS mean_x, regr_avgy(health, x) AS mean_y, "
        "regr_sxx(health, x) AS sxx, regr_sxy(health, x) AS sxy "
        "FROM (SELECT vehicle_id::BIGINT * ? + (t - ?) // ? AS key, t, (t - ?) / 1e6 AS x, "
        f"charge, health FROM ({sql})) GROUP BY key) ORDER BY key",
        [
            grid.count,
            grid.count,
            grid.count,
            grid.start_us,
            grid.width_us,
            grid.start_us,
            *parameters,
        ],
    ).fetchnumpy()
    vehicles = columns["vehicle_id"]
    if len(vehicles) == 0:
        return {}
    slots = list(map(ChargeSlot, *(_values(columns[name]) for name in _SLOT_COLUMNS)))
    starts = np.flatnonzero(np.r_[True, vehicles[1:] != vehicles[:-1]])
    lines = _fits(starts, columns, grid.start_us / MICROS)
    lowest = np.minimum.reduceat(columns["low"], starts).tolist()
    # Each vehicle's last row (slot) with a health sample, -1 for none.
    with_health = ~np.ma.getmaskarray(columns["mean_y"])
    last_rows = np.maximum.reduceat(np.where(with_health, np.arange(len(vehicles)), -1), starts)
    ends = [*starts[1:].tolist(), len(vehicles)]
    result: dict[tuple[int, int], SampleFigures] = {}
    last_slots: dict[int, int] = {}
    for start, end, line, low, last in zip(
        starts.tolist(), ends, lines, lowest, last_rows.tolist(), strict=True
    ):
        vehicle_id = int(vehicles[start])
        result[(vehicle_id, CURRENT)] = SampleFigures(
            slots=slots[start:end], health_line=line, low_charge=low < LOW_CHARGE
        )
        if last >= 0:
            last_slots[vehicle_id] = slots[last].number
    _add_latest_health(cursor, selection, result, last_slots=last_slots, grid=grid)
    return result


def _add_latest_health(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    figures: dict[tuple[int, int], SampleFigures],
    *,
    last_slots: dict[int, int],
    grid: SlotGrid,
) -> None:
    """The latest SoH of each vehicle (an ``arg_max`` per slot in the period query cost a
    sixth of it). ``last_slots``: each vehicle's last slot with a SoH sample; its latest
    such sample lies there, so only T from the earliest of those slots on is read: T
    clipped, not a join on each vehicle's slot (that cost twice as much)."""
    if not last_slots:
        return
    since = from_micros(grid.start_of(min(last_slots.values())))
    clipped = Selection(
        [
            SiteSlice(
                [v for v in part.vehicle_ids if v in last_slots],
                [(Window(max(w.start, since), w.end), b) for w, b in part.windows if w.end > since],
            )
            for part in selection.slices
        ]
    )
    sql, parameters = rows_in_periods(
        clipped, table="battery_samples", at="sampled_at", columns=_SAMPLE_COLUMNS
    )
    rows = cursor.execute(
        f"SELECT vehicle_id, arg_max(health, t) FROM ({sql}) "  # noqa: S608 - constants only
        "WHERE health IS NOT NULL GROUP BY vehicle_id",
        parameters,
    ).fetchall()
    for vehicle_id, health in rows:
        figures[(int(vehicle_id), CURRENT)].health_latest = health


def _values(column: Any) -> list[Any]:
    """A column of ``fetchnumpy`` as Python values, None where NULL (masked)."""
    values: list[Any] = np.ma.asarray(column).tolist()
    return values


def scan_previous(
    cursor: duckdb.DuckDBPyConnection, selection: Selection
) -> dict[tuple[int, int], SampleFigures]:
    """Per vehicle with samples in the previous period (bucket PREVIOUS of ``selection``):
    health line and latest health, samples under 20 %."""
    selection = _bucket(selection, PREVIOUS)
    bounds = selection.bounds
    if selection.empty or bounds is None:
        return {}
    sql, parameters = rows_in_periods(
        selection, table="battery_samples", at="sampled_at", columns=_SAMPLE_COLUMNS
    )
    origin_us = to_micros(bounds.start)
    # The line from its moments: regr_intercept costs as much as all the rest together.
    rows = cursor.execute(
        "SELECT vehicle_id, regr_sxx(health, x), regr_sxy(health, x), regr_avgx(health, x), "  # noqa: S608 - constants only
        f"regr_avgy(health, x), arg_max(health, t), min(charge) < {LOW_CHARGE} "
        f"FROM (SELECT vehicle_id, t, (t - ?) / 1e6 AS x, charge, health FROM ({sql})) "
        "GROUP BY vehicle_id",
        [origin_us, *parameters],
    ).fetchall()
    result: dict[tuple[int, int], SampleFigures] = {}
    for vehicle_id, sxx, sxy, mean_x, mean_y, latest, low_charge in rows:
        line = None
        if sxx:  # like regr_slope: none below two samples or when they share one instant
            slope = sxy / sxx
            line = HealthLine(slope, mean_y - slope * (mean_x + origin_us / MICROS))
        result[(int(vehicle_id), PREVIOUS)] = SampleFigures(
            health_latest=latest, health_line=line, low_charge=low_charge
        )
    return result


def add_below_low(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    figures: dict[tuple[int, int], SampleFigures],
    *,
    grid: SlotGrid,
    offline_after: timedelta,
) -> None:
    """Time from each sample under 20 % to the next sample of its vehicle in the bucket,
    each step capped at ``offline_after`` (longer silence is no data, not time at low
    charge), for the vehicles that had such samples at all; ``figures`` of both buckets."""
    low = {key for key, item in figures.items() if item.low_charge}
    if not low:
        return
    cap_us = int(offline_after.total_seconds() * MICROS)
    # Only samples from the first low slot to the end of the last one plus the cap can be
    # a low sample or the next sample within the cap of one (the previous period: all).
    starts = [
        grid.start_of(slot.number)
        for key in low
        for slot in figures[key].slots
        if slot.low < LOW_CHARGE
    ]
    sql, parameters = rows_in_periods(
        selection.restricted_to({vehicle_id for vehicle_id, _ in low}),
        table="battery_samples",
        at="sampled_at",
        columns=_SAMPLE_COLUMNS_AT,
    )
    bounds = ""
    if all(bucket == CURRENT for _, bucket in low):
        # On the column itself, so that DuckDB skips row groups by their zone maps.
        bounds = "WHERE sampled_at >= ? AND sampled_at < ?"
        last = max(starts) + grid.width_us + cap_us
        parameters = [*parameters, from_micros(min(starts)), from_micros(last)]
    step = "least(coalesce(lead(t) OVER (PARTITION BY vehicle_id, bucket ORDER BY t) - t, ?), ?)"
    rows = cursor.execute(
        "SELECT vehicle_id, bucket, "  # noqa: S608 - constants only
        f"coalesce(sum(step) FILTER (WHERE charge < {LOW_CHARGE}), 0) "
        f"FROM (SELECT vehicle_id, bucket, charge, {step} AS step FROM ({sql}) {bounds}) "
        "GROUP BY ALL",
        [cap_us, cap_us, *parameters],
    ).fetchall()
    for vehicle_id, bucket, micros in rows:
        item = figures.get((int(vehicle_id), int(bucket)))
        if item is not None:
            item.below_low_seconds = float(micros) / MICROS
