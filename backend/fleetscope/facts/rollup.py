"""Daily (site-local) and hourly (UTC) per-vehicle rollups, folded from facts as they arrive.

Long periods then read a few rows per vehicle and day instead of raw samples. Intervals are
split at local midnight (daily) and at full UTC hours (hourly); an order counts where it ends,
an error episode or charge session where it starts, samples and track points where they lie.
Every measure is additive (sum, count, min or max), so rollups of several batches merge with
an upsert; the cycle-time histogram is one count column per fixed bucket (``cycle_b00`` ...),
which DuckDB sums column-wise far faster than the elements of an array column. An offline
interval longer than ``rollup_spans.LONG_OFFLINE`` is not split: it is kept whole in
``rollup_offline_spans`` (``spans``), so that a gap of years costs one row, not one per hour.
"""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from fleetscope.derive.actions import LOAD_HANDLING_TYPES
from fleetscope.facts import rollup_spans
from fleetscope.facts.model import (
    ActionRecord,
    BatterySample,
    ChargeSession,
    ErrorEpisode,
    Fact,
    OrderOutcome,
    OrderRun,
    StateInterval,
    TrackPoint,
    VehicleState,
)

MeasureKind = Literal["sum", "count", "min", "max"]

# Order cycle-time histogram: bucket 0 is [0, 5 s); bucket i >= 1 starts at 5 s * 2^((i-1)/4),
# so each bucket is 19 % wider than the previous one (percentile error under 10 %) and the
# last one is open above about 4 hours. Fixed edges make histograms of any period addable.
CYCLE_BUCKET_COUNT = 48
CYCLE_BUCKET_BASE_S = 5.0
_BUCKETS_PER_DOUBLING = 4
CYCLE_BUCKET_COLUMNS = tuple(f"cycle_b{index:02d}" for index in range(CYCLE_BUCKET_COUNT))


# Finished actions of these types (any case) count as loads handled (the derivation's
# definition, lower case).
LOAD_HANDLING_ACTIONS = LOAD_HANDLING_TYPES
# The time-weighted mean charge (product.md section 3): ``battery_samples`` sums the
# microseconds the reported charges held (``BatterySample.held_s``, whole microseconds: the
# same in SQL), ``battery_charge_sum`` the charge integrated over them in percent-seconds;
# both count where the hold starts (``held_start``); the minimum is the sample's charge where
# it lies and its hold's lowest (``held_low``) where the hold starts.
MICROS = 1_000_000


def held_start(sample: BatterySample) -> datetime:
    """Where a sample's hold counts: its instant less the time held (the previous sample's
    instant, unless the vehicle was offline in between)."""
    return sample.at - timedelta(microseconds=round(sample.held_s * MICROS))


# ``held_start`` in SQL (columns of ``battery_samples``), to the same microsecond.
HELD_START_SQL = f"sampled_at - to_microseconds(round(held_s * {MICROS})::BIGINT)"

MEASURES: tuple[tuple[str, MeasureKind], ...] = (
    *((f"{state.value}_s", "sum") for state in VehicleState),
    ("orders_finished", "count"),
    ("orders_failed", "count"),
    ("orders_cancelled", "count"),
    ("cycle_s_sum", "sum"),
    ("cycle_s_max", "max"),
    *((column, "count") for column in CYCLE_BUCKET_COLUMNS),
    ("errors_warning", "count"),
    ("errors_urgent", "count"),
    ("errors_critical", "count"),
    ("errors_fatal", "count"),
    ("stop_errors", "count"),
    ("stop_error_s", "sum"),
    ("distance_m", "sum"),
    ("loads_handled", "count"),
    ("battery_samples", "count"),
    ("battery_charge_sum", "sum"),
    ("battery_charge_min", "min"),
    ("charge_sessions", "count"),
    ("charged_pct", "sum"),
    ("discharged_pct", "sum"),
)
MEASURE_NAMES = tuple(name for name, _ in MEASURES)
_INDEX = {name: i for i, name in enumerate(MEASURE_NAMES)}
_FIRST_CYCLE_BUCKET = _INDEX[CYCLE_BUCKET_COLUMNS[0]]
_STOP_LEVELS = frozenset({"CRITICAL", "FATAL"})


def cycle_bucket(seconds: float) -> int:
    """Index of the histogram bucket holding a cycle time."""
    if seconds < CYCLE_BUCKET_BASE_S:
        return 0
    index = 1 + math.floor(_BUCKETS_PER_DOUBLING * math.log2(seconds / CYCLE_BUCKET_BASE_S))
    return min(index, CYCLE_BUCKET_COUNT - 1)


def cycle_bucket_lower_bounds() -> list[float]:
    """Lower edge in seconds of every bucket (for percentile estimates in analytics)."""
    return [0.0] + [
        CYCLE_BUCKET_BASE_S * 2 ** ((i - 1) / _BUCKETS_PER_DOUBLING)
        for i in range(1, CYCLE_BUCKET_COUNT)
    ]


_EMPTY: tuple[Any, ...] = tuple(None if kind in ("min", "max") else 0 for _, kind in MEASURES)


def _empty() -> list[Any]:
    return list(_EMPTY)


def _hour_floor(moment: datetime) -> datetime:
    if moment.tzinfo is not UTC:
        moment = moment.astimezone(UTC)
    return moment.replace(minute=0, second=0, microsecond=0)


@dataclass(slots=True)
class _Window:
    start: datetime
    end: datetime
    rows: tuple[list[Any], list[Any]]  # daily, hourly


class RollupAccumulator:
    """Folds one batch of facts into rows for ``rollup_daily`` and ``rollup_hourly``."""

    def __init__(self, *, zone_of: Callable[[int], ZoneInfo]) -> None:
        self._zone_of = zone_of
        self.daily: dict[tuple[int, date], list[Any]] = {}
        self.hourly: dict[tuple[int, datetime], list[Any]] = {}
        self._current: dict[int, _Window] = {}
        # Long offline intervals, kept whole instead of split into rows (``rollup_spans``).
        self.spans: list[rollup_spans.Span] = []

    def add_all(self, facts: Iterable[Fact]) -> None:
        # Track points and battery samples are most facts: folded here without the generic
        # per-measure path (one row look-up per fact instead of one per measure).
        rows_for = self._rows_for
        distance = _INDEX["distance_m"]
        samples = _INDEX["battery_samples"]
        charge_sum = _INDEX["battery_charge_sum"]
        charge_min = _INDEX["battery_charge_min"]
        for fact in facts:
            if isinstance(fact, TrackPoint):
                if fact.distance_m:
                    for row in rows_for(fact.vehicle_id, fact.at):
                        row[distance] += fact.distance_m
            elif isinstance(fact, BatterySample):
                charge = fact.charge
                if fact.held_s:
                    held_us, held_low = round(fact.held_s * MICROS), fact.held_low
                    for row in rows_for(fact.vehicle_id, held_start(fact)):
                        row[samples] += held_us
                        row[charge_sum] += fact.held_charge_s
                        lowest = row[charge_min]
                        if held_low is not None and (lowest is None or held_low < lowest):
                            row[charge_min] = held_low
                for row in rows_for(fact.vehicle_id, fact.at):
                    lowest = row[charge_min]
                    if lowest is None or charge < lowest:
                        row[charge_min] = charge
            else:
                self.add(fact)

    def add(self, fact: Fact) -> None:
        if isinstance(fact, TrackPoint):
            if fact.distance_m:
                self._add(fact.vehicle_id, fact.at, "distance_m", fact.distance_m)
        elif isinstance(fact, StateInterval):
            self._add_interval(fact)
        elif isinstance(fact, BatterySample):
            if fact.held_s:
                start = held_start(fact)
                self._add(fact.vehicle_id, start, "battery_samples", round(fact.held_s * MICROS))
                self._add(fact.vehicle_id, start, "battery_charge_sum", fact.held_charge_s)
                if fact.held_low is not None:
                    self._extreme(fact.vehicle_id, start, "battery_charge_min", fact.held_low, min)
            self._extreme(fact.vehicle_id, fact.at, "battery_charge_min", fact.charge, min)
        elif isinstance(fact, OrderRun):
            self._add_order(fact)
        elif isinstance(fact, ErrorEpisode):
            self._add_error(fact)
        elif isinstance(fact, ActionRecord):
            # Load handling as the derivation marked it (the site's own types too); facts
            # made otherwise by VDA 5050's names.
            if fact.status == "FINISHED" and (
                fact.load_handling or fact.action_type.lower() in LOAD_HANDLING_TYPES
            ):
                self._add(fact.vehicle_id, fact.end, "loads_handled", 1)
        elif isinstance(fact, ChargeSession):
            self._add(fact.vehicle_id, fact.start, "charge_sessions", 1)
            added = max(0.0, fact.end_charge - fact.start_charge)
            discharged = max(0.0, fact.peak_before - fact.start_charge)
            self._add(fact.vehicle_id, fact.start, "charged_pct", added)
            self._add(fact.vehicle_id, fact.start, "discharged_pct", discharged)

    def daily_rows(self) -> list[tuple[Any, ...]]:
        return [(vehicle, day, *values) for (vehicle, day), values in self.daily.items()]

    def hourly_rows(self) -> list[tuple[Any, ...]]:
        return [(vehicle, hour, *values) for (vehicle, hour), values in self.hourly.items()]

    def _rows_for(self, vehicle_id: int, moment: datetime) -> tuple[list[Any], list[Any]]:
        """The daily and hourly rows ``moment`` falls into. Facts arrive nearly in time order,
        so the rows of each vehicle's last local day and UTC hour are kept at hand: a time
        zone conversion per fact would cost more than everything else here."""
        cached = self._current.get(vehicle_id)
        if cached is not None and cached.start <= moment < cached.end:
            return cached.rows
        zone = self._zone_of(vehicle_id)
        day = moment.astimezone(zone).date()
        day_start = datetime.combine(day, time(), tzinfo=zone).astimezone(UTC)
        day_end = datetime.combine(day + timedelta(days=1), time(), tzinfo=zone).astimezone(UTC)
        hour = _hour_floor(moment)
        daily = self.daily.get((vehicle_id, day))
        if daily is None:
            daily = self.daily[(vehicle_id, day)] = _empty()
        hourly = self.hourly.get((vehicle_id, hour))
        if hourly is None:
            hourly = self.hourly[(vehicle_id, hour)] = _empty()
        # The window where both rows apply (a local midnight may fall inside a UTC hour).
        start = max(day_start, hour)
        end = min(day_end, hour + timedelta(hours=1))
        rows = (daily, hourly)
        self._current[vehicle_id] = _Window(start, end, rows)
        return rows

    def _add(self, vehicle_id: int, moment: datetime, measure: str, amount: float) -> None:
        index = _INDEX[measure]
        for row in self._rows_for(vehicle_id, moment):
            row[index] += amount

    def _extreme(
        self,
        vehicle_id: int,
        moment: datetime,
        measure: str,
        value: float,
        pick: Callable[[float, float], float],
    ) -> None:
        index = _INDEX[measure]
        for row in self._rows_for(vehicle_id, moment):
            row[index] = value if row[index] is None else pick(row[index], value)

    def _add_order(self, order: OrderRun) -> None:
        self._add(order.vehicle_id, order.end, f"orders_{order.outcome.value}", 1)
        if order.outcome is not OrderOutcome.FINISHED:
            return
        cycle_s = (order.end - order.start).total_seconds()
        self._add(order.vehicle_id, order.end, "cycle_s_sum", cycle_s)
        self._extreme(order.vehicle_id, order.end, "cycle_s_max", cycle_s, max)
        column = _FIRST_CYCLE_BUCKET + cycle_bucket(cycle_s)
        for row in self._rows_for(order.vehicle_id, order.end):
            row[column] += 1

    def _add_error(self, episode: ErrorEpisode) -> None:
        level = episode.level.upper()
        measure = f"errors_{level.lower()}"
        if measure in _INDEX:
            self._add(episode.vehicle_id, episode.start, measure, 1)
        if level in _STOP_LEVELS:
            self._add(episode.vehicle_id, episode.start, "stop_errors", 1)
            duration = (episode.end - episode.start).total_seconds()
            self._add(episode.vehicle_id, episode.start, "stop_error_s", duration)

    def _add_interval(self, interval: StateInterval) -> None:
        if rollup_spans.is_spanned(interval):
            self.spans.append((interval.vehicle_id, interval.start, interval.end))
            return
        index = _INDEX[f"{interval.state.value}_s"]
        vehicle = interval.vehicle_id
        zone = self._zone_of(vehicle)
        cursor, end = interval.start, interval.end
        while cursor < end:
            local_day = cursor.astimezone(zone).date()
            midnight = datetime.combine(local_day + timedelta(days=1), time(), tzinfo=zone)
            piece_end = min(end, midnight.astimezone(UTC))
            row = self.daily.get((vehicle, local_day))
            if row is None:
                row = self.daily[(vehicle, local_day)] = _empty()
            row[index] += (piece_end - cursor).total_seconds()
            cursor = piece_end
        cursor = interval.start
        while cursor < end:
            hour = _hour_floor(cursor)
            piece_end = min(end, hour + timedelta(hours=1))
            row = self.hourly.get((vehicle, hour))
            if row is None:
                row = self.hourly[(vehicle, hour)] = _empty()
            row[index] += (piece_end - cursor).total_seconds()
            cursor = piece_end


def merge_statements(table: str, key_columns: tuple[str, ...], staging: str) -> tuple[str, str]:
    """Add a staged batch of rollup rows to the stored ones (constant names only).

    An UPDATE of the rows that exist, then an INSERT of the new ones. (The histogram used to
    be an ARRAY column, which DuckDB 2.0 corrupted in ``INSERT ... ON CONFLICT DO UPDATE``
    once the input spanned several vectors; this form is safe for any column type.)
    """
    target = "target_rollup"
    assignments = []
    for name, kind in MEASURES:
        old, new = f"{target}.{name}", f"staged.{name}"
        if kind == "min":
            expr = f"least({old}, {new})"
        elif kind == "max":
            expr = f"greatest({old}, {new})"
        else:
            expr = f"{old} + {new}"
        assignments.append(f"{name} = {expr}")
    matches = " AND ".join(f"{target}.{key} = staged.{key}" for key in key_columns)
    columns = ", ".join((*key_columns, *MEASURE_NAMES))
    update = (
        f"UPDATE {table} AS {target} SET {', '.join(assignments)} "  # noqa: S608 - constants
        f"FROM {staging} AS staged WHERE {matches}"
    )
    insert = (
        f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {staging} AS staged "  # noqa: S608
        f"WHERE NOT EXISTS (SELECT 1 FROM {table} AS {target} WHERE {matches})"
    )
    return update, insert
