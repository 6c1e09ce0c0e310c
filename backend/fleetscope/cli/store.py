"""Shared by the command groups: a migrated store session and errors that end in exit code 1."""

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from sqlalchemy.orm import Session

from fleetscope.appstore.db import store_session
from fleetscope.appstore.errors import StoreError
from fleetscope.settings import get_settings


def fail(message: str) -> typer.Exit:
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    return typer.Exit(code=1)


@contextmanager
def cli_store() -> Iterator[Session]:
    """A session on the configured store; a ``StoreError`` becomes a clear message and exit 1."""
    with store_session(get_settings()) as session:
        try:
            yield session
        except StoreError as exc:
            session.rollback()
            raise fail(exc.msg) from None
