"""Alembic environment: migrations run in-process on a connection handed over by ``db.migrate``."""

from alembic import context
from sqlalchemy.engine import Connection

from fleetscope.appstore.models import Base


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite cannot ALTER most things; batch mode rebuilds tables in later revisions.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through fleetscope.appstore.db.migrate, not the alembic CLI")
run_migrations(connection)
