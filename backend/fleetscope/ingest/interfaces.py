"""Keeps the MQTT subscriptions on the sites' interfaces while the server runs.

A site created with an MQTT interface, or given a new one, is heard without a restart: the
watcher looks at the sites every ``interval_s`` (changes made from the command line or by
another server) and at once when woken (the Administration API changed a site). Each look
subscribes to the interfaces added since and unsubscribes from those no site has any more,
and makes the registry read the interface's site again.
"""

import logging
import threading
from collections.abc import Sequence
from typing import Protocol

from sqlalchemy import select

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import Site

log = logging.getLogger(__name__)


class Subscriber(Protocol):
    def follow(self, interfaces: Sequence[str]) -> None: ...


class InterfaceCache(Protocol):
    def forget_interfaces(self) -> None: ...


def followed_interfaces(session_factory: SessionFactory, *, default_interface: str) -> list[str]:
    """The interfaces the server subscribes: the installation's default and every site's."""
    with session_factory() as session:
        names = session.scalars(select(Site.mqtt_interface).where(Site.mqtt_interface.is_not(None)))
        return [default_interface, *(name for name in names if name)]


class InterfaceWatcher:
    def __init__(
        self,
        *,
        subscriber: Subscriber,
        registry: InterfaceCache,
        session_factory: SessionFactory,
        default_interface: str,
        interval_s: float = 30.0,
    ) -> None:
        self._subscriber = subscriber
        self._registry = registry
        self._sessions = session_factory
        self._default_interface = default_interface
        self._interval_s = interval_s
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(
            target=self._loop, name="fleetscope-mqtt-interfaces", daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """Look at the sites now instead of at the next interval."""
        self._wake.set()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(5.0)

    def refresh(self) -> None:
        self._registry.forget_interfaces()
        self._subscriber.follow(
            followed_interfaces(self._sessions, default_interface=self._default_interface)
        )

    def _loop(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(self._interval_s)
            self._wake.clear()
            if self._stopping.is_set():
                return
            try:
                self.refresh()
            except Exception:
                # The app store is away for a moment: the subscriptions stay as they are.
                log.exception("MQTT: cannot read the sites' interfaces")
