"""pgqueuer companion: enqueue jobs in the request's transaction, run workers elsewhere.

``get_queue(session)`` binds pgqueuer to the connection of *session*, so a job is
written in the same transaction as the request's other changes: it exists if and
only if the session commits (the transactional outbox). Workers run with pgqueuer's
own CLI, ``pgq run module:factory``; ``open_worker_driver`` gives the factory a
driver for the same database, from the application's SQLAlchemy URL.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
from pgqueuer import AsyncpgDriver, Queries
from sqlalchemy import make_url
from sqlalchemy.ext.asyncio import AsyncSession


async def get_queue(session: AsyncSession) -> Queries:
    """pgqueuer queries that run on *session*'s connection, inside its transaction."""
    connection = await session.connection()
    driver_connection = (await connection.get_raw_connection()).driver_connection
    if not isinstance(driver_connection, asyncpg.Connection):
        raise TypeError(
            "get_queue needs a session on the asyncpg driver (postgresql+asyncpg://)"
        )
    if not driver_connection.is_in_transaction():
        # SQLAlchemy's asyncpg adapter sends BEGIN with the first statement; send one
        # now so the jobs below are written inside the session's transaction.
        await connection.exec_driver_sql("SELECT 1")
    return Queries(AsyncpgDriver(driver_connection))


def worker_dsn(url: str) -> str:
    """The plain ``postgresql://`` DSN asyncpg accepts, from a SQLAlchemy async URL."""
    return (
        make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    )


@asynccontextmanager
async def open_worker_driver(url: str) -> AsyncIterator[AsyncpgDriver]:
    """Open a connection for a pgqueuer worker; it is closed when the block exits."""
    connection = await asyncpg.connect(worker_dsn(url))
    try:
        yield AsyncpgDriver(connection)
    finally:
        await connection.close()
