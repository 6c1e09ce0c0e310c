"""The battery samples of T for the battery page: lines, health fit, low charge.

The samples are most of the fact store (100 vehicles over a year: 5.3 M rows); their
measures per vehicle and time slot come from ``battery_units`` (hourly rows for the whole
hours of T, samples for the rest), about 5,000 groups for any length of period. The
period is cut into the slots of the charge chart:
- charge line: per slot the lowest and the highest sample at their times;
- health line: per slot the mean SoH of the samples that report one;
- health fit: per slot the centred least-squares moments, which combine exactly (Chan et
  al.) into the least-squares line of all the vehicle's samples in the period;
- latest SoH: of the vehicle's last slot with one;
- time below 20 %: each sample under 20 % counts until the vehicle's next sample, at most
  ``offline_after`` (longer silence is no data, not time at low charge); the derivation
  samples each crossing of 20 %, so this is exact to the report;
- discharge: the percentage points the charge fell inside the bucket (the samples'
  ``discharged``), for equivalent full cycles.
The previous period draws no line: it is one slot, in the same query (``scan``).
"""

from datetime import timedelta
from typing import NamedTuple

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.battery.slots import (
    MICROS,
    ChargeLines,
    HealthLine,
    SampleFigures,
    SlotGrid,
)
from fleetscope.analytics.battery.units import SlotColumns, SlotPart, slot_columns
from fleetscope.analytics.core.facts import (
    CURRENT,
    PREVIOUS,
    Selection,
    SiteSlice,
)


def _fits(
    starts: npt.NDArray[np.intp], columns: SlotColumns, grid: SlotGrid
) -> list[HealthLine | None]:
    """The least-squares line of each vehicle (rows ``starts[i]`` up to the next start) from
    its slots' sums: per slot n, mean and centred Sxx, Sxy, then over the slots
    n = sum n_i, mean = sum n_i mean_i / n, Sxx = sum (Sxx_i + n_i (mean_x_i - mean_x)^2),
    Sxy likewise (Chan et al.: exact, and a constant health gives a slope of exactly 0).
    Like ``regr_slope``: none below two samples or when they share one instant. x in
    seconds after the grid's start; the lines are over epoch seconds."""
    count = columns.health_n
    with np.errstate(invalid="ignore", divide="ignore"):
        slot_x = np.where(count > 0, columns.health_x / count, 0.0)  # after the slot's start
        slot_y = np.where(count > 0, columns.health_y / count, 0.0)
        slot_sxx = np.where(count > 0, columns.health_xx - columns.health_x * slot_x, 0.0)
        slot_sxy = np.where(count > 0, columns.health_xy - columns.health_x * slot_y, 0.0)
        mean_x = slot_x + columns.slot * (grid.width_us / MICROS)
        total = np.add.reduceat(count, starts)
        vehicle_x = np.add.reduceat(count * mean_x, starts) / total
        vehicle_y = np.add.reduceat(count * slot_y, starts) / total
        lengths = np.diff(np.append(starts, len(count)))
        dx = mean_x - np.repeat(vehicle_x, lengths)
        dy = slot_y - np.repeat(vehicle_y, lengths)
        sxx = np.add.reduceat(slot_sxx + count * dx * dx, starts)
        sxy = np.add.reduceat(slot_sxy + count * dx * dy, starts)
        slopes = sxy / sxx
    origin_s = grid.start_us / MICROS
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


def _figures(
    columns: SlotColumns, grid: SlotGrid, bucket: int
) -> dict[tuple[int, int], SampleFigures]:
    """Per vehicle of ``columns``: health line, latest health, time below 20 %."""
    vehicles = columns.vehicle_id
    starts = np.flatnonzero(np.r_[True, vehicles[1:] != vehicles[:-1]])
    lines = _fits(starts, columns, grid)
    below_low = np.add.reduceat(columns.low_s, starts).tolist()
    discharged = np.add.reduceat(columns.discharged, starts).tolist()
    with_health = columns.health_n > 0
    # Each vehicle's last row (slot) with a health sample, -1 for none.
    last_rows = np.maximum.reduceat(np.where(with_health, np.arange(len(vehicles)), -1), starts)
    result: dict[tuple[int, int], SampleFigures] = {}
    for start, line, low_s, fallen, last in zip(
        starts.tolist(), lines, below_low, discharged, last_rows.tolist(), strict=True
    ):
        result[(int(vehicles[start]), bucket)] = SampleFigures(
            health_line=line,
            health_latest=columns.health_last[last] if last >= 0 else None,
            below_low_seconds=low_s,
            discharged=fallen,
        )
    return result


def _lines(columns: SlotColumns) -> ChargeLines:
    with np.errstate(invalid="ignore", divide="ignore"):
        health = np.where(columns.health_n > 0, columns.health_y / columns.health_n, np.nan)
    return ChargeLines(
        vehicle_id=columns.vehicle_id,
        slot=columns.slot,
        low_at=columns.low_at,
        low=columns.low,
        high_at=columns.high_at,
        high=columns.high,
        health=health,
    )


class Scanned(NamedTuple):
    figures: dict[tuple[int, int], SampleFigures]  # per vehicle and bucket with samples
    lines: ChargeLines | None  # the period's slots; None: no samples in it


def scan(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    *,
    grid: SlotGrid,
    offline_after: timedelta,
    use_hours: bool = True,
) -> Scanned:
    """Per vehicle and bucket with samples: health line, latest health and time below
    20 %; and the period's lines (bucket CURRENT of ``selection``, in the slots of
    ``grid``); the previous period is one slot."""
    parts = [SlotPart(_bucket(selection, CURRENT), grid)]
    previous = _bucket(selection, PREVIOUS)
    bounds = previous.bounds
    if not previous.empty and bounds is not None:
        parts.append(SlotPart(previous, SlotGrid.covering(bounds)))
    figures: dict[tuple[int, int], SampleFigures] = {}
    lines = None
    for bucket, part, columns in zip(
        (CURRENT, PREVIOUS),
        parts,
        slot_columns(cursor, parts, offline_after=offline_after, use_hours=use_hours),
        strict=False,
    ):
        if columns is not None:
            figures |= _figures(columns, part.grid, bucket)
            if bucket == CURRENT:
                lines = _lines(columns)
    return Scanned(figures, lines)
