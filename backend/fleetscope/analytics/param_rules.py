"""The rules an analysis's parameters obey, wherever they come from: the query of a
``/v2/Analytics/`` call (``params``) or the saved settings it falls back to
(``appstore.settings_service``). One place, so that nothing saved can be refused later.

- A day lies between ``EARLIEST_DAY`` and ``LATEST_DAY``: an analysis also reads the
  previous period of equal length (up to ``MAX_PERIOD_DAYS`` earlier) and the midnight
  after the last day in the sites' zones, which the calendar of Python's ``date`` (years
  1 to 9999) must hold; no fleet has data before 1970 (the epoch of the fact store's
  instants) or centuries ahead, so those days can only be typing mistakes.
- ``from`` is not after ``to``, and the period has at most ``MAX_PERIOD_DAYS`` days.
- At most ``MAX_VEHICLE_IDS`` vehicles; a shift id has at most ``MAX_SHIFT_ID_LENGTH``
  characters, ``ALL_SHIFTS`` meaning the whole day.
"""

from dataclasses import dataclass
from datetime import date
from typing import Annotated

from pydantic import Field

from fleetscope.analytics.periods import DaySpan
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.i18n import Template
from fleetscope.i18n.messages import DAY_OUT_OF_RANGE

EARLIEST_DAY = date(1970, 1, 1)
LATEST_DAY = date(2999, 12, 31)
MAX_PERIOD_DAYS = 400
MAX_VEHICLE_IDS = 2000
MAX_SHIFT_ID_LENGTH = 64
ALL_SHIFTS = "all"

DAY_RANGE = f"a day from {EARLIEST_DAY.isoformat()} to {LATEST_DAY.isoformat()}"
# A day as a request may give it: out of range is a 422 naming the field, like any other
# invalid value (pydantic checks the bounds; the OpenAPI document says them in words).
AnalysisDay = Annotated[date, Field(ge=EARLIEST_DAY, le=LATEST_DAY, description=DAY_RANGE)]


@dataclass(frozen=True, slots=True)
class PeriodFields:
    """How a caller names the period's fields in its messages (``from``/``to`` of the
    query, ``dateSelector.from``/``.to`` of the settings)."""

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
