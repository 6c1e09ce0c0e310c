"""Failed-login throttling that slows an attacker down without locking the real user out.

Failures are counted in sliding windows (one minute by default) under three keys:

- the client address, whatever the account: ``max_failures`` refuse that address, so one
  address guessing passwords, or trying many accounts, is stopped quickly;
- the account at one client address: ``max_failures`` refuse that pair; while the account is
  under attack (``attack_threshold`` failures from all addresses together) only
  ``budget_under_attack`` each, so many addresses guessing one account are slowed down;
- the account, from every address: only counted, to notice such an attack. It never refuses
  by itself: the right password from an address without failures of its own is always
  checked, whoever else is guessing.

An attempt is counted as a failure when it is admitted and taken back when it succeeds, so
simultaneous guesses cannot slip past the count while their passwords are being checked.
In memory and per process: enough for one server process, and it forgets on restart, which
only ever errs towards letting a legitimate user in.
"""

import ipaddress
import threading
import time
from collections.abc import Callable

Clock = Callable[[], float]

ATTACK_THRESHOLD_FACTOR = 2  # account failures from all addresses, in units of max_failures
BUDGET_UNDER_ATTACK_DIVISOR = 5  # an address's budget for an account under attack
IPV6_CLIENT_PREFIX = 64  # one IPv6 subscriber usually holds a whole /64


def client_key(host: str) -> str:
    """The address a client is counted under: IPv6 by its /64, anything else as it is."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(address)


class LoginRateLimiter:
    def __init__(
        self,
        *,
        max_failures: int,
        window_seconds: float = 60.0,
        clock: Clock = time.monotonic,
        max_keys: int = 50_000,
    ) -> None:
        self._max_failures = max_failures
        self._attack_threshold = max_failures * ATTACK_THRESHOLD_FACTOR
        self._budget_under_attack = max(1, max_failures // BUDGET_UNDER_ATTACK_DIVISOR)
        self._window = window_seconds
        self._clock = clock
        # Bounded memory: each window holds at most its limit of times, and under a flood
        # of distinct keys the oldest keys are forgotten.
        self._max_keys = max_keys
        self._failures: dict[tuple[str, ...], list[float]] = {}
        self._lock = threading.Lock()

    @property
    def tracked_keys(self) -> int:
        """Windows held in memory (at most ``max_keys``)."""
        return len(self._failures)

    def admit(self, *, account: str, address: str) -> float:
        """Seconds to wait when refused; 0 when admitted, which counts as a failure until
        ``succeeded`` takes it back."""
        now = self._clock()
        by_address = ("address", client_key(address))
        by_pair = ("pair", account, client_key(address))
        by_account = ("account", account)
        with self._lock:
            under_attack = len(self._recent(by_account, now)) >= self._attack_threshold
            pair_budget = self._budget_under_attack if under_attack else self._max_failures
            wait = max(
                self._wait(by_address, now, budget=self._max_failures),
                self._wait(by_pair, now, budget=pair_budget),
            )
            if wait > 0:
                return wait
            self._count(by_address, now, cap=self._max_failures)
            self._count(by_pair, now, cap=self._max_failures)
            self._count(by_account, now, cap=self._attack_threshold)
        return 0.0

    def succeeded(self, *, account: str, address: str) -> None:
        """The admitted attempt was right: not a failure, and this pair starts afresh."""
        with self._lock:
            self._failures.pop(("pair", account, client_key(address)), None)
            for key in (("address", client_key(address)), ("account", account)):
                times = self._failures.get(key)
                if times:
                    times.pop()
                if not times:
                    self._failures.pop(key, None)

    def _recent(self, key: tuple[str, ...], now: float) -> list[float]:
        times = self._failures.get(key)
        if times is None:
            return []
        expired = 0
        while expired < len(times) and times[expired] <= now - self._window:
            expired += 1
        if expired:
            del times[:expired]
        if not times:
            del self._failures[key]
        return times

    def _wait(self, key: tuple[str, ...], now: float, *, budget: int) -> float:
        """Seconds until ``key`` has fewer than ``budget`` failures in the window."""
        times = self._recent(key, now)
        if len(times) < budget:
            return 0.0
        return times[len(times) - budget] + self._window - now

    def _count(self, key: tuple[str, ...], now: float, *, cap: int) -> None:
        times = self._recent(key, now)
        if not times:
            if len(self._failures) >= self._max_keys:
                self._prune(now)
            times = self._failures[key] = []
        times.append(now)
        if len(times) > cap:
            del times[: len(times) - cap]

    def _prune(self, now: float) -> None:
        for key in list(self._failures):
            self._recent(key, now)
        while len(self._failures) >= self._max_keys:
            del self._failures[next(iter(self._failures))]
