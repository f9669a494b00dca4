"""A statement timeout on every statement, sent as the connection allows.

PostgreSQL cancels a statement that runs past ``statement_timeout``, and the request is
answered 503 with ``Retry-After`` (see :mod:`errors`).

- ``time_connections``: on a connection of its own (the database itself, or PgBouncer in
  session pooling), the connection sets it once, with a plain ``SET`` as it opens: every
  statement it runs is bounded, in a transaction or in autocommit (the reads of the
  routes that only read, the single statements of rate limits and revocations), and no
  request pays a round trip for it. Not as a startup parameter (asyncpg's
  ``server_settings``), which PgBouncer refuses in every pooling mode.
- ``timed_connection``: behind PgBouncer in transaction pooling, which hands the server
  connection to other clients after each transaction, a session-level ``SET`` would
  reach them. There every transaction sets it with ``SET LOCAL``, in the message that
  carries its ``BEGIN``, no round trip of its own. Statements run outside a transaction
  are then not bounded, so there the routes that only read keep their transaction.
"""

from typing import Any

from asyncpg import Connection
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine


def time_connections(engine: AsyncEngine, milliseconds: int) -> None:
    """Have each connection *engine* opens let each statement run at most
    *milliseconds*."""
    setting = f"SET statement_timeout = {int(milliseconds)}"

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # On asyncpg itself, outside any transaction: a SET in one that rolls back
        # would be undone.
        dbapi_connection.run_async(lambda connection: connection.execute(setting))

    event.listen(engine.sync_engine, "connect", on_connect)


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
