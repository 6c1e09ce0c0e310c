"""Administration: audit log, re-derivation jobs, last login and last token use

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25

The Administration app (issue 25) keeps an audit log of every change made through it or the
command line, and the background re-derivation jobs a change of workflow rules or of a
vehicle's site starts; users know when they last logged in and API tokens when they were
last used. Existing rows get NULL for the new columns (never logged in, never used).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_user_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=320), nullable=False),
        sa.Column("via", sa.String(length=10), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("entity_type", sa.String(length=32), nullable=False),
        sa.Column("entity_id", sa.String(length=64), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["actor_user_id"],
            ["users.id"],
            name=op.f("fk_audit_log_actor_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index(op.f("ix_audit_log_at"), "audit_log", ["at"], unique=False)
    op.create_index(op.f("ix_audit_log_action"), "audit_log", ["action"], unique=False)
    op.create_table(
        "rederive_jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("site_id", sa.Integer(), nullable=True),
        sa.Column("vehicle_ids", sa.JSON(), nullable=False),
        sa.Column("frames_total", sa.Integer(), nullable=False),
        sa.Column("frames_done", sa.Integer(), nullable=False),
        sa.Column("error", sa.String(), nullable=True),
        sa.Column("created_by", sa.String(length=320), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rederive_jobs")),
    )
    # Plain ADD COLUMN of a nullable column: no table rebuild on SQLite.
    op.add_column("users", sa.Column("last_login_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "api_tokens", sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True)
    )


def downgrade() -> None:
    # See 0004: a statement that changes no row opens sqlite3's transaction first, so the
    # schema statements below are undone together if one of them fails.
    op.execute("UPDATE users SET last_login_at = NULL WHERE 1 = 0")
    # Plain DROP COLUMN (SQLite 3.35+ and PostgreSQL): batch mode would rebuild ``users``
    # on SQLite, and dropping the old table cascades to every row that references it.
    op.drop_column("api_tokens", "last_used_at")
    op.drop_column("users", "last_login_at")
    op.drop_table("rederive_jobs")
    op.drop_index(op.f("ix_audit_log_action"), table_name="audit_log")
    op.drop_index(op.f("ix_audit_log_at"), table_name="audit_log")
    op.drop_table("audit_log")
