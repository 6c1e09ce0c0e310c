"""Store files readable by their owner only: folders 0700, files 0600.

The stores hold every fleet's data, password hashes and session tokens; other accounts on
the machine have no business reading them. SQLite gives its WAL and shared-memory files the
mode of the database file, so a database created 0600 stays private. DuckDB creates its WAL
with the process's umask: the server runs with ``restrict_new_files`` for that.
"""

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
OWNER_ONLY_UMASK = 0o077


def restrict_new_files() -> None:
    """Every file and folder this process creates from now on is its owner's alone."""
    os.umask(OWNER_ONLY_UMASK)


def private_dir(path: Path, *, tighten: bool = False) -> None:
    """Create ``path`` (and missing parents) as 0700. An existing folder keeps its mode
    unless ``tighten``: a store may be placed in a folder that is not Fleetscope's own."""
    existed = path.is_dir()
    path.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    if tighten or not existed:
        path.chmod(PRIVATE_DIR_MODE)


def private_file(path: Path) -> None:
    """Create ``path`` empty as 0600 unless it exists, else make it 0600 (an older store)."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_FILE_MODE))
    except FileExistsError:
        make_private_if_present(path)


def make_private_if_present(*paths: Path) -> None:
    for path in paths:
        try:
            path.chmod(PRIVATE_FILE_MODE)
        except FileNotFoundError:
            continue
        except PermissionError:
            # Another account's file that this one may write: the operator's arrangement.
            log.warning("cannot make %s readable by its owner only: not its owner", path)
