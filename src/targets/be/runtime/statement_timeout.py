"""A statement timeout on every transaction, set so that PgBouncer lets it through.

PostgreSQL cancels a statement that runs past ``statement_timeout``, and the request is
answered 503 with ``Retry-After`` (see :mod:`errors`). Sent as a startup parameter of
the connection, the setting is refused by PgBouncer in transaction pooling; set with a
plain ``SET``, it would stay on a server connection PgBouncer hands to other clients.
So every transaction sets it with ``SET LOCAL``, in the message that carries its
``BEGIN``: one round trip, as before. Statements run outside a transaction (the
single autocommit statements of rate limits and revocations) are not bounded.
"""

from typing import Any

from asyncpg import Connection


def timed_connection(milliseconds: int) -> type[Connection]:
    """An asyncpg connection class (``connect_args={"connection_class": ...}``) whose
    transactions let each statement run at most *milliseconds*."""
    setting = f"SET LOCAL statement_timeout = {int(milliseconds)};"

    class TimedConnection(Connection):
        async def execute(
            self, query: str, *args: Any, timeout: float | None = None
        ) -> str:
            # A transaction starts with asyncpg's "BEGIN ...;" as a simple query, which
            # may hold several statements: the setting rides along.
            if not args and query.startswith("BEGIN"):
                query = f"{query} {setting}"
            return await super().execute(query, *args, timeout=timeout)

    return TimedConnection
