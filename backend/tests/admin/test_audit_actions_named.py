"""Every action the audit log records has a name in the Administration app, in English and
German (the app shows the name and, beside it, the code the action filter takes)."""

import ast
import json
from pathlib import Path

import fleetscope

SOURCES = Path(fleetscope.__file__).parent
TRANSLATIONS = Path(__file__).parents[3] / "frontend" / "src" / "i18n"


def _constants(node: ast.expr) -> list[str]:
    """The text constants ``node`` may be (``"a"``, or ``"a" if ... else "b"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    return []


def _action_value(node: ast.AST) -> ast.expr | None:
    """What ``node`` gives as the action: ``action=...`` in a call, or ``action = ...``."""
    if isinstance(node, ast.keyword) and node.arg == "action":
        return node.value
    if isinstance(node, ast.Assign) and any(
        isinstance(target, ast.Name) and target.id == "action" for target in node.targets
    ):
        return node.value
    return None


def recorded_actions() -> set[str]:
    """The actions the backend passes as ``action=`` or assigns to ``action``."""
    found: set[str] = set()
    for path in SOURCES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (value := _action_value(node)) is not None:
                found.update(_constants(value))
    return {action for action in found if "." in action}


def test_every_recorded_action_is_named_in_both_languages() -> None:
    actions = recorded_actions()
    assert {"site.update", "user.deactivate", "deadLetter.reingest"} <= actions
    for language in ("en", "de"):
        names = json.loads((TRANSLATIONS / f"{language}.json").read_text(encoding="utf-8"))
        named = names["admin"]["audit"]["actions"]
        missing = [
            action
            for action in sorted(actions)
            if not isinstance(named.get(action.split(".")[0], {}).get(action.split(".")[1]), str)
        ]
        assert missing == [], f"{language}: no name for {missing}"
