"""Shared fixtures: settings on a temporary store, the app and a client, demo data, login.

Tests that use the app store run on SQLite and on a private PostgreSQL 15 server (started
once per session from Debian's ``postgresql`` package). Mark a test ``sqlite_only`` to run it
on SQLite alone; set ``FLEETSCOPE_SKIP_POSTGRES=1`` to skip PostgreSQL everywhere.
"""

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from alembic import command
from alembic.config import Config
from argon2 import PasswordHasher, profiles
from fastapi import FastAPI
from fastapi.testclient import TestClient
from psycopg import sql
from sqlalchemy import Engine

from fleetscope.api.deps import CSRF_COOKIE, CSRF_HEADER
from fleetscope.api.main import create_app
from fleetscope.appstore.db import (
    MIGRATIONS_DIR,
    SessionFactory,
    create_db_engine,
    migrate_engine,
)
from fleetscope.appstore.security import use_password_hasher
from fleetscope.demo.seed import DemoData, seed_demo
from fleetscope.settings import Settings

POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")
SKIP_POSTGRES = os.environ.get("FLEETSCOPE_SKIP_POSTGRES") == "1"

LoginFn = Callable[..., dict[str, Any]]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: run on the SQLite app store only")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_backend" not in metafunc.fixturenames:
        return
    backends: list[Any] = ["sqlite"]
    if not SKIP_POSTGRES and metafunc.definition.get_closest_marker("sqlite_only") is None:
        backends.append(pytest.param("postgres", marks=pytest.mark.postgres))
    metafunc.parametrize("db_backend", backends)


@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hashing() -> None:
    """Argon2's cheapest profile: the same code paths, milliseconds instead of 150 ms a hash."""
    use_password_hasher(PasswordHasher.from_parameters(profiles.CHEAPEST))


@dataclass(frozen=True)
class PostgresServer:
    host: str
    port: int
    user: str = "postgres"

    def url(self, database: str, *, driver: str = "postgresql+psycopg") -> str:
        return f"{driver}://{self.user}@{self.host}:{self.port}/{database}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _as_postgres_user() -> list[str]:
    # initdb refuses to run as root; CI and developers running unprivileged need no switch.
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A throw-away PostgreSQL 15 cluster on 127.0.0.1 and a free port, trust authentication."""
    initdb, pg_ctl = POSTGRES_BIN / "initdb", POSTGRES_BIN / "pg_ctl"
    if not initdb.exists() or not pg_ctl.exists():
        pytest.fail(
            f"PostgreSQL 15 server binaries not found in {POSTGRES_BIN}: install Debian's "
            "postgresql package (`make test-deps`) or set FLEETSCOPE_SKIP_POSTGRES=1",
            pytrace=False,
        )
    base = Path(tempfile.mkdtemp(prefix="fleetscope-pg-"))
    if os.geteuid() == 0:
        shutil.chown(base, user="postgres", group="postgres")
    data = base / "data"
    port = _free_port()
    as_user = _as_postgres_user()

    def run(*args: str) -> None:
        result = subprocess.run([*as_user, *args], capture_output=True, text=True, check=False)
        if result.returncode != 0:
            log = base / "server.log"
            server_log = log.read_text() if log.exists() else ""
            pytest.fail(
                f"{' '.join(args[:2])} failed:\n{result.stdout}{result.stderr}{server_log}",
                pytrace=False,
            )

    run(
        str(initdb),
        "-D",
        str(data),
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
        "--no-sync",
    )
    # Durability is pointless for test data: no fsync makes every test database cheap.
    options = f"-h 127.0.0.1 -p {port} -k {base} -c fsync=off -c synchronous_commit=off"
    options += " -c full_page_writes=off"
    run(
        str(pg_ctl),
        "-D",
        str(data),
        "-o",
        options,
        "-l",
        str(base / "server.log"),
        "-w",
        "-t",
        "60",
        "start",
    )
    try:
        yield PostgresServer(host="127.0.0.1", port=port)
    finally:
        subprocess.run(
            [*as_user, str(pg_ctl), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated, empty SQLite store; each test gets a copy (migrating anew costs ~0.2 s)."""
    path = tmp_path_factory.mktemp("store-template") / "fleetscope.sqlite"
    engine = create_db_engine(url=f"sqlite:///{path}")
    migrate_engine(engine)
    engine.dispose()
    return path


@pytest.fixture(scope="session")
def _postgres_store(postgres_server: PostgresServer) -> str:
    """One migrated PostgreSQL database for the session; each test starts on emptied tables."""
    name = "fleetscope_test"
    with psycopg.connect(
        postgres_server.url("postgres", driver="postgresql"), autocommit=True
    ) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    engine = create_db_engine(url=postgres_server.url(name))
    migrate_engine(engine)
    engine.dispose()
    return name


def _empty_postgres_tables(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        # A connection a previous test left in a transaction fails the test instead of hanging.
        connection.execute("SET lock_timeout = '10s'")
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename <> 'alembic_version'"
            )
        ]
        if tables:
            statement = sql.SQL("TRUNCATE TABLE {} RESTART IDENTITY CASCADE").format(
                sql.SQL(", ").join(sql.Identifier(table) for table in tables)
            )
            connection.execute(statement)


@pytest.fixture
def database_url(db_backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """An empty, migrated app store of the parametrized backend, private to the test."""
    if db_backend == "sqlite":
        template: Path = request.getfixturevalue("_sqlite_template")
        path = tmp_path / "fleetscope.sqlite"
        shutil.copyfile(template, path)
        return f"sqlite:///{path}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name: str = request.getfixturevalue("_postgres_store")
    _empty_postgres_tables(server.url(name, driver="postgresql"))
    return server.url(name)


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    """Test settings: data in ``tmp_path``, the parametrized store, no frontend build."""
    return Settings(
        _env_file=None,
        environment="test",
        data_dir=tmp_path / "data",
        database_url=database_url,
        frontend_dist=tmp_path / "no-frontend-build",
        mqtt_url="",
    )


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A client with the app started (store migrated); cookies persist between its calls."""
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def session_factory(app: FastAPI, client: TestClient) -> SessionFactory:
    """Sessions on the app's store (migrated by ``client``), for arranging and checking rows."""
    factory: SessionFactory = app.state.session_factory
    return factory


@pytest.fixture
def seeded(session_factory: SessionFactory) -> DemoData:
    """The demo tenants, vehicles and users (password ``demo``)."""
    with session_factory() as session:
        return seed_demo(session)


@pytest.fixture
def make_client(app: FastAPI, client: TestClient) -> Callable[[], TestClient]:
    """More clients on the same app: one per user when a test needs several sessions."""

    def _make() -> TestClient:
        return TestClient(app)

    return _make


def log_in(client: TestClient, email: str, password: str = "demo") -> dict[str, Any]:
    response = client.post("/v2/User/login", json={"email": email, "password": password})
    assert response.status_code == 200, response.text
    # The page echoes the CSRF cookie in a header on every state-changing call; so do tests.
    client.headers[CSRF_HEADER] = client.cookies[CSRF_COOKIE]
    user: dict[str, Any] = response.json()["data"]
    return user


@pytest.fixture
def login() -> LoginFn:
    """``login(client, email, password="demo")``: log in, set the CSRF header, get the user."""
    return log_in


@pytest.fixture
def empty_engine(
    db_backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Engine]:
    """An engine on a new, empty database of the backend (not the session's migrated one)."""
    if db_backend == "sqlite":
        engine = create_db_engine(url=f"sqlite:///{tmp_path}/fresh.sqlite")
        yield engine
        engine.dispose()
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = f"fleetscope_empty_{uuid.uuid4().hex[:8]}"
    admin_url = server.url("postgres", driver="postgresql")
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    engine = create_db_engine(url=server.url(name))
    yield engine
    engine.dispose()
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(name)))


def migrate_to(engine: Engine, revision: str, *, down: bool = False) -> None:
    """Upgrade (or ``down``grade) the app store behind ``engine`` to ``revision`` with Alembic."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)
