"""Re-derivation jobs started by administration changes: a change of a site's workflow
rules, load action types or time zone (the days of the rollups), or of a vehicle's site,
alters derived facts (product.md section 4), so the affected vehicles' facts are derived
again from the raw messages in the background (``ingest.rederive`` runs the jobs)."""

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy.orm import Session

from fleetscope.appstore.audit import Actor
from fleetscope.appstore.models import RederiveJob, User

JobReason = Literal["workflowRules", "vehicleSite", "loadActionTypes", "timeZone"]


def actor_name(by: Actor) -> str:
    return by.who.email if isinstance(by.who, User) else by.who


def start_job(
    session: Session,
    *,
    reason: JobReason,
    site_id: int | None,
    vehicle_ids: Sequence[int],
    by: Actor,
) -> RederiveJob:
    """Queue a re-derivation of ``vehicle_ids`` in ``session``'s transaction."""
    # Imported here: ingestion's modules load the fact store and the derivation, which the
    # app store's other users (command line, migrations) do not need.
    from fleetscope.ingest.rederive import start_rederive

    return start_rederive(
        session,
        reason=reason,
        site_id=site_id,
        vehicle_ids=sorted(vehicle_ids),
        created_by=actor_name(by),
    )


def job_progress(job: RederiveJob, *, now: datetime | None = None) -> tuple[float, float | None]:
    """(percent done, seconds left or None): the rate so far, extrapolated to the rest."""
    if job.state == "done":
        return 100.0, 0.0
    if job.frames_total <= 0:
        return 0.0, None
    percent = min(100.0, 100.0 * job.frames_done / job.frames_total)
    if job.state != "running" or job.started_at is None or job.frames_done <= 0:
        return percent, None
    elapsed = ((now or datetime.now(UTC)) - job.started_at).total_seconds()
    left = elapsed * (job.frames_total - job.frames_done) / job.frames_done
    return percent, max(0.0, left)
