"""One SQL statement on its own pooled connection, in autocommit.

Copied into a generated tree beside the helpers that keep shared state in PostgreSQL
outside the request's transaction (rate limits, revoked tokens): what they write stands
whatever the request does, and a single statement is atomic without BEGIN/COMMIT. Their
tables are created on first use, by ``create_table``.
"""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from .errors import sqlstate

UNDEFINED_TABLE = "42P01"


async def autocommit(
    engine: AsyncEngine,
    statement: str,
    parameters: dict[str, Any],
    *,
    creating: tuple[str, Sequence[str]] | None = None,
) -> list[Any]:
    """Run *statement* on a connection of its own; the rows it returns, if any.

    With ``creating=(table, statements)``, a statement that finds no such table
    creates it (see ``create_table``) and runs again.
    """
    try:
        return await _autocommit(engine, statement, parameters)
    except DBAPIError as error:
        if creating is None or sqlstate(error) != UNDEFINED_TABLE:
            raise
    await create_table(engine, *creating)
    return await _autocommit(engine, statement, parameters)


async def create_table(
    engine: AsyncEngine, table: str, statements: Sequence[str]
) -> None:
    """Run *statements* (``CREATE … IF NOT EXISTS``) creating *table*."""
    async with engine.begin() as connection:
        # Concurrent CREATE TABLE IF NOT EXISTS can still collide: one at a time.
        await connection.execute(
            text("SELECT pg_advisory_xact_lock(hashtext(:t))"), {"t": table}
        )
        for statement in statements:
            await connection.execute(text(statement))


async def _autocommit(
    engine: AsyncEngine, statement: str, parameters: dict[str, Any]
) -> list[Any]:
    async with engine.connect() as connection:
        connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
        result = await connection.execute(text(statement), parameters)
        return list(result.all()) if result.returns_rows else []
