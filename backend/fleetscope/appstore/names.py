"""When two names are the same: trimmed and in any case, as the Administration app compares
them (its shift editor: ``name.trim().toLowerCase()``).

Organizations, the sites of an organization, the vehicles of a site and the shifts of a
site each need names of their own: a name is what users pick them by. The comparison runs
in Python, not in SQL: SQLite's ``lower()`` folds ASCII letters only ("Ä" stays "Ä"), so
the same query would find different duplicates on SQLite and on PostgreSQL.
"""

from collections.abc import Iterable


def name_key(name: str) -> str:
    """What two names that count as the same have in common."""
    return name.strip().lower()


def name_taken(names: Iterable[str], *, name: str) -> str | None:
    """The first of ``names`` that is ``name`` in this sense, as it is written; None if none."""
    key = name_key(name)
    return next((other for other in names if name_key(other) == key), None)
