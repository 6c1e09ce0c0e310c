"""Period T: site-local days, shifts across midnight and DST, hours vs partial pieces."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from fleetscope.analytics.core.periods import (
    DaySpan,
    Shift,
    TimeCell,
    Window,
    calendar_buckets,
    granularity_for,
    merge_windows,
    period_windows,
    shift_windows,
    split_hour_ranges,
)

BERLIN = ZoneInfo("Europe/Berlin")
KOLKATA = ZoneInfo("Asia/Kolkata")  # UTC+05:30: local hours are not UTC hours
LATER = datetime(2030, 1, 1, tzinfo=UTC)
EVERY_DAY = frozenset(range(7))
NIGHT = Shift("night", time(22), time(6), EVERY_DAY)
EARLY = Shift("early", time(6), time(14), EVERY_DAY)


def _day(text: str) -> DaySpan:
    day = date.fromisoformat(text)
    return DaySpan(day, day)


@pytest.mark.parametrize(
    ("day", "hours"), [("2026-03-29", 23), ("2026-10-25", 25), ("2026-06-01", 24)]
)
def test_a_day_has_the_hours_of_the_clock(day: str, hours: int) -> None:
    windows = period_windows(span=_day(day), zone=BERLIN, shift=None, now=LATER)
    assert sum(w.seconds for w in windows) == hours * 3600
    assert windows[0].start == datetime.combine(date.fromisoformat(day), time(), BERLIN)


def test_night_shift_belongs_to_the_day_it_starts_on() -> None:
    """The glossary's rule: the night shift starting on 2 June 22:00 (CEST) is the 2nd's, up
    to the 3rd 06:00; the morning of the night that started on the 1st is not the 2nd's."""
    windows = period_windows(span=_day("2026-06-02"), zone=BERLIN, shift=NIGHT, now=LATER)
    assert windows == [
        Window(datetime(2026, 6, 2, 20, tzinfo=UTC), datetime(2026, 6, 3, 4, tzinfo=UTC)),
    ]
    two_days = DaySpan(date(2026, 6, 2), date(2026, 6, 3))
    nights = period_windows(span=two_days, zone=BERLIN, shift=NIGHT, now=LATER)
    assert nights[1] == Window(
        datetime(2026, 6, 3, 20, tzinfo=UTC), datetime(2026, 6, 4, 4, tzinfo=UTC)
    )
    assert sum(w.seconds for w in nights) == (8 + 8) * 3600
    # Clipped at now inside the night that started on the 2nd.
    now = datetime(2026, 6, 3, 1, 30, tzinfo=UTC)
    assert period_windows(span=_day("2026-06-02"), zone=BERLIN, shift=NIGHT, now=now) == [
        Window(datetime(2026, 6, 2, 20, tzinfo=UTC), now)
    ]


# The nights starting on the evening before a change of the clock: 7 and 9 hours.
@pytest.mark.parametrize(("day", "hours"), [("2026-03-28", 7), ("2026-10-24", 9)])
def test_night_shift_on_a_dst_day(day: str, hours: int) -> None:
    windows = period_windows(span=_day(day), zone=BERLIN, shift=NIGHT, now=LATER)
    assert sum(w.seconds for w in windows) == hours * 3600


def test_shift_weekdays_are_the_days_it_starts_on() -> None:
    weekdays_only = Shift("night", time(22), time(6), frozenset(range(5)))
    saturday = period_windows(span=_day("2026-06-06"), zone=BERLIN, shift=weekdays_only, now=LATER)
    # Friday's night shift reaches into Saturday morning, and is Friday's; Saturday has none.
    assert saturday == []
    friday = period_windows(span=_day("2026-06-05"), zone=BERLIN, shift=weekdays_only, now=LATER)
    assert sum(w.seconds for w in friday) == 8 * 3600


def test_now_clips_the_period_and_the_future_is_empty() -> None:
    now = datetime(2026, 6, 2, 9, 30, tzinfo=UTC)
    today = period_windows(span=_day("2026-06-02"), zone=BERLIN, shift=EARLY, now=now)
    assert today == [Window(datetime(2026, 6, 2, 4, tzinfo=UTC), now)]
    assert period_windows(span=_day("2026-06-03"), zone=BERLIN, shift=None, now=now) == []


@pytest.mark.parametrize(
    "shift",
    [NIGHT, EARLY, Shift("weekdays", time(21, 30), time(5, 45), frozenset(range(5)))],
    ids=["night", "early", "weekday-nights"],
)
@pytest.mark.parametrize("zone", [BERLIN, KOLKATA], ids=["berlin", "kolkata"])
def test_shift_windows_are_each_window_clipped_to_the_period_and_now(
    shift: Shift, zone: ZoneInfo
) -> None:
    """The merged windows are kept per shift and span, and only clipped per call: the same
    as clipping each window of a shift starting on the days to now, then merging (across
    DST)."""
    span = DaySpan(date(2026, 3, 20), date(2026, 4, 2))
    start = datetime.combine(span.first, time(), zone)
    nows = [start + timedelta(minutes=17 * step) for step in range(0, 14 * 24 * 4, 7)]
    for now in [*nows, start - timedelta(days=1), LATER]:
        clipped = (
            Window(w.start, min(w.end, now)) for w in shift_windows(shift, span=span, zone=zone)
        )
        expected = merge_windows(w for w in clipped if w.start < w.end)
        assert period_windows(span=span, zone=zone, shift=shift, now=now) == expected, now


def test_whole_hours_and_partial_pieces() -> None:
    now = datetime(2026, 6, 2, 9, 30, tzinfo=UTC)
    windows = period_windows(span=_day("2026-06-02"), zone=BERLIN, shift=EARLY, now=now)
    split = split_hour_ranges(windows)
    assert split.ranges == [
        Window(datetime(2026, 6, 2, 4, tzinfo=UTC), datetime(2026, 6, 2, 9, tzinfo=UTC))
    ]
    assert split.pieces == [Window(datetime(2026, 6, 2, 9, tzinfo=UTC), now)]
    kolkata = split_hour_ranges(
        period_windows(span=_day("2026-06-02"), zone=KOLKATA, shift=EARLY, now=LATER)
    )
    # 06:00-14:00 IST = 00:30-08:30 UTC: seven whole hours and two half hours.
    assert sum(whole.seconds for whole in kolkata.ranges) == 7 * 3600
    assert [piece.seconds for piece in kolkata.pieces] == [1800, 1800]
    inside = split_hour_ranges(
        [Window(datetime(2026, 1, 1, 5, 10, tzinfo=UTC), datetime(2026, 1, 1, 5, 20, tzinfo=UTC))]
    )
    assert inside.ranges == [] and len(inside.pieces) == 1


def test_previous_period_has_the_same_number_of_days() -> None:
    span = DaySpan(date(2026, 3, 1), date(2026, 3, 31))
    assert span.previous() == DaySpan(date(2026, 1, 29), date(2026, 2, 28))


@pytest.mark.parametrize(
    ("days", "granularity"),
    [(1, "day"), (31, "day"), (32, "week"), (180, "week"), (181, "month"), (400, "month")],
)
def test_granularity_follows_the_period_length(days: int, granularity: str) -> None:
    assert granularity_for(days) == granularity


def test_weeks_and_months_are_cut_to_the_period() -> None:
    span = DaySpan(date(2026, 6, 3), date(2026, 6, 17))  # Wednesday to Wednesday
    weeks = calendar_buckets(span, "week")
    assert [(w.first.isoformat(), w.last.isoformat()) for w in weeks] == [
        ("2026-06-03", "2026-06-07"),
        ("2026-06-08", "2026-06-14"),
        ("2026-06-15", "2026-06-17"),
    ]
    months = calendar_buckets(DaySpan(date(2026, 1, 15), date(2026, 3, 2)), "month")
    assert [m.days for m in months] == [17, 28, 2]
    assert sum(d.days for d in calendar_buckets(span, "day")) == span.days
    assert timedelta(days=span.days) == span.last - span.first + timedelta(days=1)


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


def test_a_heatmap_cell_is_its_wall_clock_hour_on_its_weekday() -> None:
    week = period_windows(
        span=DaySpan(date(2026, 10, 19), date(2026, 10, 25)), zone=BERLIN, shift=None, now=LATER
    )
    monday_ten = TimeCell(weekday=0, hour=10).narrow(week, zone=BERLIN, shift=None)
    assert monday_ten == [Window(_utc("2026-10-19T10:00+02:00"), _utc("2026-10-19T11:00+02:00"))]
    # The 25th repeats 02:00-03:00: two hours of one cell. On 29 March that hour is skipped.
    sunday_two = TimeCell(weekday=6, hour=2).narrow(week, zone=BERLIN, shift=None)
    assert sunday_two == [Window(_utc("2026-10-25T00:00Z"), _utc("2026-10-25T02:00Z"))]
    spring = period_windows(span=_day("2026-03-29"), zone=BERLIN, shift=None, now=LATER)
    assert TimeCell(hour=2).narrow(spring, zone=BERLIN, shift=None) == []
    # Every hour of a weekday, or a weekday's every hour: the windows of the day itself.
    assert TimeCell(weekday=2).narrow(week, zone=BERLIN, shift=None) == period_windows(
        span=_day("2026-10-21"), zone=BERLIN, shift=None, now=LATER
    )
    assert len(TimeCell(hour=23).narrow(week, zone=BERLIN, shift=None)) == 7


def test_a_night_shift_cell_holds_the_next_mornings_hours() -> None:
    """As the heatmap bins them: before the start of a shift crossing midnight, an instant
    belongs to the day before (Saturday's night shift ends on Sunday)."""
    saturday = _day("2026-10-17")
    night = period_windows(span=saturday, zone=BERLIN, shift=NIGHT, now=LATER)
    cell = TimeCell(weekday=5, hour=3).narrow(night, zone=BERLIN, shift=NIGHT)
    assert cell == [Window(_utc("2026-10-18T03:00+02:00"), _utc("2026-10-18T04:00+02:00"))]
    assert TimeCell(weekday=6, hour=3).narrow(night, zone=BERLIN, shift=NIGHT) == []
    # A shift starting at half past: its first hour is split between two days' cells.
    late = Shift("late", time(21, 30), time(5, 30), EVERY_DAY)
    nights = period_windows(
        span=DaySpan(date(2026, 10, 16), date(2026, 10, 17)), zone=BERLIN, shift=late, now=LATER
    )
    friday_five = TimeCell(weekday=4, hour=5).narrow(nights, zone=BERLIN, shift=late)
    assert friday_five == [Window(_utc("2026-10-17T05:00+02:00"), _utc("2026-10-17T05:30+02:00"))]
    friday_21 = TimeCell(weekday=4, hour=21).narrow(nights, zone=BERLIN, shift=late)
    assert friday_21 == [Window(_utc("2026-10-16T21:30+02:00"), _utc("2026-10-16T22:00+02:00"))]
