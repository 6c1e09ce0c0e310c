"""A private Mosquitto broker on 127.0.0.1 (tests, benchmarks, the demo).

Started with its own configuration file: a free port on loopback only, anonymous access,
no persistence file, log to stderr (Mosquitto started as root drops to the ``mosquitto``
user and could not write a log file into a root-owned folder; the inherited stderr file
descriptor keeps working). ``max_queued_messages`` is raised from Mosquitto's default of
1,000 so a persistent subscriber that is away for a while (Fleetscope restarting) does not
lose QoS 1 messages queued for it. ``max_inflight_messages`` stays at its default (20): it
limits clients that state no window of their own, while Fleetscope's MQTT 5 subscriber
asks for its window with the Receive Maximum of its CONNECT, which Mosquitto grants.
"""

import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import IO

DEFAULT_MAX_QUEUED = 1_000_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PrivateMosquitto:
    def __init__(
        self,
        *,
        workdir: Path,
        port: int | None = None,
        max_queued_messages: int = DEFAULT_MAX_QUEUED,
        executable: str = "mosquitto",
    ) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.max_queued_messages = max_queued_messages
        self.executable = executable
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.workdir / "mosquitto.log"

    def start(self, *, timeout_s: float = 10.0) -> None:
        binary = shutil.which(self.executable) or shutil.which(f"/usr/sbin/{self.executable}")
        if binary is None:
            raise RuntimeError(
                "mosquitto not found: install Debian's mosquitto package (make system-deps)"
            )
        self.workdir.mkdir(parents=True, exist_ok=True)
        config = self.workdir / "mosquitto.conf"
        config.write_text(
            f"listener {self.port} 127.0.0.1\n"
            "allow_anonymous true\n"
            "persistence false\n"
            "log_dest stderr\n"
            "log_type error\n"
            "log_type warning\n"
            f"max_queued_messages {self.max_queued_messages}\n"
        )
        self._log = self.log_path.open("wb")
        self._process = subprocess.Popen(
            [binary, "-c", str(config)], stdout=self._log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.log_path.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on port {self.port} in {timeout_s} s")

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> "PrivateMosquitto":
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()
