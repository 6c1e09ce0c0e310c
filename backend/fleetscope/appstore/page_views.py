"""Page views, the original spec's page analytics event: which page and which role, never
which person, and bounded like everything a client can write.

- A user records at most ``per_minute`` page views a minute (``PageViewBudget``, in memory
  and per process, keyed by user id only while the minute lasts): the web app sends one per
  page it shows, so a client that sends more is not counting pages.
- A page view is kept for ``retention``; older ones are swept when the next one is stored,
  as expired sessions are at a login.
"""

import threading
import time
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import delete
from sqlalchemy.orm import Session

from fleetscope.appstore.models import PageView, utc_now

WINDOW_SECONDS = 60.0


class PageViewBudget:
    """At most ``per_minute`` page views per user in each minute since the user's first."""

    def __init__(
        self,
        *,
        per_minute: int,
        max_users: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._per_minute = per_minute
        self._max_users = max_users
        self._clock = clock
        self._windows: dict[int, tuple[float, int]] = {}  # user id -> (window start, count)
        self._lock = threading.Lock()

    @property
    def per_minute(self) -> int:
        return self._per_minute

    def take(self, user_id: int) -> float | None:
        """None when the user may record one more page view (counted), else the seconds
        until the user's minute ends."""
        now = self._clock()
        with self._lock:
            start, count = self._windows.get(user_id, (now, 0))
            if now - start >= WINDOW_SECONDS:
                start, count = now, 0
            if count >= self._per_minute:
                return start + WINDOW_SECONDS - now
            if user_id not in self._windows and len(self._windows) >= self._max_users:
                # Bounded memory: windows that have ended are forgotten first.
                self._windows = {
                    user: window
                    for user, window in self._windows.items()
                    if now - window[0] < WINDOW_SECONDS
                }
            self._windows[user_id] = (start, count + 1)
            return None


def record_page_view(session: Session, *, role: str, path: str, retention: timedelta) -> None:
    """Store one page view (without its query string, which may carry personal data) and
    sweep those older than ``retention``."""
    now = utc_now()
    session.execute(delete(PageView).where(PageView.at < now - retention))
    session.add(PageView(at=now, role=role, path=path.split("?", 1)[0]))
    session.commit()
