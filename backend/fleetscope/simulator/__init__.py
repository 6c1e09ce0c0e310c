"""Deterministic VDA 5050 fleet simulator with ground truth (product.md section 6)."""

from fleetscope.simulator.engine import FleetSimulation, TimedMessage, merged_messages, simulate
from fleetscope.simulator.truth import Truth, load_truth, write_truth
from fleetscope.simulator.warehouse import default_scenario

__all__ = [
    "FleetSimulation",
    "TimedMessage",
    "Truth",
    "default_scenario",
    "load_truth",
    "merged_messages",
    "simulate",
    "write_truth",
]
