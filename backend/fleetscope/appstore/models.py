"""Tables of the application store. Migrations in ``appstore/migrations`` mirror this file."""

from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from fleetscope.vda5050.limits import NAME_MAX, VERSION_MAX


class Role(StrEnum):
    SUPERUSER = "superuser"
    CUSTOMER = "customer"
    PARTNER = "partner"
    SUPPORT = "support"
    SERVICE = "service"


def utc_now() -> datetime:
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend: SQLite drops the zone, so it is restored on read."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass an aware (UTC) datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# Named constraints, so later migrations (SQLite batch mode included) can address them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        list[Any]: JSON,
        datetime: UtcDateTime,
    }


class Organization(Base):
    __tablename__ = "organizations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utc_now)

    sites: Mapped[list["Site"]] = relationship(back_populates="organization")


class Site(Base):
    __tablename__ = "sites"
    __table_args__ = (UniqueConstraint("organization_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    organization_id: Mapped[int] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    time_zone: Mapped[str] = mapped_column(String(64), default="Europe/Berlin")
    # [{"id": "early", "name": "Early", "start": "06:00", "end": "14:00", "weekdays": [0..6]}]
    shifts: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # Ordered regular expressions on orderId, each with a named group ``workflow``.
    workflow_rules: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # The site's own load-handling action types (any case), counted as loads handled
    # besides VDA 5050's pick, drop, load and unload; applied to stored facts by a rebuild.
    load_action_types: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # Messages on this MQTT interface name are for this site's vehicles (unique per site).
    mqtt_interface: Mapped[str | None] = mapped_column(String(100), unique=True, default=None)

    organization: Mapped[Organization] = relationship(back_populates="sites")
    vehicles: Mapped[list["Vehicle"]] = relationship(back_populates="site")


class Vehicle(Base):
    """A vehicle of a site; identified by (site, manufacturer, serialNumber).

    The same manufacturer and serial number may exist at several sites (of other tenants):
    messages reach a vehicle only through its own site (ingest/registry.py).
    """

    __tablename__ = "vehicles"
    __table_args__ = (UniqueConstraint("site_id", "manufacturer", "serial_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"), index=True)
    manufacturer: Mapped[str] = mapped_column(String(200))
    serial_number: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(200))
    # Both from messages: decoding refuses what the columns cannot hold.
    model: Mapped[str | None] = mapped_column(String(NAME_MAX), default=None)
    protocol_version: Mapped[str | None] = mapped_column(String(VERSION_MAX), default=None)
    battery_capacity_wh: Mapped[float | None] = mapped_column(Float, default=None)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utc_now)
    # Out of service since (an administrator's decision): its history stays, its messages are
    # still stored, but it has no live tile and is not among "all machines" of later periods.
    retired_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), default=None)

    site: Mapped[Site] = relationship(back_populates="vehicles")


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))
    organization_id: Mapped[int | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="SET NULL"), default=None
    )
    display_name: Mapped[str] = mapped_column(String(200), default="")
    # "" until the user (or an administrator) chooses one: the app follows the browser. (Not
    # NULL: SQLite can only drop NOT NULL by rebuilding the table, which cascades to sessions.)
    language: Mapped[str] = mapped_column(String(5), default="")
    is_active: Mapped[bool] = mapped_column(Boolean, default=True)
    # Set by an administrator (a new user, a reset) until the user chooses their own.
    password_temporary: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utc_now)
    last_login_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), default=None)


class PartnerLink(Base):
    """A partner user sees the organizations linked here."""

    __tablename__ = "partner_links"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    organization_id: Mapped[int] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )


class UserSession(Base):
    __tablename__ = "user_sessions"

    # SHA-256 of the cookie value: a leaked database does not leak live sessions.
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utc_now)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime())


class UserSettings(Base):
    __tablename__ = "user_settings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    date_mode: Mapped[str] = mapped_column(String(10), default="week")
    date_from: Mapped[date | None] = mapped_column(Date, default=None)
    date_to: Mapped[date | None] = mapped_column(Date, default=None)
    # A relative range by name (schemas.RelativeRange); None: the period is date_from..date_to.
    relative_range: Mapped[str | None] = mapped_column(String(24), default=None)
    combined: Mapped[bool] = mapped_column(Boolean, default=False)
    workflow_shift: Mapped[str] = mapped_column(String(64), default="all")
    selected_machines: Mapped[list[Any]] = mapped_column(JSON, default=list)
    onboarding_watched: Mapped[bool] = mapped_column(Boolean, default=False)
    dashboard_layout: Mapped[list[Any] | None] = mapped_column(JSON, default=None)


class ApiToken(Base):
    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utc_now)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), default=None)
    last_used_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), default=None)


class PageView(Base):
    """Usage statistics of the frontend: which page, which role; never which person."""

    __tablename__ = "page_views"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utc_now, index=True)
    role: Mapped[str] = mapped_column(String(20))
    path: Mapped[str] = mapped_column(String(500))


class AuditEntry(Base):
    """One change made through the Administration API or the command line, or a user's change
    of their own password: who, when, what, before and after (never a password, token or
    hash)."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utc_now, index=True)
    # Kept when the user is deleted: ``actor`` still names who it was.
    actor_user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    actor: Mapped[str] = mapped_column(String(320))  # email, or the OS user for "cli"
    via: Mapped[str] = mapped_column(String(10))  # "web" or "cli"
    action: Mapped[str] = mapped_column(String(64), index=True)
    entity_type: Mapped[str] = mapped_column(String(32))
    entity_id: Mapped[str | None] = mapped_column(String(64), default=None)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class RederiveJob(Base):
    """A background re-derivation of stored facts from the raw messages (ingest/rederive.py);
    kept here so a page reload or a restart finds it."""

    __tablename__ = "rederive_jobs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utc_now)
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), default=None)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), default=None)
    state: Mapped[str] = mapped_column(String(16), default="queued")  # queued/running/done/failed
    reason: Mapped[str] = mapped_column(String(32))  # workflowRules/vehicleSite/loadActionTypes
    # No foreign key: a finished job still names the site it was for.
    site_id: Mapped[int | None] = mapped_column(Integer, default=None)
    vehicle_ids: Mapped[list[Any]] = mapped_column(JSON, default=list)
    frames_total: Mapped[int] = mapped_column(Integer, default=0)
    frames_done: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(String, default=None)
    created_by: Mapped[str] = mapped_column(String(320))
