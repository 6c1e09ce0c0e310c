"""Every action and entity type the audit log records has a name in the Administration app,
in English and German: the app shows the name beside the code, and offers the names as the
filters' choices. What the backend may record is ``AuditAction`` (mypy holds every caller
of ``audit.record`` to it); the catalogues name exactly these."""

import json
from pathlib import Path
from typing import get_args

import pytest

from fleetscope.appstore.audit import AuditAction, EntityType

TRANSLATIONS = Path(__file__).parents[3] / "frontend" / "src" / "i18n"


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_recorded_action_is_named(language: str) -> None:
    names = json.loads((TRANSLATIONS / f"{language}.json").read_text(encoding="utf-8"))
    audit = names["admin"]["audit"]
    named = {f"{entity}.{verb}" for entity, verbs in audit["actions"].items() for verb in verbs}
    assert sorted(named) == sorted(get_args(AuditAction))
    assert sorted(audit["entities"]) == sorted(get_args(EntityType))
    # The action's entity type is its first part.
    assert {action.split(".")[0] for action in named} <= set(audit["entities"])
