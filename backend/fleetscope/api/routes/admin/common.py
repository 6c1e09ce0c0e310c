"""Shared by the Administration routes of issue 25's part A: the ways they fail, for the
OpenAPI document."""

from datetime import UTC, datetime

from fastapi import Request

from fleetscope.api.errors import (
    INVALID,
    JSON_BODY_FAILURES,
    NO_CSRF,
    NOT_FOUND,
    NOT_SIGNED_IN,
    Failing,
    failure_responses,
)
from fleetscope.appstore.errors import InvalidInputError
from fleetscope.i18n.messages import FILTER_RANGE_REVERSED

NOT_ADMIN = Failing(
    404, "the signed-in user is not a superuser (the Administration API does not exist for them)"
)
CONFLICT = Failing(409, "the change conflicts with the store; msg names the problem")
# Every admin route: not signed in, not a superuser, an unknown id, a bad parameter.
READ = failure_responses(NOT_SIGNED_IN, NOT_ADMIN, NOT_FOUND, INVALID)
CHANGE = failure_responses(NO_CSRF, CONFLICT, *JSON_BODY_FAILURES)
# A POST that changes nothing (the workflow preview): CSRF still applies to every POST.
PREVIEW = failure_responses(NO_CSRF, *JSON_BODY_FAILURES)


# Filters on instants are clamped to these (nothing stored lies outside them): an instant near
# the calendar's ends cannot even be turned into UTC (a 500, not an answer).
_EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
_LATEST = datetime(9000, 1, 1, tzinfo=UTC)


def _clamped(at: datetime | None) -> datetime | None:
    if at is None:
        return None
    if at.tzinfo is None:  # where a route takes instants without an offset: UTC
        at = at.replace(tzinfo=UTC)
    try:
        return min(max(at.astimezone(UTC), _EARLIEST), _LATEST)
    except OverflowError:
        return _EARLIEST if at.year < 5000 else _LATEST


def instant_range(
    first: datetime | None, last: datetime | None, *, names: tuple[str, str]
) -> tuple[datetime | None, datetime | None]:
    """A time filter's bounds in UTC, clamped; 422 naming the second parameter (``names``:
    the two as the query spells them) when it lies before the first."""
    start, end = _clamped(first), _clamped(last)
    if (
        first is not None
        and last is not None
        and start is not None
        and end is not None
        and end < start
    ):
        raise InvalidInputError(
            FILTER_RANGE_REVERSED(
                first_field=names[0],
                first=first.isoformat(),
                last_field=names[1],
                last=last.isoformat(),
            )
        )
    return start, end


def follow_site_interfaces(request: Request) -> None:
    """A site was created or changed: the server's MQTT subscriber follows its interface now
    (``ingest.interfaces``) instead of at its next look."""
    ingestion = getattr(request.app.state, "ingestion", None)
    if ingestion is not None:
        ingestion.sites_changed()


def wake_job_runner(request: Request) -> None:
    """A job was queued: the server's runner (``ingest.rederive``) starts it now instead of
    at its next look for jobs queued elsewhere (the command line)."""
    ingestion = getattr(request.app.state, "ingestion", None)
    runner = getattr(ingestion, "rederive", None)
    if runner is not None:
        runner.wake()


def forget_vehicle_sites(request: Request, vehicle_ids: list[int]) -> None:
    """Vehicles moved: the server's ingestion looks them up again at their next message, so
    their former site's tokens and interface no longer write them from this moment, not
    only when the registry's cache expires (``ingest.registry``) or the move's job starts."""
    ingestion = getattr(request.app.state, "ingestion", None)
    if ingestion is not None:
        ingestion.pipeline.registry.forget(vehicle_ids)
