"""Measures from the fact store for windows of T, each window tagged with a bucket.

Whole site-local days (T without a shift) are read from ``rollup_daily``, whole UTC hours
from ``rollup_hourly`` (see rollup_read.py), or for a fleet over exactly a site's vehicles
from the site's rollups (site_rollup_read.py); the partial pieces (window edges that are
not on a full hour, and the current hour up to now) exactly from the raw facts, clipped to
the piece, in one query over all fact tables (raw_pieces.py). The current hour up to now
is read from ``rollup_hourly`` too, and today up to now from ``rollup_daily``, when no
selected vehicle has a message after now (the rollups are written with the facts, so the
hour's and the day's rows hold exactly the facts so far). A vehicle's current state has no
closed interval yet: it is taken from ``live_status`` up to now (offline after
``offline_after`` of silence, as the derivation's clock would decide). With
``use_rollups=False`` every window is read from the raw facts, which the benchmark uses as
the baseline. Every value goes in as a parameter; vehicle ids, hour ranges and pieces as
list parameters.
"""

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import duckdb

from fleetscope.analytics.measure_table import Key, MeasureTable
from fleetscope.analytics.periods import Window, midnight, split_hour_ranges
from fleetscope.analytics.raw_pieces import Tagged, add_raw_pieces
from fleetscope.analytics.rollup_grid import GRID_MEASURES, RollupHours
from fleetscope.analytics.rollup_read import (
    FLEET,
    read_daily,
    read_hourly,
    whole_days,
)
from fleetscope.analytics.site_rollup_read import (
    read_site_daily,
    read_site_hourly,
    site_rollup_usable,
)
from fleetscope.analytics.sql_time import utc_from_us
from fleetscope.facts.rawlog import from_micros

__all__ = [
    "FLEET",
    "CollectRequest",
    "Key",
    "Tagged",
    "VehicleStatus",
    "collect",
    "complete_until",
    "open_intervals",
    "vehicle_status",
]


LiveRow = tuple[int, str, datetime, datetime | None]  # vehicle, state, since, last message


@dataclass(frozen=True, slots=True)
class CollectRequest:
    vehicle_ids: list[int]
    windows: list[Tagged]  # disjoint
    by_vehicle: bool
    with_cycles: bool = True
    use_rollups: bool = True
    # The site's zone when T has whole local days (no shift): those come from rollup_daily.
    daily_zone: ZoneInfo | None = None
    # The site of all the vehicles: a fleet figure may read its site rollups.
    site_id: int | None = None
    # The measures needed (names of ``COLUMNS``): the vehicles' rollups read only these.
    only: frozenset[str] | None = None
    # The hourly rollups in memory, if kept: they serve requests of ``GRID_MEASURES`` only.
    hours: RollupHours | None = None


@dataclass(frozen=True, slots=True)
class VehicleStatus:
    live: list[LiveRow]  # the vehicles' rows of ``live_status``
    cut_in: frozenset[int]  # those whose daily rollups were cut at the zone's midnights


def collect(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    *,
    now: datetime,
    offline_after: timedelta,
    status: VehicleStatus | None = None,
) -> MeasureTable:
    """``status``: the ``vehicle_status`` of the request's vehicles in its daily zone, when
    the caller has read it."""
    result = MeasureTable()
    if not request.vehicle_ids or not request.windows:
        return result
    if status is None:
        status = vehicle_status(cursor, request.vehicle_ids, zone=request.daily_zone)
    live = status.live
    if not request.use_rollups:
        add_raw_pieces(
            cursor,
            by_vehicle=request.by_vehicle,
            vehicle_ids=request.vehicle_ids,
            pieces=request.windows,
            result=result,
        )
    elif not _from_grid(cursor, request, result, tail_until=complete_until(live, now=now)):
        zone = request.daily_zone
        site = _usable_site(cursor, request)
        if site is not None:
            parts = [(request.vehicle_ids, zone is not None)]
        else:
            daily = status.cut_in if zone else frozenset()
            parts = [
                ([v for v in request.vehicle_ids if v in daily], True),
                ([v for v in request.vehicle_ids if v not in daily], False),
            ]
        for vehicle_ids, use_days in parts:
            if vehicle_ids:
                _from_rollups(
                    cursor,
                    request,
                    vehicle_ids,
                    result,
                    use_days=use_days,
                    site=site,
                    tail_until=complete_until(live, now=now),
                )
    _open_states(live, request, result, now=now, offline_after=offline_after)
    return result


def _from_grid(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    result: MeasureTable,
    *,
    tail_until: datetime | None,
) -> bool:
    """The whole hours of the windows from the grid of hourly rollups and the rest from
    the raw facts, when the grid holds what the request needs; False: nothing read."""
    hours, only = request.hours, request.only
    if hours is None or request.with_cycles or only is None or not only <= GRID_MEASURES:
        return False
    windows: dict[int, list[Window]] = {}
    for tagged in sorted(request.windows, key=lambda tagged: tagged.window.start):
        windows.setdefault(tagged.bucket, []).append(tagged.window)
    ranges: dict[int, list[Window]] = {}
    pieces: list[Tagged] = []
    for bucket, bucket_windows in windows.items():
        split = split_hour_ranges(bucket_windows, tail_until=tail_until)
        ranges[bucket] = split.ranges
        pieces.extend(Tagged(piece, bucket) for piece in split.pieces)
    found = hours.sums(
        cursor, request.vehicle_ids, ranges, by_vehicle=request.by_vehicle, only=only
    )
    if found is None:
        return False
    for vehicles, buckets, values in found:
        result.add_rows(vehicles=vehicles, buckets=buckets, values=values)
    if pieces:
        add_raw_pieces(
            cursor,
            by_vehicle=request.by_vehicle,
            vehicle_ids=request.vehicle_ids,
            pieces=pieces,
            result=result,
        )
    return True


def _usable_site(cursor: duckdb.DuckDBPyConnection, request: CollectRequest) -> int | None:
    """The site whose rollups a fleet figure can read instead of the vehicles' own (see
    ``site_rollup_usable``; with whole days, every vehicle's days cut in the site's zone)."""
    site = request.site_id
    if request.by_vehicle or site is None:
        return None
    zone = request.daily_zone
    usable = site_rollup_usable(
        cursor,
        site_id=site,
        vehicle_ids=request.vehicle_ids,
        days_cut_in=str(zone) if zone is not None else None,
    )
    return site if usable else None


def _end_of_day(instant: datetime, zone: ZoneInfo) -> datetime:
    """The local midnight that ends the day ``instant`` lies in."""
    return midnight(instant.astimezone(zone).date() + timedelta(days=1), zone)


def complete_until(live: Sequence[LiveRow], *, now: datetime) -> datetime | None:
    """``now`` when no vehicle of ``live`` (rows of ``live_status``) has a message after it:
    the rollups then hold every fact up to now. ``None`` for a ``now`` in the past."""
    return now if all(row[3] is None or row[3] <= now for row in live) else None


def vehicle_status(
    cursor: duckdb.DuckDBPyConnection, vehicle_ids: list[int], *, zone: ZoneInfo | None
) -> VehicleStatus:
    """(vehicle, state, since, last message) of ``live_status`` for ``vehicle_ids`` and,
    with a zone, the vehicles whose days were cut in it (``vehicle_zones``): in one
    statement, as every answer over whole days asks both (DuckDB takes ~0.4 ms a statement,
    however small, and more beside another reader)."""
    rows = cursor.execute(
        "SELECT vehicle_id, state, epoch_us(since), epoch_us(last_message_at) "
        "FROM live_status WHERE list_contains(?::INTEGER[], vehicle_id) "
        "UNION ALL SELECT vehicle_id, NULL, NULL, NULL FROM vehicle_zones "
        "WHERE list_contains(?::INTEGER[], vehicle_id) AND time_zone = ?",
        [vehicle_ids, vehicle_ids if zone is not None else [], str(zone)],
    ).fetchall()
    return VehicleStatus(
        live=[
            (int(v), str(state), from_micros(since), utc_from_us(last))
            for v, state, since, last in rows
            if state is not None
        ],
        cut_in=frozenset(int(row[0]) for row in rows if row[1] is None),
    )


def _from_rollups(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    vehicle_ids: list[int],
    result: MeasureTable,
    *,
    use_days: bool,
    site: int | None,
    tail_until: datetime | None,
) -> None:
    """``tail_until``: now, when the hour up to now may be read as a whole rollup hour, and
    today up to now as a whole rollup day. ``site``: whose site rollups hold exactly the
    vehicles (``_usable_site``), read instead of theirs."""
    days: list[tuple[tuple[date, date], int]] = []
    ranges: list[tuple[Window, int]] = []
    pieces: list[Tagged] = []
    zone = request.daily_zone
    for tagged in request.windows:
        rest = [tagged.window]
        if use_days and zone is not None:
            window = tagged.window
            if tail_until is not None and window.end == tail_until:
                # Nothing is stored after now, so today's row holds today up to now.
                window = Window(window.start, _end_of_day(tail_until, zone))
            whole, rest = whole_days(window, zone)
            end = tagged.window.end
            rest = [Window(p.start, min(p.end, end)) for p in rest if p.start < end]
            if whole is not None:
                days.append((whole, tagged.bucket))
        split = split_hour_ranges(rest, tail_until=tail_until)
        ranges.extend((whole_hours, tagged.bucket) for whole_hours in split.ranges)
        pieces.extend(Tagged(piece, tagged.bucket) for piece in split.pieces)
    by_vehicle, with_cycles = request.by_vehicle, request.with_cycles
    if site is not None:
        if days:
            read_site_daily(cursor, site_id=site, days=days, with_cycles=with_cycles, result=result)
        if ranges:
            read_site_hourly(
                cursor, site_id=site, ranges=ranges, with_cycles=with_cycles, result=result
            )
    else:
        if days:
            read_daily(
                cursor,
                vehicle_ids=vehicle_ids,
                days=days,
                by_vehicle=by_vehicle,
                with_cycles=with_cycles,
                result=result,
                only=request.only,
            )
        if ranges:
            read_hourly(
                cursor,
                vehicle_ids=vehicle_ids,
                ranges=ranges,
                by_vehicle=by_vehicle,
                with_cycles=with_cycles,
                result=result,
                only=request.only,
            )
    if pieces:
        add_raw_pieces(
            cursor, by_vehicle=by_vehicle, vehicle_ids=vehicle_ids, pieces=pieces, result=result
        )


def open_intervals(
    *,
    state: str,
    since: datetime,
    last_message_at: datetime | None,
    now: datetime,
    offline_after: timedelta,
) -> list[tuple[str, datetime, datetime]]:
    """The not yet closed state of a vehicle up to ``now``, as (state, start, end).

    A vehicle silent for longer than ``offline_after`` is offline from its last message
    plus ``offline_after`` (what the derivation's next clock tick will record).
    """
    if now <= since:
        return []
    if state != "offline" and last_message_at is not None:
        silent_from = max(last_message_at + offline_after, since)
        if now > silent_from:
            intervals = [(state, since, silent_from)] if silent_from > since else []
            return [*intervals, ("offline", silent_from, now)]
    return [(state, since, now)]


def _open_states(
    live: Sequence[LiveRow],
    request: CollectRequest,
    result: MeasureTable,
    *,
    now: datetime,
    offline_after: timedelta,
) -> None:
    windows = sorted(request.windows, key=lambda tagged: tagged.window.start)
    ends = [tagged.window.end for tagged in windows]
    for vehicle_id, state, since, last_message_at in live:
        key_vehicle = int(vehicle_id) if request.by_vehicle else FLEET
        for open_state, start, end in open_intervals(
            state=str(state),
            since=since,
            last_message_at=last_message_at,
            now=now,
            offline_after=offline_after,
        ):
            # Windows are disjoint and sorted: start at the first one ending after ``start``.
            index = bisect.bisect_right(ends, start)
            while index < len(windows) and windows[index].window.start < end:
                tagged = windows[index]
                overlap = min(end, tagged.window.end) - max(start, tagged.window.start)
                if overlap > timedelta(0):
                    result.add(
                        (key_vehicle, tagged.bucket), f"{open_state}_s", overlap.total_seconds()
                    )
                index += 1
