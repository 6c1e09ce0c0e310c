"""Failures page area: Pareto, MTBF/MTTR, failure map and error history."""
