"""Application store: tenants, users, sessions and settings, through SQLAlchemy 2."""
