"""HTTP API (FastAPI): thin route handlers over the logic modules."""
