"""Dashboards menu area: the KPI dashboard and the live statusboard."""
