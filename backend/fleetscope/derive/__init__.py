"""Derivation: per-vehicle state machine from normalized VDA 5050 messages to facts (pure).

Rules: product.md section 2; policies for duplicates, order, offline and errors: README.md.
"""

from fleetscope.derive.actions import LOAD_HANDLING_TYPES
from fleetscope.derive.config import DEFAULT_WORKFLOW_RULE, DerivationConfig, WorkflowRule
from fleetscope.derive.machine import VehicleDeriver
from fleetscope.derive.ordering import in_derivation_order
from fleetscope.derive.stats import DeriverStats
from fleetscope.derive.workflow import UNASSIGNED, resolve_workflow

__all__ = [
    "DEFAULT_WORKFLOW_RULE",
    "LOAD_HANDLING_TYPES",
    "UNASSIGNED",
    "DerivationConfig",
    "DeriverStats",
    "VehicleDeriver",
    "WorkflowRule",
    "in_derivation_order",
    "resolve_workflow",
]
