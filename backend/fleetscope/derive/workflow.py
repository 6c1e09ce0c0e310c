"""Workflow of an order: VDA 5050 has none, so a site's ordered rules derive it from the id."""

from fleetscope.derive.config import WORKFLOW_GROUP, WorkflowRule

UNASSIGNED = "unassigned"


def resolve_workflow(order_id: str, rules: tuple[WorkflowRule, ...]) -> str:
    """The ``workflow`` group of the first rule that matches ``order_id``; else unassigned."""
    for rule in rules:
        match = rule.regex.search(order_id)
        if match is not None:
            workflow = match.group(WORKFLOW_GROUP)
            if workflow:
                return workflow
    return UNASSIGNED
