"""Server time of API calls, as the app reports it in its ``Server-Timing`` header (from the
request's arrival to the response head: auth, scope, queries and JSON; not the test client)."""

import statistics
import time
from typing import Any

from fastapi.testclient import TestClient


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p95 (nearest rank) of ``samples``."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def server_ms(headers: Any) -> float:
    """The ``app;dur=`` figure of a response's ``Server-Timing`` header, in milliseconds."""
    for metric in str(headers.get("server-timing", "")).split(","):
        name, _, duration = metric.strip().partition(";dur=")
        if name == "app":
            return float(duration)
    raise ValueError("the response has no Server-Timing app duration")


def measure_server(
    client: TestClient, path: str, params: dict[str, Any], repeat: int
) -> tuple[float, float, float]:
    """p50 and p95 of the server time over ``repeat`` calls after one warm-up, and the median
    CPU time of the process per call (on a shared machine: the cost without waiting)."""
    client.get(path, params=params).raise_for_status()
    samples, cpu = [], []
    for _ in range(repeat):
        started_cpu = time.process_time()
        response = client.get(path, params=params)
        cpu.append((time.process_time() - started_cpu) * 1000)
        response.raise_for_status()
        samples.append(server_ms(response.headers))
    return (*percentiles(samples), statistics.median(cpu))
