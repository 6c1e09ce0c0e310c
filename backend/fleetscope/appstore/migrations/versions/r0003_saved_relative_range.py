"""Saved relative range

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25

A user's saved period may be a relative range by name ("yesterday", "last week", ...), so it
stays relative: the client turns the name into days for its own clock. Existing rows keep
their fixed period (the new column is empty).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("user_settings", sa.Column("relative_range", sa.String(length=24), nullable=True))


def downgrade() -> None:
    # Batch mode: SQLite rebuilds the table to drop a column; PostgreSQL alters it.
    with op.batch_alter_table("user_settings") as batch:
        batch.drop_column("relative_range")
