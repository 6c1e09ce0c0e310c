"""The battery samples of T for the battery page: lines, health fit, low charge.

Their measures per vehicle and time slot of the charge chart come from ``units`` (hourly
rows for the whole hours of T, samples for the rest), about 5,000 groups for any length of
period. Per vehicle and bucket:
- health fit: the slots' centred least-squares moments combine exactly (Chan et al.) into
  the least-squares line of all the vehicle's samples in the bucket;
- latest SoH: of the vehicle's last slot with one;
- time below 20 % and discharge (for equivalent full cycles): sums over the slots.
The period's slots also give the charge and health lines; the previous period is one slot,
in the same query.
"""

from datetime import timedelta
from typing import NamedTuple

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.battery.series import (
    MICROS,
    ChargeLines,
    HealthLine,
    SampleFigures,
    SlotGrid,
)
from fleetscope.analytics.battery.units import Units, slot_columns
from fleetscope.analytics.core.facts import CURRENT, PREVIOUS, Selection, SiteSlice


def _fits(starts: npt.NDArray[np.intp], c: Units, grid: SlotGrid) -> list[HealthLine | None]:
    """The least-squares line of each vehicle (rows ``starts[i]`` up to the next start):
    per slot n, mean and centred Sxx, Sxy; over the slots n = sum n_i, mean = sum n_i
    mean_i / n, Sxx = sum (Sxx_i + n_i (mean_x_i - mean_x)^2), Sxy likewise (exact, and a
    constant health gives a slope of exactly 0). Like ``regr_slope``: none below two
    samples or when they share one instant. Lines over epoch seconds."""
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
    starts = np.flatnonzero(np.r_[True, vehicles[1:] != vehicles[:-1]])
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
    """Per vehicle and bucket with samples: health line, latest health, time below 20 %
    and discharge; and the period's lines (bucket CURRENT in the slots of ``grid``)."""
    buckets = [
        Selection(
            [
                SiteSlice(part.vehicle_ids, [w for w in part.windows if w[1] == bucket])
                for part in selection.slices
            ]
        )
        for bucket in (CURRENT, PREVIOUS)
    ]
    parts = [(buckets[CURRENT], grid)]
    if not buckets[PREVIOUS].empty and (bounds := buckets[PREVIOUS].bounds) is not None:
        parts.append((buckets[PREVIOUS], SlotGrid.covering(bounds)))
    figures: dict[tuple[int, int], SampleFigures] = {}
    lines = None
    for bucket, part, c in zip(
        (CURRENT, PREVIOUS),
        parts,
        slot_columns(cursor, parts, offline_after=offline_after, use_hours=use_hours),
        strict=False,
    ):
        if c is None:
            continue
        figures |= _figures(c, part[1], bucket)
        if bucket == CURRENT:
            with np.errstate(invalid="ignore", divide="ignore"):
                health = np.where(c["health_n"] > 0, c["health_y"] / c["health_n"], np.nan)
            lines = ChargeLines(
                c["vehicle_id"], c["slot"], c["low_at"], c["low"], c["high_at"], c["high"], health
            )
    return Scanned(figures, lines)
