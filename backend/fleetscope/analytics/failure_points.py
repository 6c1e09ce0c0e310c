"""The failure map's error positions from the episodes held in memory (``appended_rows``):
bounds, density cells and the newest points of each map in NumPy, as the map's SQL
(``failure_grid.binned``, ``failure_map.newest_points``) finds them.

Over 30 night shifts of 100 vehicles the two scans and the top-N of the SQL cost about
20 ms, most of the failure map's answer; the held rows of T are found by binary search and
counted here in about 2 ms. Only positioned episodes are held (a year of 100 vehicles:
about 220,000 rows), as only they are drawn.
"""

import numpy as np
import numpy.typing as npt

from fleetscope.analytics.appended_rows import RowSource
from fleetscope.analytics.fact_arrays import Arrays, Ints
from fleetscope.analytics.failure_grid import Bounds, GridSpec
from fleetscope.analytics.failures import ErrorFilter

ERROR_POSITIONS = RowSource(
    table="error_episodes",
    at="start_at",
    columns=(
        "f.vehicle_id, f.error_type, upper(f.level) AS level, f.description, "
        "epoch_us(f.start_at) AS start_us, f.x, f.y, f.map_id"
    ),
    where="f.x IS NOT NULL AND f.y IS NOT NULL",
)
# A point as the map's SQL returns it: vehicle id, error type, level, description, start
# (epoch microseconds), x, y, map id.
PointRow = tuple[int, str, str, str, int, float, float, str]


def filtered(rows: Arrays, errors: ErrorFilter) -> Arrays:
    """The rows of ``errors``' type and level."""
    keep = errors.mask(error_types=rows["error_type"], levels=rows["level"])
    return rows if keep.all() else {name: values[keep] for name, values in rows.items()}


Groups = dict[str, npt.NDArray[np.intp]]  # the rows of each map, maps in order


def by_map(rows: Arrays) -> Groups:
    """The rows of each map. A hall has one map or a few: a comparison per map costs a
    fraction of sorting the maps' names (``np.unique`` of 220,000 names: 140 ms)."""
    map_ids = rows["map_id"]
    maps = sorted(set(map_ids.tolist()))
    if len(maps) == 1:
        return {str(maps[0]): np.arange(len(map_ids))}
    return {str(m): np.flatnonzero(map_ids == m) for m in maps}


def extents(rows: Arrays, groups: Groups) -> dict[str, tuple[Bounds, int]]:
    """The bounds and the number of the rows of each map."""
    x, y = rows["x"], rows["y"]
    found = {}
    for map_id, members in groups.items():
        xs, ys = x[members], y[members]
        box = Bounds(
            min_x=float(xs.min()),
            min_y=float(ys.min()),
            max_x=float(xs.max()),
            max_y=float(ys.max()),
        )
        found[map_id] = (box, len(members))
    return found


def _index(values: npt.NDArray[np.float64], origin: float, size: float, count: int) -> Ints:
    """As the SQL's ``least(greatest(floor((v - origin) / size), 0), count - 1)``."""
    return np.clip(np.floor((values - origin) / size), 0, count - 1).astype(np.int64)


def cells(rows: Arrays, groups: Groups, specs: dict[str, GridSpec]) -> dict[str, list[list[int]]]:
    """``[column, row, count]`` of the rows of each map in ``specs`` on its grid, ordered by
    row, then column (as ``failure_grid.binned``)."""
    found = {}
    for map_id, spec in specs.items():
        members = groups.get(map_id)
        if members is None:
            continue
        column = _index(rows["x"][members], spec.bounds.min_x, spec.size, spec.columns)
        row = _index(rows["y"][members], spec.bounds.min_y, spec.size, spec.rows)
        keys, counts = np.unique(row * spec.columns + column, return_counts=True)
        found[map_id] = [
            [key % spec.columns, key // spec.columns, count]
            for key, count in zip(keys.tolist(), counts.tolist(), strict=True)
        ]
    return found


def _newest_of(at_us: Ints, members: npt.NDArray[np.intp], limit: int) -> npt.NDArray[np.intp]:
    """The ``members`` at or after the instant of their ``limit``-th newest (ties kept):
    a partition, where sorting a year of episodes cost tens of milliseconds."""
    if len(members) <= limit:
        return members
    at = at_us[members]
    threshold = np.partition(at, len(at) - limit)[len(at) - limit]
    kept: npt.NDArray[np.intp] = members[at >= threshold]
    return kept


def newest_rows(rows: Arrays, groups: Groups, limit: int) -> list[PointRow]:
    """The newest ``limit`` rows of each map (ties by vehicle id, then error type), all of
    them oldest first, as ``failure_map.newest_points``."""
    at_us, vehicles = rows["start_us"], rows["vehicle_id"]
    per_map = [_newest_of(at_us, members, limit) for members in groups.values()]
    if not per_map:
        return []
    candidates = np.concatenate(per_map)
    # Error types ranked in code-point order, DuckDB's (byte) order of UTF-8 text.
    ranks = np.unique(rows["error_type"][candidates], return_inverse=True)[1]
    chosen, chosen_ranks = [], []
    offset = 0
    for members in per_map:
        rank = ranks[offset : offset + len(members)]
        offset += len(members)
        newest_first = np.lexsort((rank, vehicles[members], -at_us[members]))[:limit]
        chosen.append(members[newest_first])
        chosen_ranks.append(rank[newest_first])
    kept, rank = np.concatenate(chosen), np.concatenate(chosen_ranks)
    kept = kept[np.lexsort((rank, vehicles[kept], at_us[kept]))]
    return list(
        zip(
            vehicles[kept].tolist(),
            rows["error_type"][kept].tolist(),
            rows["level"][kept].tolist(),
            rows["description"][kept].tolist(),
            at_us[kept].tolist(),
            rows["x"][kept].tolist(),
            rows["y"][kept].tolist(),
            rows["map_id"][kept].tolist(),
            strict=True,
        )
    )
