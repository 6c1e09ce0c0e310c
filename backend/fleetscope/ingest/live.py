"""In-process pub/sub of live vehicle statuses for server push (statusboard).

The ingest worker thread publishes after each committed batch; subscribers are asyncio
consumers (e.g. a server-sent-events handler) that get their own bounded queue. A slow
consumer loses its oldest updates instead of growing memory: the newest status per vehicle
is what a statusboard needs, and ``latest()`` gives the full picture on (re)connect.
"""

import asyncio
import threading
from collections.abc import Iterable

from fleetscope.facts.model import LiveStatus

DEFAULT_QUEUE_SIZE = 1000


class LiveSubscription:
    def __init__(self, *, loop: asyncio.AbstractEventLoop, max_size: int) -> None:
        self.loop = loop
        self.queue: asyncio.Queue[LiveStatus] = asyncio.Queue(maxsize=max_size)

    def _put(self, statuses: tuple[LiveStatus, ...]) -> None:
        for status in statuses:
            if self.queue.full():
                self.queue.get_nowait()
            self.queue.put_nowait(status)

    async def get(self) -> LiveStatus:
        return await self.queue.get()


class LiveHub:
    def __init__(self) -> None:
        self._subscriptions: set[LiveSubscription] = set()
        self._latest: dict[int, LiveStatus] = {}
        self._lock = threading.Lock()

    def subscribe(self, *, max_size: int = DEFAULT_QUEUE_SIZE) -> LiveSubscription:
        """Call from the event loop that will consume the queue."""
        subscription = LiveSubscription(loop=asyncio.get_running_loop(), max_size=max_size)
        with self._lock:
            self._subscriptions.add(subscription)
        return subscription

    def unsubscribe(self, subscription: LiveSubscription) -> None:
        with self._lock:
            self._subscriptions.discard(subscription)

    def latest(self) -> dict[int, LiveStatus]:
        with self._lock:
            return dict(self._latest)

    def publish(self, statuses: Iterable[LiveStatus]) -> None:
        """Thread-safe; never blocks the ingest worker."""
        batch = tuple(statuses)
        if not batch:
            return
        with self._lock:
            for status in batch:
                self._latest[status.vehicle_id] = status
            subscriptions = tuple(self._subscriptions)
        for subscription in subscriptions:
            try:
                subscription.loop.call_soon_threadsafe(subscription._put, batch)
            except RuntimeError:  # its loop is closed: the consumer is gone
                self.unsubscribe(subscription)
