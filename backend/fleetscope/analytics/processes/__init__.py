"""Processes page area: orders, workflows and actions."""
