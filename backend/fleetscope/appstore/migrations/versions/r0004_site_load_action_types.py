"""Site load-handling action types

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25

A site may name its own load-handling action types (product.md section 3, "loads handled":
VDA 5050's pick, drop, load and unload, and the site's own). Existing sites have none.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "sites",
        sa.Column("load_action_types", sa.JSON(), nullable=False, server_default="[]"),
    )


def downgrade() -> None:
    # Python's sqlite3 opens its transaction at the first data statement, and runs schema
    # statements before it on their own: a statement that changes no row opens it, so that
    # the column comes back if a later step of the same downgrade fails.
    op.execute("UPDATE sites SET load_action_types = '[]' WHERE 1 = 0")
    # A plain DROP COLUMN (SQLite 3.35+ and PostgreSQL): batch mode would rebuild ``sites``
    # on SQLite, and dropping the old table cascades to the vehicles that reference it.
    op.drop_column("sites", "load_action_types")
