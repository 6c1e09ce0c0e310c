"""State time no rollup row holds, added per window as an interval's overlap with it: a
vehicle's current state, not closed yet (from ``live_status`` up to now, offline after
``offline_after`` of silence as the derivation's clock will decide), and closed offline
intervals longer than ``facts.rollup_spans.LONG_OFFLINE``, which the rollups keep whole in
``rollup_offline_spans`` instead of a row per silent hour (raw reads take them from
``state_intervals``).
"""

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import duckdb

from fleetscope.analytics.core.measure_table import MeasureTable
from fleetscope.analytics.core.periods import Window
from fleetscope.analytics.core.raw_pieces import Tagged
from fleetscope.analytics.core.rollups import FLEET
from fleetscope.analytics.core.sql import utc_from_us
from fleetscope.facts import rollup_spans
from fleetscope.facts.rawlog import from_micros

LiveRow = tuple[int, str, datetime, datetime | None]  # vehicle, state, since, last message
StateTime = tuple[int, str, datetime, datetime]  # vehicle, state, start, end

_LIVE, _ZONE, _SPAN = 0, 1, 2


@dataclass(frozen=True, slots=True)
class VehicleStatus:
    live: list[LiveRow]  # the vehicles' rows of ``live_status``
    cut_in: frozenset[int]  # those whose daily rollups were cut at the zone's midnights
    # Their long offline intervals that overlap the period asked for (``rollup_spans``).
    offline_spans: tuple[StateTime, ...] = ()


def vehicle_status(
    cursor: duckdb.DuckDBPyConnection,
    vehicle_ids: list[int],
    *,
    zone: ZoneInfo | None,
    within: Window | None = None,
) -> VehicleStatus:
    """``live_status`` of ``vehicle_ids``; with ``zone``, those whose days were cut in it;
    with ``within``, their long offline intervals overlapping it. One statement, as every
    answer asks (DuckDB takes ~0.4 ms a statement, however small)."""
    lo, hi = (within.start, within.end) if within is not None else (None, None)
    rows = cursor.execute(
        f"SELECT {_LIVE}, vehicle_id, state, epoch_us(since), epoch_us(last_message_at) "  # noqa: S608 - constants only
        "FROM live_status WHERE list_contains(?::INTEGER[], vehicle_id) "
        f"UNION ALL SELECT {_ZONE}, vehicle_id, NULL, NULL, NULL FROM vehicle_zones "
        "WHERE list_contains(?::INTEGER[], vehicle_id) AND time_zone = ? "
        f"UNION ALL SELECT {_SPAN}, vehicle_id, 'offline', epoch_us(start_at), epoch_us(end_at) "
        f"FROM {rollup_spans.TABLE} WHERE list_contains(?::INTEGER[], vehicle_id) "
        "AND end_at > ? AND start_at < ?",
        [
            vehicle_ids,
            vehicle_ids if zone is not None else [],
            str(zone),
            vehicle_ids if within is not None else [],
            lo,
            hi,
        ],
    ).fetchall()
    return VehicleStatus(
        live=[
            (int(v), str(state), from_micros(since), utc_from_us(last))
            for kind, v, state, since, last in rows
            if kind == _LIVE
        ],
        cut_in=frozenset(int(row[1]) for row in rows if row[0] == _ZONE),
        offline_spans=tuple(
            (int(v), "offline", from_micros(start), from_micros(end))
            for kind, v, _, start, end in rows
            if kind == _SPAN
        ),
    )


def complete_until(live: Sequence[LiveRow], *, now: datetime) -> datetime | None:
    """``now`` when no vehicle of ``live`` has a message after it (the rollups then hold
    every fact up to now); ``None`` for a ``now`` in the past."""
    return now if all(row[3] is None or row[3] <= now for row in live) else None


def open_intervals(
    *,
    state: str,
    since: datetime,
    last_message_at: datetime | None,
    now: datetime,
    offline_after: timedelta,
) -> list[tuple[str, datetime, datetime]]:
    """The not yet closed state of a vehicle up to ``now`` as (state, start, end); after
    ``offline_after`` of silence it is offline (what the derivation's clock will record)."""
    if now <= since:
        return []
    if state != "offline" and last_message_at is not None:
        silent_from = max(last_message_at + offline_after, since)
        if now > silent_from:
            intervals = [(state, since, silent_from)] if silent_from > since else []
            return [*intervals, ("offline", silent_from, now)]
    return [(state, since, now)]


def open_states(
    live: Iterable[LiveRow], *, now: datetime, offline_after: timedelta
) -> list[StateTime]:
    """The vehicles' not yet closed states up to ``now`` (``open_intervals``)."""
    return [
        (int(vehicle_id), open_state, start, end)
        for vehicle_id, state, since, last_message_at in live
        for open_state, start, end in open_intervals(
            state=str(state),
            since=since,
            last_message_at=last_message_at,
            now=now,
            offline_after=offline_after,
        )
    ]


def add_state_time(
    intervals: Iterable[StateTime],
    windows: Iterable[Tagged],
    *,
    by_vehicle: bool,
    result: MeasureTable,
) -> None:
    """Add each interval's overlap with each of ``windows`` (disjoint) to its bucket."""
    ordered = sorted(windows, key=lambda tagged: tagged.window.start)
    ends = [tagged.window.end for tagged in ordered]
    for vehicle_id, state, start, end in intervals:
        key_vehicle = vehicle_id if by_vehicle else FLEET
        # Windows are disjoint and sorted: start at the first one ending after ``start``.
        index = bisect.bisect_right(ends, start)
        while index < len(ordered) and ordered[index].window.start < end:
            tagged = ordered[index]
            overlap = min(end, tagged.window.end) - max(start, tagged.window.start)
            if overlap > timedelta(0):
                result.add((key_vehicle, tagged.bucket), f"{state}_s", overlap.total_seconds())
            index += 1


def period_of(windows: Iterable[Tagged]) -> Window | None:
    """From the first window's start to the last one's end (None for none)."""
    spans = [tagged.window for tagged in windows]
    if not spans:
        return None
    return Window(min(w.start for w in spans), max(w.end for w in spans))
