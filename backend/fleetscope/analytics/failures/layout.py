"""The site layout of the failure map: the driven track, thinned to a grid, cached per store.

VDA 5050 has no layout drawing, so the layout is the track of the selected vehicles in the
last ``LAYOUT_DAYS`` days of T, binned on a grid of at most ``TRACK_CELLS`` cells on the
longer side of the track's own extent (each occupied cell once, with its number of points).

The layout of a hall barely changes, and drawing it reads a month of track points (about
300 k for 100 vehicles), so it is cached: T for the layout ends at the last full hour (the
minutes since then add nothing a month does not show), which keeps the key stable for an
hour, and every request checks the number and time range of the track points in that T
(one narrow scan of one column, a fraction of the drawing's cost), so track points added
to or removed from it redraw it; anything else is redrawn when the hour turns. Only when T
lies entirely in the current hour is the layout read up to now, uncached.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from weakref import WeakKeyDictionary

import duckdb

from fleetscope.analytics.core.facts import Selection, SiteSlice, rows_in_periods, select_periods
from fleetscope.analytics.core.params import AnalyticsScope
from fleetscope.analytics.core.periods import Window, hour_floor
from fleetscope.analytics.failures.grid import Bounds, Grid, GridSpec, binned
from fleetscope.facts.store import FactStore

TRACK_CELLS = 120
LAYOUT_DAYS = 30
# Layouts kept per fact store: a few selections (all vehicles, single vehicles, shifts);
# a map's layout has at most 120 x 120 cells (about 1.5 MB as Python lists, at worst).
CACHED_LAYOUTS = 16
REMEMBERED_MAPS = 256
_TRACK_COLUMNS = "f.x, f.y, f.map_id"


@dataclass(frozen=True, slots=True)
class MapTrack:
    bounds: Bounds
    grid: Grid


Layout = dict[str, MapTrack]  # by map id


def latest(selection: Selection, length: timedelta) -> Selection:
    """The part of ``selection`` in its last ``length`` of time."""
    bounds = selection.bounds
    if bounds is None:
        return selection
    start = bounds.end - length
    return Selection(
        [
            SiteSlice(
                part.vehicle_ids,
                [
                    (Window(max(window.start, start), window.end), bucket)
                    for window, bucket in part.windows
                    if window.end > start
                ],
            )
            for part in selection.slices
        ]
    )


def _draw(cursor: duckdb.DuckDBPyConnection, sql: str, parameters: list[Any]) -> Layout:
    found = binned(cursor, sql, parameters, {}).extents
    specs = {m: GridSpec.covering(bounds, TRACK_CELLS) for m, (bounds, _) in found.items()}
    cells = binned(cursor, sql, parameters, specs).cells
    return {m: MapTrack(spec.bounds, spec.grid(cells.get(m, []))) for m, spec in specs.items()}


def _key(selection: Selection) -> tuple[Any, ...]:
    return tuple(
        (tuple(part.vehicle_ids), tuple((w.start, w.end, b) for w, b in part.windows))
        for part in selection.slices
    )


class LayoutCache:
    """The latest layouts of one fact store by selection, with the track points' stamp; and
    the latest bounds of each map on the failure map, a first guess for its density grid."""

    def __init__(self, capacity: int = CACHED_LAYOUTS) -> None:
        self._capacity = capacity
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[Any, ...], tuple[tuple[Any, ...], Layout]] = OrderedDict()
        self._bounds: OrderedDict[str, Bounds] = OrderedDict()

    def bounds_hint(self, map_id: str) -> Bounds | None:
        with self._lock:
            return self._bounds.get(map_id)

    def remember_bounds(self, bounds: dict[str, Bounds]) -> None:
        with self._lock:
            for map_id, box in bounds.items():
                self._bounds[map_id] = box
                self._bounds.move_to_end(map_id)
            while len(self._bounds) > REMEMBERED_MAPS:
                self._bounds.popitem(last=False)

    def get(self, key: tuple[Any, ...], stamp: tuple[Any, ...]) -> Layout | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != stamp:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: tuple[Any, ...], stamp: tuple[Any, ...], layout: Layout) -> None:
        with self._lock:
            self._entries[key] = (stamp, layout)
            self._entries.move_to_end(key)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)


_CACHES: "WeakKeyDictionary[FactStore, LayoutCache]" = WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def layout_cache(store: FactStore) -> LayoutCache:
    """The layout cache of ``store``, made on first use (and gone with the store)."""
    with _CACHES_LOCK:
        cache = _CACHES.get(store)
        if cache is None:
            cache = _CACHES[store] = LayoutCache()
        return cache


def site_layout(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    *,
    now: datetime,
    cache: LayoutCache | None,
) -> Layout:
    """The track layout per map (see the module text)."""
    length = timedelta(days=LAYOUT_DAYS)
    selection = latest(select_periods(scope, now=hour_floor(now), previous=False), length)
    if selection.empty:
        selection, cache = latest(select_periods(scope, now=now, previous=False), length), None
    sql, parameters = rows_in_periods(
        selection, table="track_points", at="sampled_at", columns=_TRACK_COLUMNS
    )
    if cache is None:
        return _draw(cursor, sql, parameters)
    stamp = _stamp(cursor, selection)
    key = _key(selection)
    layout = cache.get(key, stamp)
    if layout is None:
        layout = _draw(cursor, sql, parameters)
        cache.put(key, stamp, layout)
    return layout


def _stamp(cursor: duckdb.DuckDBPyConnection, selection: Selection) -> tuple[Any, ...]:
    """Number and time range of the selected vehicles' track points from the first to the
    last instant of each site's T: a superset of the layout's points (any added or removed
    there changes it), read without the per-window test, at a quarter of the cost."""
    parts, parameters = [], []
    for part in selection.slices:
        if part.windows and part.vehicle_ids:
            parts.append(
                "SELECT count(*) AS n, min(epoch_us(sampled_at)) AS first_us, "
                "max(epoch_us(sampled_at)) AS last_us FROM track_points "
                "WHERE list_contains(?::INTEGER[], vehicle_id) AND sampled_at >= ? "
                "AND sampled_at < ?"
            )
            parameters += [
                part.vehicle_ids,
                min(window.start for window, _ in part.windows),
                max(window.end for window, _ in part.windows),
            ]
    if not parts:
        return ()
    row = cursor.execute(
        f"SELECT sum(n), min(first_us), max(last_us) FROM ({' UNION ALL '.join(parts)})",  # noqa: S608 - constants only
        parameters,
    ).fetchone()
    return () if row is None else tuple(row)
