"""Loads handled (product.md section 3): VDA 5050's pick, drop, load and unload in any case,
and the site's own load-handling action types (``Site.load_action_types``), marked by the
derivation on each action and counted in the rollups."""

from datetime import timedelta
from typing import Any

import orjson

from fleetscope.appstore.models import Site
from fleetscope.facts.store import FactStore
from fleetscope.ingest.messages import RawMessage

from .conftest import IngestEnv
from .vda import T0, state, topic

TYPES = ("Pick", "UNLOAD", "stack", "Stack", "shelve", "load")


def _actions(status: str) -> list[dict[str, Any]]:
    return [
        {"actionId": f"a{n}", "actionType": kind, "actionStatus": status}
        for n, kind in enumerate(TYPES)
    ]


def _messages() -> list[RawMessage]:
    """A first state, the actions RUNNING, then FINISHED but the last (``load``) FAILED."""
    finished = _actions("FINISHED")
    finished[-1]["actionStatus"] = "FAILED"
    payloads = []
    for header_id, actions in enumerate(([], _actions("RUNNING"), finished), start=1):
        payload = state("S1", header_id, T0 + timedelta(seconds=5 * header_id))
        payloads.append(payload | {"actionStates": actions})
    return [
        RawMessage(topic=topic("S1", "state"), payload=orjson.dumps(p), received_at=T0)
        for p in payloads
    ]


def test_the_sites_own_load_handling_types_count(ingest_env: IngestEnv, store: FactStore) -> None:
    with ingest_env.session_factory() as session:
        site = session.get(Site, ingest_env.site_a)
        assert site is not None and site.load_action_types == []
        site.load_action_types = ["stack"]
        session.commit()
    outcome = ingest_env.pipeline(store).process(_messages())
    assert outcome.rejected == 0
    cursor = store.cursor()
    try:
        marked = cursor.execute(
            "SELECT action_type, status, load_handling FROM actions ORDER BY action_id"
        ).fetchall()
        loads = cursor.execute("SELECT sum(loads_handled) FROM rollup_hourly").fetchall()
    finally:
        cursor.close()
    assert marked == [
        ("Pick", "FINISHED", True),
        ("UNLOAD", "FINISHED", True),
        ("stack", "FINISHED", True),
        ("Stack", "FINISHED", True),
        ("shelve", "FINISHED", False),
        ("load", "FAILED", True),
    ]
    assert loads == [(4,)]  # the finished ones: Pick, UNLOAD, stack, Stack
