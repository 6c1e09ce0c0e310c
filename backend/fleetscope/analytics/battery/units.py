"""The battery measures of T's buckets per vehicle and time slot.

The measures (``facts.battery_hours``) come in units, each a row of per-unit sums and
extremes that compose exactly into any set of units:
- whole UTC hours of T from ``battery_hourly``, when the slot grid is made of whole hours;
- the samples of the rest of T (window edges off the full hour, the current hour up to
  now; all of T on a grid of shorter slots) grouped by time slot, with the same aggregates.
One SQL query combines each slot's units: extremes with their instants (among equal ones
in different units, any one's), health moments moved from each unit's origin to the
slot's start (x + o: sum x + n o, sum x² + 2 o sum x + n o², sum x y + o sum y).
"""

from datetime import timedelta
from typing import Any

import duckdb
import numpy as np
import numpy.typing as npt

from fleetscope.analytics.battery.series import SlotGrid
from fleetscope.analytics.core.facts import Selection, SiteSlice, rows_in_periods
from fleetscope.analytics.core.periods import Window, merge_windows, split_hour_ranges
from fleetscope.analytics.core.rollups import HOURS_OF_RANGES, range_parameters
from fleetscope.facts.battery_hours import (
    MEASURE_COLUMNS,
    TABLE,
    cap_us,
    unit_aggregates,
    with_next,
)

Units = dict[str, npt.NDArray[Any]]
_UNIT_COLUMNS = ", ".join(MEASURE_COLUMNS)
# A slot's value where its aggregate is NULL (no samples of that kind): no extreme, no
# health samples, no latest health.
_SUMMED = ("health_n", "health_x", "health_y", "health_xx", "health_xy", "low_s", "discharged")
_EMPTY = {
    "low": np.inf,
    "low_at": np.inf,
    "high": -np.inf,
    "high_at": np.inf,
    "health_last_at": -np.inf,
    "health_last": np.nan,
} | dict.fromkeys(_SUMMED, 0.0)
_SAMPLE_COLUMNS = "f.vehicle_id, epoch_us(f.sampled_at) AS t, f.charge, f.health, f.discharged"


def _hour_rows(part: SiteSlice, parameters: list[Any]) -> tuple[str, list[Window]]:
    """The hourly rows of the whole hours of ``part``'s windows, and the rest as pieces."""
    split = split_hour_ranges(window for window, _ in part.windows)
    if not split.ranges:
        return "", split.pieces
    bounds = "r.hour_utc >= ? AND r.hour_utc < ? AND list_contains(?::INTEGER[], r.vehicle_id)"
    hours = f"{TABLE} r"
    if len(split.ranges) > 1:
        # Many ranges (a shift over a year): a hash join on the hours they expand to.
        hours = f"{TABLE} r JOIN {HOURS_OF_RANGES} sel ON r.hour_utc = sel.hour_utc"
        parameters += range_parameters([(window, 0) for window in split.ranges])
    parameters += [split.ranges[0].start, split.ranges[-1].end, part.vehicle_ids]
    sql = (
        f"SELECT r.vehicle_id, epoch_us(r.hour_utc) AS u, {_UNIT_COLUMNS} "  # noqa: S608 - constants only
        f"FROM {hours} WHERE {bounds}"
    )
    return sql, split.pieces


def _sample_units(samples: Selection, *, grid: SlotGrid, cap_us: int, parameters: list[Any]) -> str:
    """The samples of ``samples`` grouped by slot of ``grid``. Each sample's next one (the
    end of a step under 20 %) may lie outside them: it is looked up (ASOF join) among the
    samples of the same windows extended by the cap, beyond which a step is capped."""
    rows_sql, rows_parameters = rows_in_periods(
        samples, table="battery_samples", at="sampled_at", columns=_SAMPLE_COLUMNS
    )
    cap = timedelta(microseconds=cap_us)
    extended = Selection(
        [
            SiteSlice(
                part.vehicle_ids,
                [
                    (w, 0)
                    for w in merge_windows(Window(w.start, w.end + cap) for w, _ in part.windows)
                ],
            )
            for part in samples.slices
        ]
    )
    next_sql, next_parameters = rows_in_periods(
        extended, table="battery_samples", at="sampled_at", columns=_SAMPLE_COLUMNS
    )
    parameters += [grid.start_us, grid.start_us, grid.width_us, grid.width_us]
    parameters += [*rows_parameters, *next_parameters]
    slotted = (
        "SELECT vehicle_id, t, ? + (t - ?) // ? * ? AS u, charge, health, discharged "  # noqa: S608 - constants only
        f"FROM ({rows_sql})"
    )
    return (
        f"SELECT vehicle_id, u, {unit_aggregates(cap_us=cap_us)} FROM ("  # noqa: S608 - constants only
        "SELECT vehicle_id, u, t, (t - u) / 1e6 AS x, charge, health, discharged, next_t "
        f"FROM ({with_next(slotted, next_sql)})) GROUP BY vehicle_id, u"
    )


def slot_columns(
    cursor: duckdb.DuckDBPyConnection,
    parts: list[tuple[Selection, SlotGrid]],
    *,
    offline_after: timedelta,
    use_hours: bool,
) -> list[Units | None]:
    """The measures of each bucket of T (a selection cut into the slots of its grid) per
    vehicle and slot with samples, ascending (None: no samples), as arrays named as
    ``MEASURE_COLUMNS`` plus ``vehicle_id`` and ``slot`` (from 0 in the part's grid); health
    sums with x in seconds after the slot's start, instants in epoch microseconds.
    ``offline_after``: the cap of a step under 20 % (the hourly rows hold the writer's, the
    same setting). ``use_hours=False`` reads every sample (the reference in tests)."""
    cap = cap_us(offline_after)
    parameters: list[Any] = []
    units: list[str] = []
    offset = 0  # the parts' slots numbered one after the other
    for selection, grid in parts:
        sqls: list[str] = []
        raw: list[SiteSlice] = []
        part_parameters: list[Any] = []
        for part in selection.slices:
            if not (part.windows and part.vehicle_ids):
                continue
            if use_hours and grid.hour_aligned:
                sql, pieces = _hour_rows(part, part_parameters)
                sqls += [sql] if sql else []
                part = SiteSlice(part.vehicle_ids, [(piece, 0) for piece in pieces])
            raw.append(part)
        if not Selection(raw).empty:
            sqls.append(
                _sample_units(Selection(raw), grid=grid, cap_us=cap, parameters=part_parameters)
            )
        if sqls:
            start, width = grid.start_us, grid.width_us
            units.append(
                "SELECT *, ? + (u - ?) // ? AS slot, ? + (u - ?) // ? * ? AS slot_start "  # noqa: S608 - constants only
                f"FROM ({' UNION ALL '.join(f'({sql})' for sql in sqls)})"
            )
            parameters += [offset, start, width, start, start, width, width, *part_parameters]
        offset += grid.count
    if not units:
        return [None] * len(parts)
    # One integer group key (vehicle, slot): one key column groups much faster than two.
    # Fetched column-wise: ``fetchall`` converts value by value.
    found = cursor.execute(
        "SELECT key, min(low) AS low, arg_min(low_at, low) AS low_at, "  # noqa: S608 - constants only
        "max(high) AS high, arg_max(high_at, high) AS high_at, "
        "sum(health_n)::DOUBLE AS health_n, sum(health_x + health_n * o) AS health_x, "
        "sum(health_y) AS health_y, "
        "sum(health_xx + 2 * o * health_x + health_n * o * o) AS health_xx, "
        "sum(health_xy + o * health_y) AS health_xy, "
        "max(health_last_at) AS health_last_at, "
        "arg_max(health_last, health_last_at) AS health_last, sum(low_s) AS low_s, "
        "sum(discharged) AS discharged "
        f"FROM (SELECT vehicle_id::BIGINT * {offset} + slot AS key, *, "
        f"(u - slot_start) / 1e6 AS o FROM ({' UNION ALL '.join(units)})) "
        "GROUP BY key ORDER BY key",
        parameters,
    ).fetchnumpy()
    keys = np.asarray(found["key"], dtype=np.int64)
    measures: Units = {
        name: np.ma.filled(np.ma.asarray(found[name]).astype(np.float64), _EMPTY[name])
        for name in MEASURE_COLUMNS
    }
    columns: list[Units | None] = []
    first = 0
    for _, grid in parts:
        rows = (keys % offset >= first) & (keys % offset < first + grid.count)
        picked = {name: values[rows] for name, values in measures.items()}
        picked |= {"vehicle_id": keys[rows] // offset, "slot": keys[rows] % offset - first}
        columns.append(picked if rows.any() else None)
        first += grid.count
    return columns
