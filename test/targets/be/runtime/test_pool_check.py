"""A pooled connection the database closed is replaced as it leaves the pool: the
request that checks it out never sees the closed one, and nothing is sent for it."""

import asyncio
from typing import Any

import pytest
from asyncpg import Connection
from pools import pool_of_one
from runtime.pool_check import discard_closed_connections
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

pytestmark = pytest.mark.asyncio(loop_scope="session")

# How long the server may take to close a terminated backend's connection.
CLOSE_TIMEOUT_SECONDS = 10


class _Recording(Connection):
    """An asyncpg connection recording the queries it sends, by either protocol."""

    sent: list[str] = []

    async def execute(
        self, query: str, *args: Any, timeout: float | None = None
    ) -> str:
        self.sent.append(query)
        return await super().execute(query, *args, timeout=timeout)

    async def _execute(self, query: str, *args: Any, **kwargs: Any) -> Any:
        self.sent.append(query)
        return await super()._execute(query, *args, **kwargs)


def _recording_pool_of_one(engine: AsyncEngine) -> AsyncEngine:
    return pool_of_one(engine, connect_args={"connection_class": _Recording})


async def _backend(pool: AsyncEngine) -> tuple[int, Connection]:
    """The server process of the pool's connection, and the asyncpg connection."""
    async with pool.connect() as connection:
        pid = await connection.scalar(text("SELECT pg_backend_pid()"))
        raw = await connection.get_raw_connection()
        return pid, raw.driver_connection


async def _terminate(engine: AsyncEngine, pool: AsyncEngine) -> int:
    """Terminate the pool's connection on the server, and wait until the pool's side
    has seen it closed, as it has when the database restarted a while ago."""
    pid, driver = await _backend(pool)
    async with engine.connect() as connection:
        await connection.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    async with asyncio.timeout(CLOSE_TIMEOUT_SECONDS):
        while not driver.is_closed():
            await asyncio.sleep(0.01)
    return pid


async def test_a_closed_connection_is_replaced_before_use(engine: AsyncEngine) -> None:
    pool = _recording_pool_of_one(engine)
    discard_closed_connections(pool)
    try:
        closed = await _terminate(engine, pool)
        pid, _ = await _backend(pool)
        assert pid != closed
    finally:
        await pool.dispose()


async def test_without_the_check_the_closed_connection_fails(
    engine: AsyncEngine,
) -> None:
    pool = _recording_pool_of_one(engine)
    try:
        await _terminate(engine, pool)
        with pytest.raises(DBAPIError):
            await _backend(pool)
    finally:
        await pool.dispose()


async def test_a_checkout_sends_nothing(engine: AsyncEngine) -> None:
    pool = _recording_pool_of_one(engine)
    discard_closed_connections(pool)
    try:
        async with pool.connect():
            pass
        _Recording.sent.clear()
        async with pool.connect():
            assert _Recording.sent == []
    finally:
        await pool.dispose()
