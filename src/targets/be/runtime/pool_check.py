"""Connections the database closed are discarded as they leave the pool, at no cost.

PostgreSQL closes its end of a connection when it restarts or terminates a backend, and
so does PgBouncer when it restarts or drops an idle client. While the connection waits
in the pool, the event loop reads that close and asyncpg marks the connection closed; a
checkout finding it so makes the pool discard it with every connection older than it
and hand the request a new one. A restarted database is so never seen by clients.

SQLAlchemy's ``pool_pre_ping`` gives the same guarantee by sending a ping on every
checkout: on asyncpg three round trips (``BEGIN``, a statement, ``ROLLBACK``), the most
expensive part of a request that reads one row. A ping would catch one case more, a
connection dropped without a word (a firewall forgetting it), but there it waits as
long as the request's own statement would, and saves nothing.
"""

from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import InvalidatePoolError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection


def _discard_if_closed(
    dbapi_connection: Any,
    entry: ConnectionPoolEntry,
    proxy: PoolProxiedConnection,
) -> None:
    connection = entry.driver_connection
    if connection is not None and connection.is_closed():
        # The pool retries the checkout on a new connection.
        raise InvalidatePoolError("the database closed this connection")


def discard_closed_connections(engine: AsyncEngine) -> None:
    """Replace *engine*'s connections the database closed as they leave its pool."""
    event.listen(engine.sync_engine, "checkout", _discard_if_closed)
