"""Sessions waiting for a connection are served in the order they asked, which
SQLAlchemy's async pool alone does not do; a wait in the queue ends as a pool
timeout."""

import asyncio
import contextlib

import pytest
from pools import pool_of_one
from runtime.pool_queue import PoolQueue
from sqlalchemy import event, text
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncEngine

pytestmark = pytest.mark.asyncio(loop_scope="session")

WAITERS = 5


async def _served_order(pool: AsyncEngine, queue: PoolQueue | None) -> list[str]:
    """Who ran a statement in what order: one holder of the pool's only connection,
    WAITERS requests queued behind it, and a newcomer arriving the moment the holder
    gives the connection back (before the pool wakes the first waiter)."""
    served: list[str] = []
    release = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []

    async def request(name: str) -> None:
        async with contextlib.AsyncExitStack() as stack:
            if queue is not None:
                await stack.enter_async_context(queue)
            connection = await stack.enter_async_context(pool.connect())
            await connection.execute(text("SELECT 1"))
            served.append(name)
            if name == "holder":
                await release.wait()

    def on_checkin(*_: object) -> None:
        if release.is_set() and len(tasks) == WAITERS + 1:
            tasks.append(asyncio.get_running_loop().create_task(request("newcomer")))

    event.listen(pool.sync_engine.pool, "checkin", on_checkin)
    tasks.append(asyncio.create_task(request("holder")))
    for index in range(WAITERS):
        # Each waiter reaches the pool (or the queue) before the next one starts.
        await asyncio.sleep(0.05)
        tasks.append(asyncio.create_task(request(f"waiter {index}")))
    await asyncio.sleep(0.05)
    release.set()
    async with asyncio.timeout(30):
        while len(tasks) < WAITERS + 2:
            await asyncio.sleep(0.01)
        await asyncio.gather(*tasks)
    return served[1:]


async def test_the_pool_alone_serves_a_newcomer_before_those_waiting(
    engine: AsyncEngine,
) -> None:
    # Why the queue exists: a connection given back goes to whoever asks next.
    pool = pool_of_one(engine)
    try:
        served = await _served_order(pool, queue=None)
    finally:
        await pool.dispose()
    assert served[0] == "newcomer"


async def test_in_the_queue_those_waiting_are_served_first_in_order(
    engine: AsyncEngine,
) -> None:
    pool = pool_of_one(engine)
    try:
        served = await _served_order(pool, PoolQueue(1, timeout=10))
    finally:
        await pool.dispose()
    assert served == [f"waiter {index}" for index in range(WAITERS)] + ["newcomer"]


async def test_a_wait_past_the_timeout_is_a_pool_timeout() -> None:
    queue = PoolQueue(1, timeout=0.2)
    async with queue:
        with pytest.raises(PoolTimeoutError, match=r"within 0\.2 s"):
            async with queue:
                pytest.fail("entered a full queue")
    # The place given back is free again, and the timed-out wait took none.
    async with asyncio.timeout(1), queue:
        pass


async def test_each_event_loop_has_its_own_places() -> None:
    # A test suite may run the app on several loops, and an asyncio semaphore one loop
    # has waited on cannot be waited on from another.
    queue = PoolQueue(1, timeout=0.2)

    async def wait_behind_a_holder() -> None:
        async with queue:
            with pytest.raises(PoolTimeoutError):
                async with queue:
                    pytest.fail("entered a full queue")

    await wait_behind_a_holder()
    await asyncio.to_thread(asyncio.run, wait_behind_a_holder())
