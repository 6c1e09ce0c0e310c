"""Facts derived from VDA 5050 messages and the DuckDB store that keeps them."""
