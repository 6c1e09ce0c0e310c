"""The battery hold no sample carries yet (``live_status``; derive/battery.py): each
vehicle's reports since its last sample, the last report's charge holding on until now or
until silence turns offline. Its falls count where it starts, as a sample's do; its time
below 20 % in each window it overlaps (every report since the last sample lies on the same
side of 20 %: a crossing is sampled). The mean and minimum charge add the same hold
(``core.collect``)."""

from dataclasses import dataclass
from datetime import datetime, timedelta

import duckdb

from fleetscope.analytics.core.collect import INSTANT, by_start, overlaps
from fleetscope.analytics.core.facts import Selection
from fleetscope.analytics.core.raw_pieces import Tagged
from fleetscope.analytics.core.sql import utc_from_us
from fleetscope.derive.battery import LOW_CHARGE, open_hold_span


@dataclass(slots=True)
class OpenHold:
    fallen: float = 0.0  # percentage points
    below_low_seconds: float = 0.0


def open_holds(
    cursor: duckdb.DuckDBPyConnection,
    selection: Selection,
    *,
    now: datetime,
    offline_after: timedelta,
) -> dict[tuple[int, int], OpenHold]:
    """The open hold's figures per vehicle and bucket of ``selection``."""
    parts = selection.slices
    slice_of = {vehicle: index for index, part in enumerate(parts) for vehicle in part.vehicle_ids}
    rows = cursor.execute(
        "SELECT vehicle_id, epoch_us(held_until), held_s, held_discharged, charge, "
        "epoch_us(last_message_at) FROM live_status WHERE state <> 'offline' "
        "AND held_until IS NOT NULL AND (held_discharged > 0 OR charge < ?) "
        "AND list_contains(?::INTEGER[], vehicle_id)",
        [LOW_CHARGE, list(slice_of)],
    ).fetchall()
    result: dict[tuple[int, int], OpenHold] = {}
    windows: dict[int, tuple[list[Tagged], list[datetime]]] = {}  # per slice, as needed
    for vehicle, held_until_us, held_s, fallen, charge, last_us in rows:
        held_until, last = utc_from_us(held_until_us), utc_from_us(last_us)
        span = open_hold_span(held_until, held_s, last, now=now, offline_after=offline_after)
        if span is None:
            continue  # a moment before the stored hold: none of it known then
        index = slice_of[vehicle]
        if index not in windows:
            windows[index] = by_start(Tagged(w, bucket) for w, bucket in parts[index].windows)
        ordered, ends = windows[index]
        start, _, until = span
        for bucket, _ in overlaps(ordered, ends, start, start + INSTANT):
            result.setdefault((vehicle, bucket), OpenHold()).fallen += fallen
        if charge is not None and charge < LOW_CHARGE:
            for bucket, seconds in overlaps(ordered, ends, start, until):
                result.setdefault((vehicle, bucket), OpenHold()).below_low_seconds += seconds
    return result
