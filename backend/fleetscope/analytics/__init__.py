"""Analytics of the facts: one module per page area (params -> SQL -> typed result)."""
