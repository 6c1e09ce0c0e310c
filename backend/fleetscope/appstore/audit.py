"""The audit log: every change made through the Administration API or the command line.

Each service function that changes the app store calls ``record`` in the same transaction
as its change, so an entry exists exactly when the change does. ``before`` and ``after``
are the changed object's fields as the API shows them, never a secret: any key that names
a password, token or hash is dropped here, whatever the caller passes.
"""

import getpass
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fleetscope.appstore.models import AuditEntry, User

Via = Literal["web", "cli"]
EntityType = Literal["organization", "site", "vehicle", "user", "token", "deadLetter"]
# Every change the log records, "<entity type>.<verb>"; the web app names each in English and
# German (``admin.audit.actions``) and offers them as the action filter's choices.
AuditAction = Literal[
    "organization.create",
    "organization.update",
    "organization.delete",
    "site.create",
    "site.update",
    "site.delete",
    "vehicle.update",
    "user.create",
    "user.update",
    "user.activate",
    "user.deactivate",
    "user.partnerLinks",
    "user.passwordChange",
    "user.passwordReset",
    "user.delete",
    "token.create",
    "token.revoke",
    "deadLetter.delete",
    "deadLetter.reingest",
]

# Lower-case key fragments that mark a secret (passwordHash, token_hash, temporaryPassword...).
SECRET_KEY_PARTS = ("password", "hash", "secret", "csrf")
SECRET_KEYS = frozenset({"token"})  # the token itself; "tokenId" or "tokens" are not secrets


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes a change and through what: a signed-in user on the web, or the OS user
    running the command line."""

    who: User | str
    via: Via

    @classmethod
    def web(cls, user: User) -> "Actor":
        return cls(who=user, via="web")

    @classmethod
    def cli(cls) -> "Actor":
        try:
            name = getpass.getuser()
        except (KeyError, OSError):  # no name for this uid (a bare container)
            name = "unknown"
        return cls(who=name, via="cli")


def _is_secret(key: str) -> bool:
    lowered = key.lower()
    return lowered in SECRET_KEYS or any(part in lowered for part in SECRET_KEY_PARTS)


def _plain(value: Any) -> Any:
    """JSON-ready: instants in UTC as the API writes them (``2026-11-29T03:15:32Z``), days
    as ISO 8601, nested mappings without secrets."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items() if not _is_secret(str(k))}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return [_plain(v) for v in items]
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def record(
    session: Session,
    *,
    actor: User | str,
    via: Via,
    action: AuditAction,
    entity_type: EntityType,
    entity_id: int | str | None,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
) -> AuditEntry:
    """Add one audit entry to ``session``; the caller's commit stores it with the change."""
    user_id = actor.id if isinstance(actor, User) else None
    name = actor.email if isinstance(actor, User) else actor
    entry = AuditEntry(
        actor_user_id=user_id,
        actor=name[:320],
        via=via,
        action=action,
        entity_type=entity_type,
        entity_id=None if entity_id is None else str(entity_id),
        before=None if before is None else _plain(before),
        after=None if after is None else _plain(after),
    )
    session.add(entry)
    return entry


def record_change(
    session: Session,
    *,
    by: Actor,
    action: AuditAction,
    entity_type: EntityType,
    entity_id: int | str | None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
) -> AuditEntry:
    """``record`` for the service functions, which carry their caller as an ``Actor``."""
    return record(
        session,
        actor=by.who,
        via=by.via,
        action=action,
        entity_type=entity_type,
        entity_id=entity_id,
        before=before,
        after=after,
    )


def contains_pattern(text: str) -> str:
    """A LIKE pattern (escape character backslash) for ``text`` anywhere, in lower case: its
    own ``%`` and ``_`` are literal text."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


@dataclass(frozen=True, slots=True)
class AuditFilter:
    action: str | None = None
    entity_type: str | None = None
    actor: str | None = None  # part of the actor's name, any case
    at_from: datetime | None = None  # inclusive
    at_to: datetime | None = None  # exclusive


def audit_page(
    session: Session, *, filters: AuditFilter, page: int, page_size: int
) -> tuple[list[AuditEntry], int]:
    """One page of the entries matching ``filters``, newest first, and how many match."""
    conditions = []
    if filters.action:
        conditions.append(AuditEntry.action == filters.action)
    if filters.entity_type:
        conditions.append(AuditEntry.entity_type == filters.entity_type)
    if filters.actor:
        conditions.append(
            func.lower(AuditEntry.actor).like(contains_pattern(filters.actor), escape="\\")
        )
    if filters.at_from is not None:
        conditions.append(AuditEntry.at >= filters.at_from)
    if filters.at_to is not None:
        conditions.append(AuditEntry.at < filters.at_to)
    total = session.scalar(select(func.count()).select_from(AuditEntry).where(*conditions))
    entries = session.scalars(
        select(AuditEntry)
        .where(*conditions)
        .order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
        .offset((page - 1) * page_size)
        .limit(page_size)
    )
    return list(entries), int(total or 0)
