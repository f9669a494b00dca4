"""One SQL statement on its own pooled connection, in autocommit.

Copied into a generated tree beside the helpers that keep shared state in PostgreSQL
outside the request's transaction (rate limits, revoked tokens): what they write stands
whatever the request does, and a single statement is atomic without BEGIN/COMMIT.
"""

from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine


async def autocommit(
    engine: AsyncEngine, statement: str, parameters: dict[str, Any]
) -> list[Any]:
    """Run *statement* on a connection of its own; the rows it returns, if any."""
    async with engine.connect() as connection:
        connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
        result = await connection.execute(text(statement), parameters)
        return list(result.all()) if result.returns_rows else []
