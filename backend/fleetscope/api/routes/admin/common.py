"""Shared by the Administration routes of issue 25's part A: the ways they fail, for the
OpenAPI document."""

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

NOT_ADMIN = Failing(
    404, "the signed-in user is not a superuser (the Administration API does not exist for them)"
)
CONFLICT = Failing(409, "the change conflicts with the store; msg names the problem")
# Every admin route: not signed in, not a superuser, an unknown id, a bad parameter.
READ = failure_responses(NOT_SIGNED_IN, NOT_ADMIN, NOT_FOUND, INVALID)
CHANGE = failure_responses(NO_CSRF, CONFLICT, *JSON_BODY_FAILURES)
# A POST that changes nothing (the workflow preview): CSRF still applies to every POST.
PREVIEW = failure_responses(NO_CSRF, *JSON_BODY_FAILURES)


def wake_job_runner(request: Request) -> None:
    """A job was queued: the server's runner (``ingest.rederive``) starts it now instead of
    at its next look for jobs queued elsewhere (the command line)."""
    ingestion = getattr(request.app.state, "ingestion", None)
    runner = getattr(ingestion, "rederive", None)
    if runner is not None:
        runner.wake()
