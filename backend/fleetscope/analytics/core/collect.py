"""Measures from the fact store for windows of T, each window tagged with a bucket.

Whole site-local days (T without a shift) come from ``rollup_daily``, whole UTC hours from
``rollup_hourly``, or, for a fleet that is exactly a site's vehicles, from the site's rollups;
the pieces off the full hour exactly from the raw facts (``raw_pieces``). The rollups are
written with the facts, so when no vehicle has a message after now the current hour's and
today's rows hold exactly the facts so far and are read as whole. State time no rollup row
holds (the open state, long offline spans) comes from ``vehicle_status``. ``use_rollups=False``
reads everything raw: the benchmark's baseline and the tests' reference.
"""

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import duckdb

from fleetscope.analytics.core.measure_table import MeasureTable
from fleetscope.analytics.core.periods import Window, midnight, split_hour_ranges
from fleetscope.analytics.core.raw_pieces import Tagged, add_raw_pieces
from fleetscope.analytics.core.rollups import (
    FLEET,
    read_daily,
    read_hourly,
    whole_days,
)
from fleetscope.analytics.core.site_rollups import (
    read_site_daily,
    read_site_hourly,
    site_rollup_usable,
)
from fleetscope.analytics.core.vehicle_status import (
    VehicleStatus,
    add_state_time,
    complete_until,
    open_intervals,
    open_states,
    period_of,
    vehicle_status,
)

__all__ = ["FLEET", "Tagged", "open_intervals"]


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
        status = vehicle_status(
            cursor,
            request.vehicle_ids,
            zone=request.daily_zone,
            within=period_of(request.windows),
        )
    live = status.live
    by_vehicle, spans = request.by_vehicle, status.offline_spans
    if not request.use_rollups:
        add_raw_pieces(
            cursor,
            by_vehicle=request.by_vehicle,
            vehicle_ids=request.vehicle_ids,
            pieces=request.windows,
            result=result,
        )
    else:
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
                rolled = _from_rollups(
                    cursor,
                    request,
                    vehicle_ids,
                    result,
                    use_days=use_days,
                    site=site,
                    tail_until=complete_until(live, now=now),
                )
                chosen = set(vehicle_ids)
                add_state_time(
                    (span for span in spans if span[0] in chosen),
                    rolled,
                    by_vehicle=by_vehicle,
                    result=result,
                )
    add_state_time(
        open_states(live, now=now, offline_after=offline_after),
        request.windows,
        by_vehicle=by_vehicle,
        result=result,
    )
    return result


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


def _from_rollups(
    cursor: duckdb.DuckDBPyConnection,
    request: CollectRequest,
    vehicle_ids: list[int],
    result: MeasureTable,
    *,
    use_days: bool,
    site: int | None,
    tail_until: datetime | None,
) -> list[Tagged]:
    """``tail_until``: now, when the hour up to now may be read as a whole rollup hour, and
    today up to now as a whole rollup day. ``site``: whose site rollups hold exactly the
    vehicles (``_usable_site``), read instead of theirs. Returns the windows read from
    rollup rows (days clipped to the window)."""
    days: list[tuple[tuple[date, date], int]] = []
    rolled: list[Tagged] = []
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
                day_end = min(midnight(whole[1] + timedelta(days=1), zone), end)
                rolled.append(Tagged(Window(midnight(whole[0], zone), day_end), tagged.bucket))
        split = split_hour_ranges(rest, tail_until=tail_until)
        ranges.extend((whole_hours, tagged.bucket) for whole_hours in split.ranges)
        rolled.extend(Tagged(whole_hours, tagged.bucket) for whole_hours in split.ranges)
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
    return rolled
