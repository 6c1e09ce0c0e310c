"""Server-side login sessions: the cookie holds a random token, the store only its SHA-256."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from fleetscope.appstore.models import User, UserSession, utc_now
from fleetscope.appstore.security import new_token, token_digest


@dataclass(frozen=True)
class IssuedSession:
    """What the login response hands to the browser (the store keeps only the digest)."""

    token: str
    csrf_token: str
    expires_at: datetime


def open_session(session: Session, *, user: User, lifetime: timedelta) -> IssuedSession:
    now = utc_now()
    # Expired sessions are swept here, so the table does not grow without bound.
    session.execute(delete(UserSession).where(UserSession.expires_at <= now))
    token = new_token()
    row = UserSession(
        token_hash=token_digest(token),
        user_id=user.id,
        csrf_token=new_token(),
        created_at=now,
        expires_at=now + lifetime,
    )
    session.add(row)
    user.last_login_at = now  # a session is opened by a login only
    session.commit()
    return IssuedSession(token=token, csrf_token=row.csrf_token, expires_at=row.expires_at)


def resolve_session(session: Session, *, token: str) -> tuple[UserSession, User] | None:
    """The live session and its active user for a cookie token; None if unknown or expired."""
    if not token:
        return None
    # One query for both rows: every API request resolves its session.
    found = session.execute(
        select(UserSession, User)
        .join(User, User.id == UserSession.user_id)
        .where(UserSession.token_hash == token_digest(token))
    ).one_or_none()
    if found is None:
        return None
    row, user = found
    if row.expires_at <= utc_now():
        session.delete(row)
        session.commit()
        return None
    if not user.is_active:
        return None
    return row, user


def close_session(session: Session, *, token: str) -> None:
    session.execute(delete(UserSession).where(UserSession.token_hash == token_digest(token)))
    session.commit()
