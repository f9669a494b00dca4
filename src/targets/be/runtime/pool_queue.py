"""Requests take a database's connections in the order they asked for them.

SQLAlchemy's async pool gives a connection that comes free to whichever task asks for
one next, not to the task that has waited longest: a request arriving while a
connection is free takes it, and the waiting request woken for that connection goes
back to the end of the line. Under load most requests were so served in milliseconds
while some waited seconds.

A request's session first waits its turn in a first-come, first-served queue with as
many places as the pool has connections, and keeps its place until the session is
closed: every session that reaches the pool then finds a connection free. A request
waits in the queue at most as long as it would wait in the pool (``pool_timeout``),
then fails as a pool timeout fails: a 503 (``errors.py``).
"""

import asyncio
from types import TracebackType
from weakref import WeakKeyDictionary

from sqlalchemy.exc import TimeoutError as PoolTimeoutError


class PoolQueue:
    """A first-come, first-served queue of *size* places in front of a pool, waited in
    for at most *timeout* seconds: ``async with`` the queue holds a place inside the
    block. (asyncio's semaphore serves its waiters in order.)"""

    def __init__(self, size: int, timeout: float) -> None:
        self.size = size
        self.timeout = timeout
        # An asyncio semaphore belongs to one event loop, and tests may run several.
        self._places: WeakKeyDictionary[
            asyncio.AbstractEventLoop, asyncio.Semaphore
        ] = WeakKeyDictionary()

    def _places_here(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        places = self._places.get(loop)
        if places is None:
            places = self._places[loop] = asyncio.Semaphore(self.size)
        return places

    async def __aenter__(self) -> None:
        places = self._places_here()
        if not places.locked():
            await places.acquire()  # a free place: taken without waiting or a timer
            return
        try:
            async with asyncio.timeout(self.timeout):
                await places.acquire()
        except TimeoutError:
            raise PoolTimeoutError(
                f"no database connection came free within {self.timeout} s"
            ) from None

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._places_here().release()
