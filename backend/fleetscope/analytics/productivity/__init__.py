"""Productivity page area: KPIs, history, heatmap, dashboard and statusboard."""
