"""Temporary passwords

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26

A password an administrator sets (a new user's, a reset) is temporary until the user chooses
their own (``POST /v2/User/password``); the page then stops asking them to. Existing users
keep the password they have, as their own.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "users",
        sa.Column("password_temporary", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    # As in 0004: a statement that changes no row opens the transaction first, and a plain
    # DROP COLUMN keeps SQLite from rebuilding ``users`` (which would cascade to sessions).
    op.execute("UPDATE users SET password_temporary = false WHERE 1 = 0")
    op.drop_column("users", "password_temporary")
