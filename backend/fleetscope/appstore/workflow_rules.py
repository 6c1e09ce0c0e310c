"""A site's workflow rules (product.md section 2): checked before they are saved, and
previewed against the site's recent order ids.

Both use the derivation's own code (``derive.config.WorkflowRule`` decides what a valid rule
is, ``derive.workflow.resolve_workflow`` which workflow an order id gets), so the preview is
exactly what the derivation will do with the same rules.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb

from fleetscope.appstore.errors import InvalidInputError
from fleetscope.derive.config import (
    DEFAULT_WORKFLOW_RULE,
    WORKFLOW_GROUP,
    WorkflowRule,
    compile_rule_pattern,
)
from fleetscope.derive.workflow import UNASSIGNED, resolve_workflow
from fleetscope.i18n import Message
from fleetscope.i18n.admin_messages import (
    TOO_MANY_WORKFLOW_RULES,
    WORKFLOW_RULE_EMPTY,
    WORKFLOW_RULE_INVALID,
    WORKFLOW_RULE_INVALID_SOMEWHERE,
    WORKFLOW_RULE_NO_GROUP,
    WORKFLOW_RULE_TOO_LONG,
    WORKFLOW_RULE_UNSUPPORTED,
)

MAX_RULES = 100
MAX_PATTERN_LENGTH = 500
PREVIEW_ORDERS = 1_000  # product.md section 4: "the site's recent orderIds"


def rule_problem(pattern: str, *, index: int) -> Message | None:
    """Why ``pattern`` cannot be a workflow rule (naming ``workflowRules[index]``), or None."""
    if not pattern.strip():
        return WORKFLOW_RULE_EMPTY(index=index)
    if len(pattern) > MAX_PATTERN_LENGTH:
        return WORKFLOW_RULE_TOO_LONG(index=index, limit=MAX_PATTERN_LENGTH)
    try:
        regex = compile_rule_pattern(pattern)
    except ValueError as refused:
        # Python's own parser finds a syntax error's position; a pattern it accepts uses
        # what RE2 leaves out to stay linear (lookarounds, backreferences). Its reason is
        # English only, so the message names the position alone.
        try:
            re.compile(pattern)
        except re.error as error:
            if error.pos is None:
                return WORKFLOW_RULE_INVALID_SOMEWHERE(index=index)
            return WORKFLOW_RULE_INVALID(index=index, position=error.pos)
        # RE2's reason is English ("invalid perl operator: (?<="): only the part of the
        # pattern it names after the colon is quoted, in either language.
        fragment = str(refused).rpartition(": ")[2] or pattern
        return WORKFLOW_RULE_UNSUPPORTED(index=index, fragment=fragment[:40])
    if WORKFLOW_GROUP not in regex.groupindex:
        return WORKFLOW_RULE_NO_GROUP(index=index)
    return None


def validate_workflow_rules(rules: Sequence[str]) -> list[str]:
    """The rules as given, or a 422 naming the first invalid one by its index."""
    if len(rules) > MAX_RULES:
        raise InvalidInputError(TOO_MANY_WORKFLOW_RULES(limit=MAX_RULES))
    for index, pattern in enumerate(rules):
        problem = rule_problem(pattern, index=index)
        if problem is not None:
            raise InvalidInputError(problem)
    return list(rules)


@dataclass(frozen=True, slots=True)
class RulePreview:
    index: int
    pattern: str
    error: Message | None
    matched: int  # order ids this rule assigns (the first matching rule wins)


@dataclass(frozen=True, slots=True)
class OrderPreview:
    order_id: str
    workflow: str | None  # None: unassigned
    rule_index: int | None  # None: unassigned, or assigned by the default rule


@dataclass(frozen=True, slots=True)
class WorkflowPreview:
    rules: list[RulePreview]
    orders: list[OrderPreview]
    assigned: int
    unassigned: int
    # No valid rule: the derivation applies its default rule (``derivation_config``).
    default_rule_applies: bool


def preview_workflows(*, rules: Sequence[str], order_ids: Sequence[str]) -> WorkflowPreview:
    """Which rule assigns which workflow to each of ``order_ids``; invalid rules are reported
    with their problem and left out, as the derivation leaves them out."""
    problems = [rule_problem(pattern, index=index) for index, pattern in enumerate(rules)]
    valid = [
        (index, WorkflowRule(pattern))
        for index, (pattern, problem) in enumerate(zip(rules, problems, strict=True))
        if problem is None
    ]
    default_applies = not valid
    matched = [0] * len(rules)
    orders: list[OrderPreview] = []
    for order_id in order_ids:
        if default_applies:
            workflow = resolve_workflow(order_id, (DEFAULT_WORKFLOW_RULE,))
            orders.append(
                OrderPreview(order_id, None if workflow == UNASSIGNED else workflow, None)
            )
            continue
        found = OrderPreview(order_id, None, None)
        # Rule by rule with the derivation's own resolver: the first rule that assigns a
        # workflow is the one ``resolve_workflow`` over all rules would use.
        for index, rule in valid:
            workflow = resolve_workflow(order_id, (rule,))
            if workflow != UNASSIGNED:
                found = OrderPreview(order_id, workflow, index)
                matched[index] += 1
                break
        orders.append(found)
    unassigned = sum(1 for order in orders if order.workflow is None)
    return WorkflowPreview(
        rules=[
            RulePreview(index, pattern, problem, matched[index])
            for index, (pattern, problem) in enumerate(zip(rules, problems, strict=True))
        ],
        orders=orders,
        assigned=len(orders) - unassigned,
        unassigned=unassigned,
        default_rule_applies=default_applies,
    )


def recent_order_ids(
    cursor: duckdb.DuckDBPyConnection, *, vehicle_ids: Sequence[int], limit: int = PREVIEW_ORDERS
) -> list[str]:
    """The distinct order ids of these vehicles' stored orders, most recently started first."""
    if not vehicle_ids:
        return []
    rows = cursor.execute(
        "SELECT order_id FROM orders WHERE vehicle_id IN (SELECT unnest(?::INTEGER[]))"
        " GROUP BY order_id ORDER BY max(start_at) DESC, order_id LIMIT ?",
        [list(vehicle_ids), limit],
    ).fetchall()
    return [str(row[0]) for row in rows]
