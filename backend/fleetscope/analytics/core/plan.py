"""T of every selected site for a list of day spans (the period, the previous period, a
history's days, weeks or months), each a bucket, read by one ``collect`` per site."""

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

import duckdb
import numpy as np

from fleetscope.analytics.core.collect import (
    FLEET,
    CollectRequest,
    Tagged,
    collect,
    vehicle_status,
)
from fleetscope.analytics.core.comparison import period_instants, previous_until
from fleetscope.analytics.core.kpis import kpis_of_rows
from fleetscope.analytics.core.measure_table import Matrix, MeasureTable, total_of
from fleetscope.analytics.core.models import Kpis, PeriodOut
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup
from fleetscope.analytics.core.periods import (
    DaySpan,
    TimeCell,
    Window,
    merge_windows,
    period_windows,
)


@dataclass(frozen=True, slots=True)
class BucketSpan:
    bucket: int
    span: DaySpan
    # A bucket of the previous period of this span: clipped where the like-for-like
    # comparison clips it (``comparison.previous_until``), not at now.
    previous_of: DaySpan | None = None

    def until(self, group: SiteGroup, *, now: datetime) -> datetime:
        if self.previous_of is None:
            return now
        return previous_until(self.previous_of, zone=group.zone, now=now, shift=group.shift)


def period_spans(scope: AnalyticsScope, *, current: int, previous: int) -> list[BucketSpan]:
    """The period and its previous period (like for like) as two buckets."""
    return [
        BucketSpan(current, scope.span),
        BucketSpan(previous, scope.span.previous(), previous_of=scope.span),
    ]


@dataclass(slots=True)
class SiteWindows:
    group: SiteGroup
    windows: dict[int, list[Window]]  # bucket -> T of this site in that span

    def seconds(self, bucket: int) -> float:
        return sum(window.seconds for window in self.windows.get(bucket, ()))


@dataclass(slots=True)
class Collected:
    """Measures per (vehicle or 0, bucket) and the T of each site per bucket."""

    measures: MeasureTable
    sites: list[SiteWindows]
    # False: the measures were read for all selected vehicles as one (key ``FLEET``).
    by_vehicle: bool = True
    # Now, when the rollups hold every fact of the selected vehicles up to now
    # (``collect.VehicleStatus.complete``); None otherwise.
    tail_until: datetime | None = None

    def vehicle_seconds(self, bucket: int) -> dict[int, float]:
        """T of every selected vehicle in ``bucket``."""
        seconds: dict[int, float] = {}
        for site in self.sites:
            seconds |= dict.fromkeys(site.group.vehicle_ids, site.seconds(bucket))
        return seconds

    def fleet_seconds(self, bucket: int) -> float:
        """T of all selected vehicles together in ``bucket`` (vehicle seconds)."""
        return sum(site.seconds(bucket) * len(site.group.vehicle_ids) for site in self.sites)

    def calendar_seconds(self, *buckets: int) -> float:
        """Length of the union of the sites' T in ``buckets``: the fleet's calendar time (an
        hour two sites' days share, in different zones, counts once)."""
        windows = [w for site in self.sites for b in buckets for w in site.windows.get(b, ())]
        return sum(window.seconds for window in merge_windows(windows))

    def figures(self, bucket: int, vehicle_ids: Sequence[int]) -> tuple[Matrix, list[Kpis]]:
        """Measures and KPIs in ``bucket`` of each of ``vehicle_ids`` (none when read for the
        fleet only) and, last, of all together (throughput per calendar hour)."""
        ids = vehicle_ids if self.by_vehicle else []
        each = self.measures.rows([(v, bucket) for v in ids])
        together = total_of(each) if self.by_vehicle else self.measures.rows([(FLEET, bucket)])
        rows = np.vstack([each, together])
        seconds = self.vehicle_seconds(bucket)
        vehicles = kpis_of_rows(rows[:-1], period_s=np.array([seconds.get(v, 0.0) for v in ids]))
        fleet = kpis_of_rows(
            rows[-1:],
            period_s=np.array([self.fleet_seconds(bucket)]),
            calendar_s=np.array([self.calendar_seconds(bucket)]),
        )
        return rows, [*vehicles, *fleet]


def site_request(
    group: SiteGroup,
    windows: list[Tagged],
    *,
    by_vehicle: bool,
    use_rollups: bool = True,
    only: frozenset[str] | None = None,
) -> CollectRequest:
    """The collect of ``windows`` (tagged with buckets) of the selected vehicles of one site:
    whole local days from the daily rollups when T has no shift; a fleet figure may read the
    site's rollups."""
    return CollectRequest(
        vehicle_ids=group.vehicle_ids,
        windows=windows,
        by_vehicle=by_vehicle,
        use_rollups=use_rollups,
        daily_zone=group.zone if group.shift is None else None,
        site_id=group.site_id,
        only=only,
    )


def read_buckets(
    cursor: duckdb.DuckDBPyConnection,
    scope: AnalyticsScope,
    spans: Sequence[BucketSpan],
    *,
    by_vehicle: bool,
    now: datetime,
    offline_after: timedelta,
    use_rollups: bool = True,
    only: frozenset[str] | None = None,
    cell: TimeCell | None = None,
) -> Collected:
    """``only``: the measures the caller uses (names of ``measure_table.COLUMNS``); the
    others may come back as zero. ``cell``: T narrowed to a cell of the orders heatmap."""
    collected = Collected(measures=MeasureTable(), sites=[], by_vehicle=by_vehicle, tail_until=now)
    for group in scope.sites:
        windows: dict[int, list[Window]] = {}
        for item in [] if group.excluded else spans:
            until = item.until(group, now=now)
            own = period_windows(span=item.span, zone=group.zone, shift=group.shift, now=until)
            narrowed = own if cell is None else cell.narrow(own, zone=group.zone, shift=group.shift)
            windows[item.bucket] = narrowed
        collected.sites.append(SiteWindows(group=group, windows=windows))
        tagged = [Tagged(w, bucket) for bucket, ws in windows.items() for w in ws]
        request = site_request(
            group, tagged, by_vehicle=by_vehicle, use_rollups=use_rollups, only=only
        )
        status = vehicle_status(cursor, request) if tagged else None
        if status is not None and not status.complete(now):
            collected.tail_until = None
        found = collect(cursor, request, now=now, offline_after=offline_after, status=status)
        if len(collected.measures):
            collected.measures.merge(found)
        else:
            collected.measures = found  # one site (the usual case): no copy
    return collected


def period_out(scope: AnalyticsScope, *, now: datetime) -> PeriodOut:
    previous = scope.span.previous()
    return PeriodOut(
        from_=scope.span.first,
        to=scope.span.last,
        previous_from=previous.first,
        previous_to=previous.last,
        **asdict(period_instants(scope, now=now)),
        days=scope.span.days,
        shift=scope.shift_id,
        combined=scope.combined,
        vehicle_ids=scope.vehicle_ids,
    )
