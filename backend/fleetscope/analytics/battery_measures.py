"""Battery units as arrays: the measures of ``facts.battery_hours`` per unit (an hour, a
time slot, or a part of one), and how units combine, in numpy.

A unit's measures are float arrays named as ``MEASURE_COLUMNS`` (instants in epoch
microseconds: below 2^53, so exact). An empty unit (no samples) has low +inf, high -inf,
no health samples and no latest health (instant -inf, value NaN), and combines as nothing.
Units combine like the SQL of ``battery_units``: sums add; the lowest and the highest
charge keep their instant (among equal extremes the earliest); the latest SoH is the one
at the latest instant (among samples at one instant the largest, as in ``unit_aggregates``).
"""

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from fleetscope.facts.battery_hours import MEASURE_COLUMNS

Floats = npt.NDArray[np.float64]
Keys = npt.NDArray[np.int64]
Units = dict[str, Floats]

SUMMED = ("health_n", "health_x", "health_y", "health_xx", "health_xy", "low_s", "discharged")
EMPTY = {
    "low": np.inf,
    "low_at": np.inf,
    "high": -np.inf,
    "high_at": np.inf,
    "health_last_at": -np.inf,
    "health_last": np.nan,
} | dict.fromkeys(SUMMED, 0.0)


def combine(units: Mapping[str, Floats], starts: npt.NDArray[np.intp]) -> Units:
    """The units from each of ``starts`` up to the next (along the last axis) as one."""
    lengths = np.diff(np.append(starts, units["low"].shape[-1]))

    def spread(values: Floats) -> Floats:  # each group's value on each of its units
        spread_values: Floats = np.repeat(values, lengths, axis=-1)
        return spread_values

    combined: Units = {name: np.add.reduceat(units[name], starts, axis=-1) for name in SUMMED}
    for extreme, at, reduce in (
        ("low", "low_at", np.minimum),
        ("high", "high_at", np.maximum),
    ):
        values = reduce.reduceat(units[extreme], starts, axis=-1)
        chosen = np.where(units[extreme] == spread(values), units[at], np.inf)
        combined[extreme] = values
        combined[at] = np.minimum.reduceat(chosen, starts, axis=-1)
    latest_at = np.maximum.reduceat(units["health_last_at"], starts, axis=-1)
    latest = np.where(units["health_last_at"] == spread(latest_at), units["health_last"], -np.inf)
    combined["health_last_at"] = latest_at
    # Nothing but empty units: -inf at -inf, so their NaN values win.
    combined["health_last"] = np.where(
        latest_at == -np.inf, np.nan, np.maximum.reduceat(latest, starts, axis=-1)
    )
    return combined


def moved(units: Mapping[str, Floats], offset_s: Floats) -> Units:
    """``units`` with their health moments' x moved by ``offset_s`` seconds (from each
    unit's own origin to its slot's start: sum x + n o, sum x² + 2 o sum x + n o²,
    sum x y + o sum y)."""
    n, x, y = units["health_n"], units["health_x"], units["health_y"]
    return dict(units) | {
        "health_x": x + n * offset_s,
        "health_xx": units["health_xx"] + offset_s * (2 * x + n * offset_s),
        "health_xy": units["health_xy"] + offset_s * y,
    }


def regrouped(keys: Keys, units: Mapping[str, Floats]) -> tuple[Keys, Units]:
    """Flat units with group ``keys``, one per key, ascending."""
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    ordered = {name: units[name][order] for name in MEASURE_COLUMNS}
    # No units (no samples in the period): no groups. ``np.r_[True, ...]`` would make one.
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if len(keys) else order
    if len(starts) == len(keys):  # one unit per key (whole hours only): nothing to combine
        return keys, ordered
    return keys[starts], combine(ordered, starts)


def concatenated(parts: list[tuple[Keys, Units]]) -> tuple[Keys, Units]:
    keys = np.concatenate([part_keys for part_keys, _ in parts])
    return keys, {
        name: np.concatenate([units[name] for _, units in parts]) for name in MEASURE_COLUMNS
    }


def filled(values: object, empty: float) -> Floats:
    """A fetched column as floats, ``empty`` where NULL (a masked array)."""
    masked = np.ma.asarray(values).astype(np.float64)
    result: Floats = np.ma.filled(masked, empty)
    return result
