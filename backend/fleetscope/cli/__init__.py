"""The ``fleetscope`` command line: one module per command group."""
