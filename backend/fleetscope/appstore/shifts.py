"""A site's shift calendar (product.md section 2): named shifts with start, end and the
weekdays they start on; a shift may cross midnight; two shifts never overlap.

A shift is ``{"id", "name", "start": "HH:MM", "end": "HH:MM", "weekdays": [0..6]}``, Monday
= 0 as Python's ``date.weekday()``; ``end`` before ``start`` means it ends the next day.
"""

import re
from typing import Any

from fleetscope.appstore.errors import InvalidInputError
from fleetscope.appstore.names import name_key
from fleetscope.i18n import DEFAULT_LANGUAGE, Language, render
from fleetscope.i18n.admin_messages import (
    DEFAULT_SHIFT_NAMES,
    SHIFT_EMPTY,
    SHIFT_NAME_DUPLICATE,
    SHIFT_NAME_EMPTY,
    SHIFTS_OVERLAP,
    WEEKDAYS,
)
from fleetscope.i18n.messages import (
    SHIFT_ID_DUPLICATE,
    SHIFT_ID_INVALID,
    SHIFT_TIME_INVALID,
    SHIFT_WEEKDAYS_INVALID,
)

EVERY_DAY = [0, 1, 2, 3, 4, 5, 6]  # Monday = 0, as Python's date.weekday()
_CLOCK = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
DAY_MINUTES = 24 * 60
WEEK_MINUTES = 7 * DAY_MINUTES


def default_shifts(language: Language = DEFAULT_LANGUAGE) -> list[dict[str, Any]]:
    """Early, late and night shift every day, named in ``language``; the night shift crosses
    midnight."""
    times = {"early": ("06:00", "14:00"), "late": ("14:00", "22:00"), "night": ("22:00", "06:00")}
    return [
        {
            "id": shift_id,
            "name": render(DEFAULT_SHIFT_NAMES[shift_id](), language),
            "start": start,
            "end": end,
            "weekdays": EVERY_DAY,
        }
        for shift_id, (start, end) in times.items()
    ]


def _minutes(clock: str) -> int:
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)


def _validate_one(shift: dict[str, Any], *, where: str, seen: set[str], names: set[str]) -> None:
    shift_id = shift.get("id")
    if not isinstance(shift_id, str) or not shift_id or shift_id == "all":
        raise InvalidInputError(SHIFT_ID_INVALID(where=where))
    if shift_id in seen:
        raise InvalidInputError(SHIFT_ID_DUPLICATE(where=where, shift=shift_id))
    seen.add(shift_id)
    name = shift.get("name", shift_id)  # older calendars may lack a name: the id stands in
    if not isinstance(name, str) or not name.strip():
        raise InvalidInputError(SHIFT_NAME_EMPTY(where=where))
    # Names tell shifts apart in every chart and filter: trimmed and in any case, as the
    # shift editor compares them (``appstore.names``).
    if name_key(name) in names:
        raise InvalidInputError(SHIFT_NAME_DUPLICATE(where=where, name=name.strip()))
    names.add(name_key(name))
    for bound in ("start", "end"):
        value = shift.get(bound)
        if not isinstance(value, str) or not _CLOCK.match(value):
            raise InvalidInputError(SHIFT_TIME_INVALID(where=where, bound=bound))
    if shift["start"] == shift["end"]:
        raise InvalidInputError(SHIFT_EMPTY(where=where))
    weekdays = shift.get("weekdays")
    # At least one day (else the shift never comes), each once.
    if (
        not isinstance(weekdays, list)
        or not weekdays
        or not all(
            isinstance(day, int) and not isinstance(day, bool) and 0 <= day <= 6 for day in weekdays
        )
        or len(set(weekdays)) != len(weekdays)
    ):
        raise InvalidInputError(SHIFT_WEEKDAYS_INVALID(where=where))


def _week_spans(shift: dict[str, Any]) -> list[tuple[int, int]]:
    """The shift's minutes of the week as [start, end) spans; one crossing Sunday midnight
    is split in two, so spans never wrap."""
    start, end = _minutes(shift["start"]), _minutes(shift["end"])
    length = end - start if end > start else end + DAY_MINUTES - start
    spans: list[tuple[int, int]] = []
    for day in sorted(set(shift["weekdays"])):
        first = day * DAY_MINUTES + start
        last = first + length
        if last <= WEEK_MINUTES:
            spans.append((first, last))
        else:
            spans.extend(((first, WEEK_MINUTES), (0, last - WEEK_MINUTES)))
    return spans


def find_overlap(shifts: list[dict[str, Any]]) -> tuple[int, int, int] | None:
    """(first shift's index, second's, weekday the shared time starts on) of an overlap, or
    None; the shifts are valid (``_validate_one``)."""
    spans = sorted(
        (first, last, index)
        for index, shift in enumerate(shifts)
        for first, last in _week_spans(shift)
    )
    for position, (_first, last, shift) in enumerate(spans):
        # Sorted by start: the spans that begin before this one ends are the ones it meets.
        for other_first, _other_last, other in spans[position + 1 :]:
            if other_first >= last:
                break
            if other != shift:
                return (min(shift, other), max(shift, other), other_first // DAY_MINUTES)
    return None


def validate_shifts(shifts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The shifts if valid; else a 422 naming the field (``shifts[i].start``; of two shifts
    with the same id or name, the later one) or, for two overlapping shifts, both of them
    and the weekday."""
    seen: set[str] = set()
    names: set[str] = set()
    for index, shift in enumerate(shifts):
        _validate_one(shift, where=f"shifts[{index}]", seen=seen, names=names)
    overlap = find_overlap(shifts)
    if overlap is not None:
        first, second, weekday = overlap
        raise InvalidInputError(
            SHIFTS_OVERLAP(
                first=shifts[first].get("name", shifts[first]["id"]),
                second=shifts[second].get("name", shifts[second]["id"]),
                weekday=WEEKDAYS[weekday](),
            )
        )
    return shifts
