"""A rolling period: T between two instants instead of whole days (the last 24 hours, or
``since``/``until`` of the query), and the previous period of the same length right
before it, like for like.

The period is a ``DaySpan`` with a ``clip`` (``periods``): T at a site is the windows of its
days (or of the shifts starting on them) cut to the clip's instants. Its days are the ones
those instants touch at the selected sites, in each site's zone, so that history buckets and
``from``/``to`` name them; with a shift they start on the day of the first shift that reaches
into the clip (at 03:00, the last 24 hours hold the end of the night shift that started two
evenings ago, which belongs to the day it started on). The previous period is the same
length of real time right before (``since - length`` to ``since``); while the period runs
(``until`` after now), the previous one is clipped at the same elapsed real time
(``comparison.previous_until``).
"""

from collections.abc import Sequence
from datetime import UTC, date, timedelta
from zoneinfo import ZoneInfo

from fleetscope.analytics.core.periods import DaySpan, Shift, Window, shift_windows

_MOMENT = timedelta(microseconds=1)
_UTC = ZoneInfo("UTC")
Site = tuple[ZoneInfo, Shift | None]


def touched_days(clip: Window, *, zone: ZoneInfo, shift: Shift | None) -> tuple[date, date]:
    """The first and last site-local day whose T reaches into ``clip`` (its days without a
    shift; the start days of the shift's windows in it, or its days where none is)."""
    first = clip.start.astimezone(zone).date()
    last = (clip.end - _MOMENT).astimezone(zone).date()
    if shift is None:
        return first, last
    # A night shift starting the evening before the clip's first day reaches into it.
    candidates = DaySpan(first - timedelta(days=1), last)
    starts = [
        window.start.astimezone(zone).date()
        for window in shift_windows(shift, span=candidates, zone=zone)
        if window.start < clip.end and window.end > clip.start
    ]
    return (min(starts), max(starts)) if starts else (first, last)


def _span(clip: Window, sites: Sequence[Site]) -> DaySpan:
    days = [touched_days(clip, zone=zone, shift=shift) for zone, shift in sites]
    return DaySpan(min(d[0] for d in days), max(d[1] for d in days), clip=clip)


def rolling_span(clip: Window, *, sites: Sequence[Site]) -> DaySpan:
    """The rolling period ``clip`` at ``sites`` (each a zone and the selected shift there;
    none: UTC days) with its previous period."""
    sites = list(sites) or [(_UTC, None)]
    clip = Window(clip.start.astimezone(UTC), clip.end.astimezone(UTC))
    before = Window(clip.start - (clip.end - clip.start), clip.start)
    current = _span(clip, sites)
    return DaySpan(current.first, current.last, clip=clip, prior=_span(before, sites))
