"""The admission lanes message by message: places, a bounded queue, refusals, and fairness
between callers (api/admission.py). The server under overload: test_overload.py."""

import asyncio
from collections.abc import Awaitable, Callable

from starlette.types import Scope

from fleetscope.api.admission import Lane, LaneLimits, caller_of


def _run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())


async def _queued(lane: Lane, caller: str) -> "asyncio.Task[bool]":
    """A request of ``caller`` waiting in the lane (the lane is full)."""
    task = asyncio.create_task(lane.enter(caller=caller))
    await asyncio.sleep(0)
    assert not task.done()
    return task


def test_a_caller_alone_has_every_place_and_the_whole_queue_in_order() -> None:
    async def scenario() -> None:
        lane = Lane("analytics", LaneLimits(in_progress=2, queue=2, wait_s=30.0))
        assert await lane.enter(caller="a") and await lane.enter(caller="a")
        first = await _queued(lane, "a")
        second = await _queued(lane, "a")
        assert lane.waiting == 2
        assert await lane.enter(caller="a") is False  # queue full: refused at once
        lane.leave(caller="a")
        await asyncio.sleep(0)
        assert await first is True and not second.done()
        lane.leave(caller="a")
        assert await second is True
        assert (lane.in_progress, lane.admitted, lane.refused) == (2, 4, 1)

        hurried = Lane("api", LaneLimits(in_progress=1, queue=5, wait_s=0.01))
        assert await hurried.enter(caller="a")
        assert await hurried.enter(caller="a") is False  # its wait ran out
        assert hurried.waiting == 0

    _run(scenario)


def test_a_freed_place_goes_to_the_waiting_caller_that_holds_the_fewest() -> None:
    async def scenario() -> None:
        lane = Lane("analytics", LaneLimits(in_progress=2, queue=10, wait_s=30.0))
        assert await lane.enter(caller="burst") and await lane.enter(caller="burst")
        burst = [await _queued(lane, "burst") for _ in range(3)]
        other = await _queued(lane, "other")

        lane.leave(caller="burst")  # the burst still holds one place, the other none
        assert await other is True
        assert not any(task.done() for task in burst)
        lane.leave(caller="other")  # now only the burst waits: in its own order
        assert await burst[0] is True and not burst[1].done()
        lane.leave(caller="burst")
        lane.leave(caller="burst")
        assert await burst[1] is True and await burst[2] is True
        assert (lane.in_progress, lane.waiting, lane.refused) == (2, 0, 0)

    _run(scenario)


def test_a_newcomer_at_a_full_queue_takes_the_newest_place_of_the_largest_caller() -> None:
    async def scenario() -> None:
        lane = Lane("analytics", LaneLimits(in_progress=1, queue=2, wait_s=30.0))
        assert await lane.enter(caller="burst")
        oldest = await _queued(lane, "burst")
        newest = await _queued(lane, "burst")
        assert await lane.enter(caller="burst") is False  # its own queue is full

        other = await _queued(lane, "other")
        assert await newest is False  # refused in favour of the other caller
        assert not oldest.done() and lane.waiting == 2 and lane.refused == 2

        # Two callers with one request waiting each: a third takes the place of the caller
        # that also holds the running one; a caller whose share is as small is refused.
        third = await _queued(lane, "third")
        assert await oldest is False
        assert await lane.enter(caller="fourth") is False
        lane.leave(caller="burst")
        assert await other is True
        lane.leave(caller="other")
        assert await third is True
        assert (lane.in_progress, lane.waiting, lane.admitted, lane.refused) == (1, 0, 3, 4)

    _run(scenario)


def test_a_request_that_goes_away_while_waiting_costs_no_place() -> None:
    async def scenario() -> None:
        lane = Lane("analytics", LaneLimits(in_progress=1, queue=3, wait_s=30.0))
        assert await lane.enter(caller="a")
        gone_before = await _queued(lane, "b")
        gone_before.cancel()
        await asyncio.sleep(0)
        assert lane.waiting == 0

        # Admitted, then cancelled before it could run: the place comes back.
        gone_after = await _queued(lane, "b")
        waiting = await _queued(lane, "c")
        lane.leave(caller="a")
        gone_after.cancel()
        await asyncio.sleep(0)
        assert await waiting is True
        assert (lane.in_progress, lane.waiting) == (1, 0)
        lane.leave(caller="c")
        assert lane.in_progress == 0
        assert await lane.enter(caller="d")

    _run(scenario)


def test_one_caller_holds_at_most_its_share_of_streams() -> None:
    async def scenario() -> None:
        streams = Lane("streams", LaneLimits(in_progress=10, queue=0, wait_s=1.0, per_caller=2))
        assert await streams.enter(caller="tv") and await streams.enter(caller="tv")
        assert await streams.enter(caller="tv") is False
        assert await streams.enter(caller="office")
        streams.leave(caller="tv")
        assert await streams.enter(caller="tv")

    _run(scenario)


def test_a_caller_at_its_share_waits_for_one_of_its_own_and_leaves_a_place_to_others() -> None:
    async def scenario() -> None:
        ingest = Lane("ingest", LaneLimits(in_progress=3, queue=5, wait_s=30.0, per_caller=2))
        assert await ingest.enter(caller="slow") and await ingest.enter(caller="slow")
        third = await _queued(ingest, "slow")  # a place is free, but not for this caller
        assert await ingest.enter(caller="site b")
        ingest.leave(caller="site b")
        assert not third.done()
        ingest.leave(caller="slow")
        assert await third is True
        assert (ingest.in_progress, ingest.waiting, ingest.refused) == (2, 0, 0)

    _run(scenario)


def _scope(*headers: tuple[bytes, bytes], client: tuple[str, int] | None = None) -> Scope:
    return {
        "type": "http",
        "path": "/v2/Analytics/Productivity",
        "headers": list(headers),
        "client": client,
    }


def test_the_caller_is_the_session_else_the_token_else_the_address() -> None:
    session = (b"cookie", b"fleetscope_session=s1; other=x")
    token = (b"authorization", b"Bearer t1")
    assert caller_of(_scope(session, token)) == "session s1"
    assert caller_of(_scope(token, client=("10.0.0.1", 5000))) == "token Bearer t1"
    assert caller_of(_scope(client=("10.0.0.1", 5000))) == "address 10.0.0.1"
    assert caller_of(_scope(session)) != caller_of(_scope((b"cookie", b"fleetscope_session=s2")))
