"""Vehicles out of service

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29

An administrator retires a vehicle that left the fleet (sold, scrapped): from then on it has
no live tile and is not part of "all machines" for periods after that day, while its history
and any message it still sends are kept. Every existing vehicle is in service.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("vehicles", sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # As in 0006: open the transaction with a statement that changes no row, and drop the
    # column plainly, so that SQLite does not rebuild ``vehicles``.
    op.execute("UPDATE vehicles SET retired_at = NULL WHERE 1 = 0")
    op.drop_column("vehicles", "retired_at")
