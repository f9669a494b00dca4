"""Fixtures of the runtime helpers' tests: the database in ``TEST_DATABASE_URL``."""

import os
import socket
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def engine() -> AsyncIterator[AsyncEngine]:
    """An engine on the test database (set by the node test that runs this suite)."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.fail("TEST_DATABASE_URL is not set", pytrace=False)
    engine = create_async_engine(url)
    yield engine
    await engine.dispose()


@pytest.fixture
def free_port() -> int:
    """A local TCP port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
