"""Graceful shutdown behind a load balancer: drain first, then stop.

On SIGTERM uvicorn stops accepting connections at once, then waits for the requests in
flight (``--timeout-graceful-shutdown`` seconds at most). A balancer that has not yet
noticed would send new requests to a closed port. ``graceful_lifespan`` goes first:
SIGTERM makes ``draining()`` true, so the readiness route answers 503 and the balancer
takes the instance out of rotation while it still serves; after ``drain_seconds`` the
signal goes on to uvicorn, which finishes the requests in flight; then the lifespan
closes the pools of the databases it was given, their replicas' too. A second SIGTERM
while draining changes nothing; uvicorn's own handling of SIGINT (Ctrl-C) is untouched.
"""

import asyncio
import logging
import os
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from typing import Any

from .database import DatabaseNeeds

_log = logging.getLogger("uvicorn.error")

DRAIN_SECONDS = float(os.environ.get("SHUTDOWN_DRAIN_SECONDS", "5"))
"""Seconds readiness answers 503 before the server stops accepting: a few of the
balancer's health check intervals (``SHUTDOWN_DRAIN_SECONDS``; ``codegen dev`` sets 0,
so a reload does not wait)."""

_draining = False

# What add_signal_handler raises outside the main thread or on a loop without signals
# (NotImplementedError is a RuntimeError). Named, not written in the `except`: ruff
# formats `except (A, B):` without its parentheses for Python 3.14 on, with them before.
_NO_SIGNAL_HANDLERS = (ValueError, RuntimeError)


def draining() -> bool:
    """True once SIGTERM arrived: the instance is on its way out."""
    return _draining


def graceful_lifespan(
    *databases: DatabaseNeeds, drain_seconds: float = DRAIN_SECONDS
) -> Callable[[Any], AbstractAsyncContextManager[None]]:
    """A FastAPI ``lifespan`` that drains on SIGTERM, then closes *databases*' pools."""

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        global _draining
        _draining = False
        loop = asyncio.get_running_loop()
        # uvicorn's handler, installed before the lifespan starts.
        uvicorn_handler = signal.getsignal(signal.SIGTERM)

        def hand_over() -> None:
            loop.remove_signal_handler(signal.SIGTERM)
            signal.signal(signal.SIGTERM, uvicorn_handler)
            signal.raise_signal(signal.SIGTERM)

        def begin_drain() -> None:
            global _draining
            if not _draining:
                _draining = True
                loop.call_later(drain_seconds, hand_over)

        try:
            loop.add_signal_handler(signal.SIGTERM, begin_drain)
            watching = True
        except _NO_SIGNAL_HANDLERS:
            # Not in the main thread (a TestClient runs the app in a thread of its
            # own): signals go elsewhere, and there is nothing to drain.
            watching = False
        try:
            yield
        finally:
            if watching:
                with suppress(ValueError, RuntimeError):
                    if loop.remove_signal_handler(signal.SIGTERM):
                        signal.signal(signal.SIGTERM, uvicorn_handler)
            for database in databases:
                for engine in (database.engine(), *database.replica_engines()):
                    await engine.dispose()
            _log.info("Closed the database pools")

    return lifespan
