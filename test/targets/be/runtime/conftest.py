"""Fixtures of the runtime helpers' tests: the database in ``TEST_DATABASE_URL``,
pgqueuer's tables in it, and a seeded table of items for the list helpers."""

import os
import socket
from collections.abc import AsyncIterator

import asyncpg
import pytest
import pytest_asyncio
from items import OWNERS, Base, seed_items
from pgqueuer import AsyncpgDriver, Queries
from runtime.queue import worker_dsn
from sqlalchemy import text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def engine() -> AsyncIterator[AsyncEngine]:
    """An engine on the test database (set by the node test that runs this suite)."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.fail("TEST_DATABASE_URL is not set", pytrace=False)
    engine = create_async_engine(url)
    yield engine
    await engine.dispose()


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def pgqueuer_engine(engine: AsyncEngine) -> AsyncEngine:
    """*engine*, with pgqueuer's tables installed in its database (once per run)."""
    connection = await asyncpg.connect(worker_dsn(engine.url.render_as_string(False)))
    try:
        queries = Queries(AsyncpgDriver(connection))
        if not await queries.has_table("pgqueuer"):
            await queries.install()
    finally:
        await connection.close()
    return engine


@pytest.fixture
def free_port() -> int:
    """A local TCP port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def items(engine: AsyncEngine) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Sessions on the seeded items table (:mod:`items`), with ``pg_trgm`` created;
    tests must not change the table."""
    async with engine.begin() as connection:
        await connection.execute(text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
        await connection.run_sync(Base.metadata.create_all)
    sessions = async_sessionmaker(engine, expire_on_commit=False)
    async with sessions() as session:
        session.add_all(OWNERS)
        await session.flush()
        session.add_all(seed_items())
        await session.commit()
    yield sessions
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)
