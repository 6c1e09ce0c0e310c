"""Workflow resolution from orderIds by ordered site rules."""

import pytest

from fleetscope.derive import DEFAULT_WORKFLOW_RULE, UNASSIGNED, WorkflowRule, resolve_workflow
from fleetscope.derive.config import DerivationConfig


@pytest.mark.parametrize(
    ("order_id", "workflow"),
    [
        ("TRANSPORT_A-000123", "TRANSPORT_A"),
        ("TRANSPORT_A_000123", "TRANSPORT_A"),
        ("picking.42", "picking"),
        ("A-1-2", "A-1"),
        ("AGV2-7", "AGV2"),
        ("TRANSPORT_A", UNASSIGNED),
        ("123", UNASSIGNED),
        ("ORDER123", UNASSIGNED),
        ("", UNASSIGNED),
    ],
)
def test_default_rule(order_id: str, workflow: str) -> None:
    assert resolve_workflow(order_id, (DEFAULT_WORKFLOW_RULE,)) == workflow


def test_rules_apply_in_order_and_empty_groups_do_not_match() -> None:
    rules = (
        WorkflowRule(r"^X(?P<workflow>\d*)-"),  # empty group for "X-..."
        WorkflowRule(r"^(?P<workflow>[A-Z]+)"),
    )
    assert resolve_workflow("X12-1", rules) == "12"
    assert resolve_workflow("X-1", rules) == "X"
    assert resolve_workflow("lower", rules) == UNASSIGNED
    assert resolve_workflow("TRANSPORT_A-1", ()) == UNASSIGNED


def test_invalid_rules_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="no named group"):
        WorkflowRule(r"^(\w+)-\d+$")
    with pytest.raises(ValueError, match="not a regular expression"):
        WorkflowRule(r"^(?P<workflow>[a-")
    # RE2 stays linear by leaving out lookarounds and backreferences.
    with pytest.raises(ValueError, match=r"invalid perl operator: \(\?<="):
        WorkflowRule(r"(?<=X)(?P<workflow>A)")
    with pytest.raises(ValueError, match=r"invalid escape sequence: \\1"):
        WorkflowRule(r"(?P<workflow>A)\1")


def test_offline_after_must_be_positive() -> None:
    from datetime import timedelta

    with pytest.raises(ValueError, match="positive"):
        DerivationConfig(offline_after=timedelta(0))
