"""The MQTT client id of this installation: configured, or made once and kept in the data dir.

A broker keys a persistent session by the client id alone, so two installations with the
same id on one broker take each other's session and messages. Unless
``FLEETSCOPE_MQTT_CLIENT_ID`` is set, the first start makes ``fleetscope-`` followed by 12
random hex digits (23 characters: the length every MQTT broker must accept) and keeps it in
``<data_dir>/mqtt-client-id``, readable by its owner only, so restarts find their session.
"""

import logging
import os
import secrets
from pathlib import Path

log = logging.getLogger(__name__)

CLIENT_ID_FILE = "mqtt-client-id"
_PREFIX = "fleetscope-"
_MAX_LENGTH = 65_535  # MQTT strings carry a two-byte length


def installation_client_id(data_dir: Path) -> str:
    """The id kept in ``data_dir``; made there (atomically) if there is none yet."""
    path = data_dir / CLIENT_ID_FILE
    if path.exists():
        return _read(path)
    data_dir.mkdir(parents=True, exist_ok=True)
    made = f"{_PREFIX}{secrets.token_hex(6)}"
    draft = data_dir / f".{CLIENT_ID_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(made + "\n")
            file.flush()
            os.fsync(file.fileno())
        # A hard link appears complete or not at all and never replaces an existing file:
        # of two processes starting at once, both end up with the id of the first.
        os.link(draft, path)
    except FileExistsError:
        return _read(path)
    finally:
        draft.unlink(missing_ok=True)
    log.info("made MQTT client id %s for this installation (kept in %s)", made, path)
    return made


def resolve_client_id(*, configured: str, data_dir: Path) -> str:
    return configured or installation_client_id(data_dir)


def _read(path: Path) -> str:
    client_id = path.read_text(encoding="utf-8").strip()
    if not client_id or len(client_id.encode()) > _MAX_LENGTH or "\n" in client_id:
        raise RuntimeError(
            f"{path} does not hold an MQTT client id: delete it (a new id means a new broker "
            "session) or set FLEETSCOPE_MQTT_CLIENT_ID"
        )
    return client_id
