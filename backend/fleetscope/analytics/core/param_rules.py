"""The rules an analysis's parameters obey, from the query (``params``) or the saved settings
(``appstore.settings_service``): one place, so that nothing saved can be refused later. Days
lie from 1970 (the fact store's epoch) to 2999 (the previous period and the midnight after
stay in Python's calendar); a rolling period spans at most ``MAX_HOURS``."""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Annotated

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from fleetscope.analytics.core.periods import HOUR, DaySpan, Window
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.i18n import Template
from fleetscope.i18n.messages import (
    DAY_OUT_OF_RANGE,
    HOURS_WITH_INSTANTS,
    INSTANT_OUT_OF_RANGE,
    INSTANTS_REVERSED,
    INSTANTS_TOO_LONG,
    PERIOD_KINDS_MIXED,
    SINCE_AFTER_NOW,
    UNTIL_WITHOUT_SINCE,
)
from fleetscope.i18n.validation import DAY_FORMAT

if TYPE_CHECKING:  # ``params`` imports the settings, which import these rules
    from fleetscope.analytics.core.params import AnalyticsParams

EARLIEST_DAY = date(1970, 1, 1)
LATEST_DAY = date(2999, 12, 31)
MAX_PERIOD_DAYS = 400
MAX_HOURS = MAX_PERIOD_DAYS * 24
EARLIEST_INSTANT = datetime.combine(EARLIEST_DAY, time(), tzinfo=UTC)
LATEST_INSTANT = datetime.combine(LATEST_DAY, time(), tzinfo=UTC) + timedelta(days=1)
MAX_VEHICLE_IDS = 2000
MAX_SHIFT_ID_LENGTH = 64
ALL_SHIFTS = "all"  # the shift id meaning the whole day

DAY_RANGE = f"a day from {EARLIEST_DAY.isoformat()} to {LATEST_DAY.isoformat()}"
_DAY_TEXT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _written_as_day(value: object) -> object:
    """A day is written YYYY-MM-DD: pydantic alone would also take a number as a Unix time
    ("0" as 1970-01-01) and a timestamp at midnight, whatever its offset, as a day."""
    if type(value) is date or (isinstance(value, str) and _DAY_TEXT.fullmatch(value)):
        return value
    raise PydanticCustomError("date_parsing", DAY_FORMAT.en)


# A day as a request may give it: out of range is a 422 naming the field, like any other
# invalid value (pydantic checks the bounds; the OpenAPI document says them in words).
AnalysisDay = Annotated[
    date,
    Field(ge=EARLIEST_DAY, le=LATEST_DAY, description=DAY_RANGE),
    BeforeValidator(_written_as_day),
]


@dataclass(frozen=True, slots=True)
class PeriodFields:
    """How a caller names the period's fields in its messages."""

    first: str
    last: str
    reversed: Template  # {first}, {last}: the days
    too_long: Template  # {days}, {limit}


def check_period(first: date, last: date, *, fields: PeriodFields) -> DaySpan:
    """The period ``first`` .. ``last`` (inclusive), or a 422 naming the field at fault."""
    for name, day in ((fields.first, first), (fields.last, last)):
        if not EARLIEST_DAY <= day <= LATEST_DAY:
            raise InvalidInputError(
                DAY_OUT_OF_RANGE(
                    field=name,
                    day=day.isoformat(),
                    earliest=EARLIEST_DAY.isoformat(),
                    latest=LATEST_DAY.isoformat(),
                )
            )
    if first > last:
        raise InvalidInputError(fields.reversed(first=first.isoformat(), last=last.isoformat()))
    span = DaySpan(first, last)
    if span.days > MAX_PERIOD_DAYS:
        raise InvalidInputError(fields.too_long(days=span.days, limit=MAX_PERIOD_DAYS))
    return span


def last_hours(hours: int, *, now: datetime) -> Window:
    # To the second: the answer's instants read as they were asked for.
    end = now.astimezone(UTC).replace(microsecond=0)
    return Window(end - hours * HOUR, end)


def check_rolling(params: "AnalyticsParams", *, now: datetime) -> Window | None:
    """A rolling period's instants (None without one), or a 422 naming the parameter at
    fault: kinds do not mix, ``until`` (default now) needs ``since`` and lies after it."""
    given = {"hours": params.hours, "since": params.since, "until": params.until}
    instants = [name for name, value in given.items() if value is not None]
    if not instants:
        return None
    days = [name for name, day in (("from", params.date_from), ("to", params.date_to)) if day]
    if days:
        raise InvalidInputError(PERIOD_KINDS_MIXED(field=instants[0], other="/".join(days)))
    if params.hours is not None:
        if len(instants) > 1:
            raise InvalidInputError(HOURS_WITH_INSTANTS(other="/".join(instants[1:])))
        return last_hours(params.hours, now=now)
    if params.since is None:
        raise InvalidInputError(UNTIL_WITHOUT_SINCE())
    start, end = params.since.astimezone(UTC), (params.until or now).astimezone(UTC)
    for name, instant in (("since", start), ("until", end)):
        if not EARLIEST_INSTANT <= instant <= LATEST_INSTANT:
            raise InvalidInputError(
                INSTANT_OUT_OF_RANGE(
                    field=name,
                    instant=instant.isoformat(),
                    earliest=EARLIEST_INSTANT.isoformat(),
                    latest=LATEST_INSTANT.isoformat(),
                )
            )
    if end <= start:
        if params.until is None:
            raise InvalidInputError(SINCE_AFTER_NOW(since=start.isoformat()))
        raise InvalidInputError(INSTANTS_REVERSED(until=end.isoformat(), since=start.isoformat()))
    if (hours := (end - start) / HOUR) > MAX_HOURS:
        field = "since" if params.until is None else "until"
        too_long = INSTANTS_TOO_LONG(field=field, hours=f"{hours:.1f}", limit=MAX_HOURS)
        raise InvalidInputError(too_long)
    return Window(start, end)
