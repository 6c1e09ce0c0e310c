"""Like for like (product.md section 3, "Comparison"): where the previous period is clipped,
both periods' instants, which chart buckets are drawn. Wall-clock time, so that "this week so
far" means the same weekdays and hours on both sides; a rolling period: real time."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup
from fleetscope.analytics.core.periods import (
    DaySpan,
    Shift,
    Window,
    intersect,
    local_instant,
    midnight,
    period_end,
    period_windows,
)

_DAY = timedelta(days=1)
# "Not clipped": later than the end of any period.
_NEVER = datetime.max.replace(tzinfo=UTC)


def previous_until(
    span: DaySpan, *, zone: ZoneInfo, now: datetime, shift: Shift | None = None
) -> datetime:
    """Where the previous period is clipped: the same site-local time after its first
    midnight as ``now`` after ``span``'s (a period runs until its last shift has ended)."""
    previous = span.previous()
    if span.clip is not None and previous.clip is not None:
        if now >= span.clip.end:
            return previous.clip.end
        return previous.clip.start + max(now - span.clip.start, timedelta(0))
    previous_end = period_end(span=previous, zone=zone, shift=shift)
    if now >= period_end(span=span, zone=zone, shift=shift):
        return previous_end
    if now <= midnight(span.first, zone):
        return midnight(previous.first, zone)
    local = now.astimezone(zone)
    elapsed_days = (local.date() - span.first).days
    # ``local.time()`` keeps the wall-clock time (and its DST fold), not the UTC offset.
    same_time = local_instant(previous.first + timedelta(days=elapsed_days), local.time(), zone)
    return min(same_time, previous_end)


@dataclass(frozen=True, slots=True)
class Timing:
    """Where a bucket's T lies relative to the instant its period is clipped at."""

    future: bool  # wholly after the clip: not drawn
    partial: bool  # begun, not ended: drawn, marked


def span_timing(span: DaySpan, *, sites: Sequence[tuple[SiteGroup, datetime]]) -> Timing:
    """``sites``: each selected site with its clip instant. A bucket (its T unclipped, or its
    days where the shift has no window) is future when so at every site, partial when
    running at one or cut by a rolling period's instants."""
    future, partial, seen = True, False, False
    for group, until in sites:
        zone = group.zone
        whole = period_windows(span=span.whole_days, zone=zone, shift=group.shift, now=_NEVER)
        whole = whole or [Window(midnight(span.first, zone), midnight(span.last + _DAY, zone))]
        windows = intersect(whole, [span.clip]) if span.clip is not None else whole
        if not windows:
            continue  # the rolling period does not reach this bucket at this site
        seen = True
        start, end = windows[0].start, windows[-1].end
        future = future and until <= start
        partial = partial or start < until < end or windows != whole
    # Seen at no site: only where the sites' zones differ, a day of one outside the instants.
    return Timing(future=future and seen, partial=partial or not seen)


def _sites(scope: AnalyticsScope) -> list[SiteGroup]:
    """The selected sites; none (no vehicle selected): UTC days."""
    selected = [group for group in scope.sites if not group.excluded]
    return selected or [SiteGroup(0, ZoneInfo("UTC"), None, excluded=False)]


def site_clips(
    scope: AnalyticsScope, *, now: datetime, previous: bool
) -> list[tuple[SiteGroup, datetime]]:
    """Every selected site with T's clip instant: now, or the previous period's clip."""
    return [
        (g, previous_until(scope.span, zone=g.zone, now=now, shift=g.shift) if previous else now)
        for g in _sites(scope)
    ]


@dataclass(frozen=True, slots=True)
class Instants:
    """Both periods as UTC instants (before the shift is applied; a night shift starting on
    the last day extends the end past midnight)."""

    start: datetime
    end: datetime
    previous_start: datetime
    previous_end: datetime
    running: bool  # T is clipped at now (and the previous period like for like)


def _start(span: DaySpan, zone: ZoneInfo) -> datetime:
    return span.clip.start if span.clip is not None else midnight(span.first, zone)


def period_instants(scope: AnalyticsScope, *, now: datetime) -> Instants:
    """Start and end of both periods (the end: the clip while the period runs); sites in
    different zones: the earliest start and the latest end."""
    now = now.astimezone(UTC)
    span, groups = scope.span, _sites(scope)
    starts = [_start(span, g.zone) for g in groups]
    ends = [period_end(span=span, zone=g.zone, shift=g.shift) for g in groups]
    return Instants(
        start=min(starts),
        end=max(min(end, max(now, start)) for start, end in zip(starts, ends, strict=True)),
        previous_start=min(_start(span.previous(), g.zone) for g in groups),
        previous_end=max(until for _, until in site_clips(scope, now=now, previous=True)),
        running=any(now < end for end in ends),
    )
