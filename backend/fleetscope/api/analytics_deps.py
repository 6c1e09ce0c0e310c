"""Dependencies shared by the analytics routes: query parameters, scope, fact store."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated

import duckdb
from fastapi import Depends, Query, Request

from fleetscope.analytics.core.params import AnalyticsParams, AnalyticsScope, resolve_scope
from fleetscope.analytics.core.sql import read_snapshot
from fleetscope.api.deps import (
    AuthenticatedDep,
    SessionDep,
    refuse_repeated_parameters,
    release_connection,
)
from fleetscope.api.errors import ApiError
from fleetscope.appstore.models import User
from fleetscope.facts.store import FactStore
from fleetscope.i18n.messages import FACT_STORE_NOT_OPEN

# The model's fields are the query parameters, validated by FastAPI (a 422 naming the field).
ParamsDep = Annotated[AnalyticsParams, Query()]
# The query parameters an analytics request may repeat (any of several levels); any other
# given twice is refused, rather than read as its last value.
REPEATABLE_PARAMETERS = frozenset({"level"})


@dataclass(frozen=True, slots=True)
class Scoped:
    """The scope with its user, for the routes that need both (the CSV's language)."""

    user: User
    scope: AnalyticsScope


def get_scoped(
    authenticated: AuthenticatedDep, db: SessionDep, params: ParamsDep, request: Request
) -> Scoped:
    # The session first, as a dependency of its own: FastAPI checks the query parameters
    # only after it, so a caller without a valid session hears "authentication failed"
    # (401), never which parameter is malformed (422), whatever it sends.
    refuse_repeated_parameters(request, repeatable=REPEATABLE_PARAMETERS)
    user = authenticated.user
    scope = resolve_scope(db, user=user, params=params)
    release_connection(db)  # no connection held while the handler waits for its thread
    return Scoped(user=user, scope=scope)


ScopedDep = Annotated[Scoped, Depends(get_scoped)]


async def get_scope(scoped: ScopedDep) -> AnalyticsScope:
    return scoped.scope


ScopeDep = Annotated[AnalyticsScope, Depends(get_scope)]


async def get_fact_store(request: Request) -> FactStore:
    ingestion = getattr(request.app.state, "ingestion", None)
    if ingestion is None:
        raise ApiError(503, FACT_STORE_NOT_OPEN())
    store: FactStore = ingestion.store
    return store


FactStoreDep = Annotated[FactStore, Depends(get_fact_store)]


@contextmanager
def reading(store: FactStore) -> Iterator[duckdb.DuckDBPyConnection]:
    """A cursor whose statements all read one snapshot (``read_snapshot``), closed after."""
    # The outer ``with`` closes the cursor also when the snapshot could not begin.
    with store.cursor() as cursor, read_snapshot(cursor, closing=True):
        yield cursor
