"""Vehicle identity per site

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25

A vehicle is identified by (site, manufacturer, serialNumber) instead of manufacturer and
serialNumber alone: two tenants may each run a vehicle of the same manufacturer and serial
number, and neither can capture, block or detect the other's. Every existing row stays
valid (unique per installation is unique per site). The downgrade refuses while a serial
number exists at two sites, rather than dropping one of them.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Batch mode: SQLite rebuilds the table to change a constraint; PostgreSQL alters it.
    with op.batch_alter_table("vehicles") as batch:
        batch.drop_constraint(op.f("uq_vehicles_manufacturer_serial_number"), type_="unique")
        batch.create_unique_constraint(
            op.f("uq_vehicles_site_id_manufacturer_serial_number"),
            ["site_id", "manufacturer", "serial_number"],
        )


def downgrade() -> None:
    # Checked first: SQLite would otherwise leave the half-built copy of the table behind.
    twin = (
        op.get_bind()
        .execute(
            sa.text(
                "SELECT manufacturer, serial_number FROM vehicles"
                " GROUP BY manufacturer, serial_number HAVING count(*) > 1"
            )
        )
        .first()
    )
    if twin is not None:
        raise RuntimeError(
            f"cannot downgrade: vehicle {twin[0]}/{twin[1]} exists at several sites; "
            "delete or rename all but one first"
        )
    with op.batch_alter_table("vehicles") as batch:
        batch.drop_constraint(
            op.f("uq_vehicles_site_id_manufacturer_serial_number"), type_="unique"
        )
        batch.create_unique_constraint(
            op.f("uq_vehicles_manufacturer_serial_number"), ["manufacturer", "serial_number"]
        )
