"""Engine, sessions and migrations of the application store (SQLite file or PostgreSQL)."""

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from fleetscope.private_files import make_private_if_present, private_dir, private_file
from fleetscope.settings import Settings

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

SessionFactory = sessionmaker[Session]
SQLITE_SIDES = ("-wal", "-shm", "-journal")  # files beside the database
# While another process opens the database's first connection or closes its last one, SQLite
# holds an exclusive lock for a moment (WAL recovery, clean-up) and answers "database is
# locked" at once, without its busy timeout (https://www.sqlite.org/wal.html, "Sometimes
# Queries Return SQLITE_BUSY In WAL Mode"). A new connection's first statements try again.
OPEN_ATTEMPTS = 100
OPEN_RETRY_SECONDS = 0.05


# Connections the pool keeps open between bursts; more are opened up to the capacity and
# closed again when returned.
KEPT_CONNECTIONS = 10
# Threads outside the request budget that use the store (ingestion's registry, start-up).
BACKGROUND_CONNECTIONS = 4
# Only reached if the capacity below is wrong: the request then fails (503) instead of
# waiting half a minute.
POOL_TIMEOUT_S = 10.0


def pool_capacity(settings: Settings) -> int:
    """Connections enough that no one ever waits for one: every worker thread may hold one,
    and so may every admitted request between two of its threads (a dependency's session
    lives until the response is sent). Waiting for a connection while holding a worker
    thread, with the connection holders waiting for a thread, is how 40 simultaneous
    requests once deadlocked the server for the pool's 30 s timeout."""
    admitted = settings.analytics_concurrency + settings.api_concurrency
    admitted += settings.ingest_concurrency
    return settings.worker_threads + admitted + BACKGROUND_CONNECTIONS


def create_db_engine(*, url: str, capacity: int = KEPT_CONNECTIONS + 10) -> Engine:
    """An engine for ``url`` with at most ``capacity`` connections; SQLite gets foreign
    keys, WAL and a busy timeout."""
    parsed = make_url(url)
    pool: dict[str, Any] = {
        "pool_size": min(KEPT_CONNECTIONS, capacity),
        "max_overflow": max(0, capacity - KEPT_CONNECTIONS),
        "pool_timeout": POOL_TIMEOUT_S,
    }
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True, **pool)
    in_memory = not parsed.database or parsed.database == ":memory:"
    if not in_memory:
        # Created 0600 before SQLite opens it: its WAL and shm files take the same mode.
        database = Path(str(parsed.database))
        private_dir(database.parent)
        private_file(database)
        make_private_if_present(*(database.with_name(database.name + s) for s in SQLITE_SIDES))
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        # An in-memory database is one connection per thread (SQLAlchemy's own choice).
        **({} if in_memory else pool),
    )

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        for attempt in range(1, OPEN_ATTEMPTS + 1):
            try:
                # Without this pragma SQLite ignores every ON DELETE rule of the schema.
                cursor.execute("PRAGMA foreign_keys=ON")
                # WAL lets the CLI write while the server reads.
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or attempt == OPEN_ATTEMPTS:
                    raise
                time.sleep(OPEN_RETRY_SECONDS)
        cursor.close()

    return engine


def engine_for(settings: Settings) -> Engine:
    return create_db_engine(url=settings.resolved_database_url(), capacity=pool_capacity(settings))


def make_session_factory(engine: Engine) -> SessionFactory:
    return sessionmaker(bind=engine, expire_on_commit=False)


# alembic is imported where migrations run, not at import: it is about half of this
# module's import time, which every spawned worker process (ingestion, demo fleet) pays.


def _alembic_config() -> "Config":
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


@cache
def head_revisions() -> frozenset[str]:
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(_alembic_config()).get_heads())


def migrate_engine(engine: Engine) -> None:
    """Bring the schema to the newest revision; a no-op when it is already there."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    with engine.begin() as connection:
        current = MigrationContext.configure(connection).get_current_heads()
        if frozenset(current) == head_revisions():
            return
        config = _alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def migrate(settings: Settings) -> None:
    engine = engine_for(settings)
    try:
        migrate_engine(engine)
    finally:
        engine.dispose()


@contextmanager
def store_session(settings: Settings) -> Iterator[Session]:
    """A migrated store and one session on it, for the command line and scripts."""
    engine = engine_for(settings)
    try:
        migrate_engine(engine)
        with make_session_factory(engine)() as session:
            yield session
    finally:
        engine.dispose()
