"""Productivity page area: KPIs per vehicle and combined, the order heatmap, history."""
