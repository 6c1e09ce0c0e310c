"""Datetimes in snapshots: ISO 8601 strings, exact to the microsecond."""

from datetime import datetime


def dump_time(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def load_time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def load_time_required(value: str) -> datetime:
    return datetime.fromisoformat(value)
