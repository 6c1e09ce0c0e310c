"""``/v2/Admin/Jobs``: re-derivation jobs (superusers), newest first, with their progress.
Kept in the app store (``rederive_jobs``), so a page reload finds a job and follows it."""

from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import func, select

from fleetscope.analytics.core.paging import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Page, page_count
from fleetscope.api.deps import SessionDep, StoreId, SuperUser
from fleetscope.api.envelope import Envelope, ok
from fleetscope.api.errors import INVALID, NOT_FOUND, NOT_SIGNED_IN, failure_responses
from fleetscope.appstore.admin_schemas import JobOut, job_out
from fleetscope.appstore.errors import NotFoundError
from fleetscope.appstore.models import RederiveJob
from fleetscope.i18n.ingest_admin import JOB_NOT_FOUND

router = APIRouter(prefix="/Jobs", responses=failure_responses(NOT_SIGNED_IN, NOT_FOUND, INVALID))


@router.get("", response_model=Envelope[Page[JobOut]])
def list_jobs(
    _: SuperUser,
    db: SessionDep,
    page: Annotated[int, Query(ge=1, le=2**31 - 1)] = 1,
    page_size: Annotated[int, Query(alias="pageSize", ge=1, le=MAX_PAGE_SIZE)] = (
        DEFAULT_PAGE_SIZE
    ),
) -> Envelope[Page[JobOut]]:
    """Every re-derivation job, newest first."""
    total = db.scalar(select(func.count()).select_from(RederiveJob)) or 0
    jobs = db.scalars(
        select(RederiveJob)
        .order_by(RederiveJob.id.desc())
        .offset(min((page - 1) * page_size, 2**62))
        .limit(page_size)
    )
    return ok(
        Page[JobOut](
            items=[job_out(job) for job in jobs],
            total=total,
            page=page,
            page_size=page_size,
            pages=page_count(total, page_size),
            sort="-id",
        )
    )


@router.get("/{jobId}", response_model=Envelope[JobOut])
def get_job(jobId: StoreId, _: SuperUser, db: SessionDep) -> Envelope[JobOut]:
    """One job: state, frames read of the total, percent and seconds left (running)."""
    job = db.get(RederiveJob, jobId)
    if job is None:
        raise NotFoundError(JOB_NOT_FOUND(job=jobId))
    return ok(job_out(job))
