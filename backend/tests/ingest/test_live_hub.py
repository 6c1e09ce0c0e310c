"""The live hub: statuses published by the ingest thread reach asyncio subscribers."""

import asyncio
import threading
from datetime import UTC, datetime

from fleetscope.facts.model import LiveStatus, VehicleState
from fleetscope.ingest.live import LiveHub

NOW = datetime(2026, 1, 12, 8, 0, tzinfo=UTC)


def _status(vehicle_id: int, charge: float) -> LiveStatus:
    return LiveStatus(
        vehicle_id=vehicle_id, state=VehicleState.WORKING, since=NOW, last_message_at=NOW,
        order_id="T-1", workflow="T", charge=charge, charging=False, active_errors=(),
        x=1.0, y=2.0, map_id="hall",
    )  # fmt: skip


def test_statuses_from_another_thread_reach_the_subscriber() -> None:
    hub = LiveHub()

    async def consume() -> list[LiveStatus]:
        subscription = hub.subscribe()
        publisher = threading.Thread(
            target=hub.publish, args=([_status(1, 50.0), _status(2, 60.0)],)
        )
        publisher.start()
        received = [await asyncio.wait_for(subscription.get(), 1) for _ in range(2)]
        publisher.join()
        hub.unsubscribe(subscription)
        return received

    received = asyncio.run(consume())
    assert [s.vehicle_id for s in received] == [1, 2]
    assert set(hub.latest()) == {1, 2}


def test_a_slow_subscriber_keeps_the_newest_updates() -> None:
    hub = LiveHub()

    async def consume() -> list[float | None]:
        subscription = hub.subscribe(max_size=2)
        hub.publish([_status(1, float(charge)) for charge in range(5)])
        await asyncio.sleep(0.01)  # let the loop run the hand-over
        return [(await subscription.get()).charge for _ in range(2)]

    assert asyncio.run(consume()) == [3.0, 4.0]
