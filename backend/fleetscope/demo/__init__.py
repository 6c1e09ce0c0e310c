"""The demo installation: tenants, users and a simulated fleet."""
