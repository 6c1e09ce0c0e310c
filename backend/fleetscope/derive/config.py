"""Configuration of the derivation: offline timeout and a site's workflow rules."""

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

import re2

WORKFLOW_GROUP = "workflow"

log = logging.getLogger(__name__)

# RE2 refuses a bad pattern with an exception; its own log line on stderr would repeat it.
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False


class RuleMatch(Protocol):
    def group(self, name: str, /) -> str | None: ...


class RulePattern(Protocol):
    """The part of a compiled RE2 pattern (``re2._Regexp``, untyped) a rule uses."""

    @property
    def groupindex(self) -> Mapping[str, int]: ...

    def search(self, text: str, /) -> RuleMatch | None: ...


def compile_rule_pattern(pattern: str) -> RulePattern:
    r"""``pattern`` compiled by RE2, whose matching time grows linearly with the orderId
    whatever the pattern: a rule such as ``^(?P<workflow>(\w+)+)-\d+$``, which Python's
    backtracking ``re`` takes minutes for on a 30-character id without a dash, cannot stall
    the derivation of every site. RE2 has no lookarounds and no backreferences.
    Raises ``ValueError`` with RE2's reason."""
    try:
        regex: RulePattern = re2.compile(pattern, _RE2_OPTIONS)
    except re2.error as error:
        reason = error.args[0] if error.args else error
        text = reason.decode(errors="replace") if isinstance(reason, bytes) else str(reason)
        raise ValueError(text) from None
    return regex


@dataclass(frozen=True, slots=True)
class WorkflowRule:
    """A regular expression (RE2 syntax, ``compile_rule_pattern``) on the orderId with a
    named group ``workflow``.

    The pattern is searched, so anchor it with ``^``/``$`` to match whole ids.
    """

    pattern: str
    regex: RulePattern = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            regex = compile_rule_pattern(self.pattern)
        except ValueError as error:
            raise ValueError(
                f"workflow rule {self.pattern!r} is not a regular expression: {error}"
            ) from None
        if WORKFLOW_GROUP not in regex.groupindex:
            raise ValueError(
                f"workflow rule {self.pattern!r} has no named group (?P<{WORKFLOW_GROUP}>...)"
            )
        object.__setattr__(self, "regex", regex)


# "TRANSPORT_A-000123" -> "TRANSPORT_A": the orderId without a trailing separator and number.
DEFAULT_WORKFLOW_RULE = WorkflowRule(r"^(?P<workflow>.+?)[-_.:/#\s]\d+$")


@dataclass(frozen=True, slots=True)
class DerivationConfig:
    # VDA 5050 requires a state at least every 30 s; 65 s tolerates one lost message.
    offline_after: timedelta = timedelta(seconds=65)
    workflow_rules: tuple[WorkflowRule, ...] = (DEFAULT_WORKFLOW_RULE,)
    # The site's own load-handling action types in lower case, besides VDA 5050's
    # (``actions.LOAD_HANDLING_TYPES``): their finished actions are loads handled.
    load_action_types: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.offline_after <= timedelta(0):
            raise ValueError("offline_after must be positive")


def derivation_config(
    *,
    offline_after_s: float,
    workflow_rules: Sequence[Any],
    load_action_types: Sequence[Any] = (),
) -> DerivationConfig:
    """A site's workflow rules (patterns, or objects with a ``pattern``) and its own
    load-handling action types as derivation config.

    A site without valid rules gets the default rule (orderId without its trailing number).
    """
    rules = []
    for rule in workflow_rules:
        pattern = rule.get("pattern") if isinstance(rule, dict) else rule
        try:
            rules.append(WorkflowRule(str(pattern)))
        except ValueError as err:
            log.warning("ignoring a site's workflow rule: %s", err)
    return DerivationConfig(
        offline_after=timedelta(seconds=offline_after_s),
        workflow_rules=tuple(rules) or (DEFAULT_WORKFLOW_RULE,),
        load_action_types=frozenset(
            name for name in (str(kind).strip().lower() for kind in load_action_types) if name
        ),
    )
