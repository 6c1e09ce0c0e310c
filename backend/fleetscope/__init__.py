"""Fleetscope: analytics for fleets of automated vehicles speaking VDA 5050."""

__version__ = "0.1.0"
