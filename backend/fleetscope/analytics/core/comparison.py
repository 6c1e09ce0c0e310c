"""Like for like (product.md section 3, "Comparison"): where the previous period of T is
clipped, the exact instants of both periods, and which buckets of a chart are drawn.

The previous period has the same number of days and ends on the day before the period's
first day (``DaySpan.previous``): a 30-day month is compared with the 30 days before it.
While the period is running (T clipped at now: today so far, this week so far), the
previous period is clipped at the same elapsed time, counted on the site's wall clock: the
same number of whole days after its first day and the same site-local time of day (now on
Wednesday 15:10 of this week: the previous period ends on Wednesday 15:10 of the week
before; now on the 25th day of a 30-day period at 15:10: the previous 30 days end on their
25th day at 15:10). Shifts are wall-clock windows too, so the selected shift is intersected
with both sides the same way (the early shift 06:00-14:00 of this Wednesday so far against
last Wednesday's 06:00 to 15:10, cut to 14:00). The clip is never later than the end of the
previous period's last day (the same number of days makes it impossible, the bound keeps it
the definition). Across a daylight-saving change one side may hold an hour of real time
more than the other, as a 25-hour day already does against a 24-hour one. A period that has
ended is compared with the whole previous period; one that lies wholly in the future with an
empty one.

A rolling period (``rolling``: the last 24 hours, ``since``/``until``) is compared with the
same length of real time right before it; while it runs (``until`` after now) the previous
one is clipped at the same elapsed real time (now - length). A night shift that started on
the period's last day makes the period run until it ends, after midnight, and the previous
period is clipped like for like (``period_instants``).

Charts: a bucket (day, week, month) whose T lies wholly after now is not returned; one that
has begun and not ended is ``partial``, and so is one that a rolling period's instants cut
(the day the last 24 hours begin on). The previous period's buckets follow its clip: those
after the clip are not returned, the one holding it is ``partial``.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup
from fleetscope.analytics.core.periods import (
    DaySpan,
    Shift,
    Window,
    clip_to,
    local_instant,
    midnight,
    period_end,
    period_windows,
)

_DAY = timedelta(days=1)
# "Not clipped": later than the end of any period.
_NEVER = datetime.max.replace(tzinfo=UTC)
_UTC_ZONE = ZoneInfo("UTC")


def day_end(span: DaySpan, zone: ZoneInfo) -> datetime:
    """The midnight after the span's last day."""
    return midnight(span.last + _DAY, zone)


def previous_until(
    span: DaySpan, *, zone: ZoneInfo, now: datetime, shift: Shift | None = None
) -> datetime:
    """The instant at which the previous period of ``span`` is clipped: the same elapsed
    site-local time after its first midnight as ``now`` after ``span``'s (module doc).
    With ``shift``, a period runs until its last shift has ended (a night shift starting on
    its last day ends on the day after: its own), and so does the previous period.
    A rolling period: the same elapsed real time after the previous period's start."""
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
    """``sites``: each selected site with the instant its T is clipped at (now, or the
    previous period's clip). The bucket's extent at a site is its T unclipped (the shift's
    windows), or its days where the shift has no window; it is in the future when it is so
    at every site and partial when running at one or cut by a rolling period's instants."""
    future, partial, seen = True, False, False
    for group, until in sites:
        whole = period_windows(span=span.whole_days, zone=group.zone, shift=group.shift, now=_NEVER)
        if not whole:
            whole = [Window(midnight(span.first, group.zone), day_end(span, group.zone))]
        windows = clip_to(whole, span.clip) if span.clip is not None else whole
        if not windows:
            continue  # the rolling period does not reach this bucket at this site
        seen = True
        start, end = windows[0].start, windows[-1].end
        future = future and until <= start
        partial = partial or start < until < end or windows != whole
    if not seen:
        # Only where the sites' zones differ: a day of one site outside the instants.
        return Timing(future=False, partial=True)
    return Timing(future=future, partial=partial)


def site_clips(
    scope: AnalyticsScope, *, now: datetime, previous: bool
) -> list[tuple[SiteGroup, datetime]]:
    """Every selected site with the instant T is clipped at there: now for the period, the
    like-for-like clip for the previous period. No site (no vehicle selected): UTC days."""
    groups = [group for group in scope.sites if not group.excluded] or [
        SiteGroup(0, _UTC_ZONE, None, excluded=False)
    ]
    return [
        (
            group,
            previous_until(scope.span, zone=group.zone, now=now, shift=group.shift)
            if previous
            else now,
        )
        for group in groups
    ]


@dataclass(frozen=True, slots=True)
class Instants:
    """Both periods as exact UTC instants (before the shift is applied, except that a night
    shift starting on the last day extends the end past midnight)."""

    start: datetime
    end: datetime
    previous_start: datetime
    previous_end: datetime
    running: bool  # T is clipped at now (and the previous period like for like)


def _start(span: DaySpan, zone: ZoneInfo) -> datetime:
    return span.clip.start if span.clip is not None else midnight(span.first, zone)


def period_instants(scope: AnalyticsScope, *, now: datetime) -> Instants:
    """Start and end of the period and of the previous period; the end is the clip while
    the period runs, which it does until its last shift has ended (a night shift: after
    midnight). Sites in different zones: the earliest start and the latest end."""
    groups = [group for group in scope.sites if not group.excluded] or [
        SiteGroup(0, _UTC_ZONE, None, excluded=False)
    ]
    now = now.astimezone(UTC)
    span, previous = scope.span, scope.span.previous()
    starts, ends, previous_ends, running = [], [], [], False
    for group in groups:
        start = _start(span, group.zone)
        end = period_end(span=span, zone=group.zone, shift=group.shift)
        starts.append(start)
        ends.append(min(end, max(now, start)))
        previous_ends.append(previous_until(span, zone=group.zone, now=now, shift=group.shift))
        running = running or now < end
    return Instants(
        start=min(starts),
        end=max(ends),
        previous_start=min(_start(previous, group.zone) for group in groups),
        previous_end=max(previous_ends),
        running=running,
    )
