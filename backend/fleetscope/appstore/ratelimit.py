"""Failed-login limiter: a sliding one-minute window per key (email and client address)."""

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable

Clock = Callable[[], float]


class LoginRateLimiter:
    """Counts failures per key; a key with ``max_failures`` in the window is blocked.

    In memory and per process: enough for one server process, and it forgets on restart,
    which only ever errs towards letting a legitimate user in.
    """

    def __init__(
        self,
        *,
        max_failures: int,
        window_seconds: float = 60.0,
        clock: Clock = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self._max_failures = max_failures
        self._window = window_seconds
        self._clock = clock
        self._max_keys = max_keys
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        failures = self._failures.get(key)
        if failures is None:
            return deque()
        while failures and failures[0] <= now - self._window:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return failures

    def retry_after(self, keys: Iterable[str]) -> float:
        """Seconds until every key may try again; 0 when none is blocked."""
        now = self._clock()
        wait = 0.0
        with self._lock:
            for key in keys:
                failures = self._recent(key, now)
                if len(failures) >= self._max_failures:
                    wait = max(wait, failures[0] + self._window - now)
        return wait

    def record_failure(self, keys: Iterable[str]) -> None:
        now = self._clock()
        with self._lock:
            if len(self._failures) >= self._max_keys:
                self._prune(now)
            for key in keys:
                self._recent(key, now)
                self._failures.setdefault(key, deque()).append(now)

    def _prune(self, now: float) -> None:
        for key in list(self._failures):
            self._recent(key, now)
        # Under a flood of distinct keys, forget the oldest rather than grow without bound.
        while len(self._failures) >= self._max_keys:
            del self._failures[next(iter(self._failures))]
