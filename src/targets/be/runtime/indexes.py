"""Creating the extensions and indexes generated lists rely on.

The generated ``indexes.py`` lists them (ordering, search, reference filters) as
SQLAlchemy ``Index`` objects with the extensions they need; projects usually create
them in a migration, and tests and benchmarks with these two functions. Importing
``indexes.py`` attaches the indexes to their tables, so ``metadata.create_all`` creates
them too: create the extensions before it.
"""

from collections.abc import Sequence

from sqlalchemy import Connection, Index, text
from sqlalchemy.ext.asyncio import AsyncConnection


async def create_extensions(connection: AsyncConnection, names: Sequence[str]) -> None:
    """``CREATE EXTENSION IF NOT EXISTS`` each of *names*."""
    for name in names:
        if not name.isidentifier():
            raise ValueError(f"not an extension name: {name!r}")
        await connection.execute(text(f'CREATE EXTENSION IF NOT EXISTS "{name}"'))


async def create_indexes(connection: AsyncConnection, indexes: Sequence[Index]) -> None:
    """Create each of *indexes* unless it exists."""

    def create(sync: Connection) -> None:
        for index in indexes:
            index.create(sync, checkfirst=True)

    await connection.run_sync(create)
