"""What generated routes need of their database, and whether a database has it.

The generated ``database.py`` lists it as one sequence of ``MetaData``: the
PostgreSQL extensions the queries use (``extensions_metadata``, first), then the
tables of the models and of the runtime (``idempotency_keys``…), with the indexes
the lists rely on attached to them. Alembic's env compares a database with that
sequence, ``create_all`` of each creates it, and ``DatabaseNeeds.missing`` finds what a
database lacks in one round of catalog queries: the application refuses to start
on such a database (``check_at_startup``), and its readiness route says the same.
"""

import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import DDL, Connection, MetaData, Table, event, inspect, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

EXTENSIONS = "postgresql_extensions"
"""The key of ``MetaData.info`` under which ``extensions_metadata`` lists them."""

# A message names at most this many missing things, then counts the rest.
_NAMED = 8

_log = logging.getLogger(__name__)


def extensions_metadata(names: Sequence[str]) -> MetaData:
    """A ``MetaData`` without tables that stands for the PostgreSQL extensions *names*.

    ``create_all`` on it runs ``CREATE EXTENSION IF NOT EXISTS`` for each: list it
    before the metadata whose indexes use them.
    """
    for name in names:
        if not name.isidentifier():
            raise ValueError(f"not an extension name: {name!r}")
    metadata = MetaData(info={EXTENSIONS: tuple(names)})
    for name in names:
        create = DDL(f'CREATE EXTENSION IF NOT EXISTS "{name}"')
        event.listen(metadata, "before_create", create)
    return metadata


def extensions_of(metadata: Iterable[MetaData]) -> tuple[str, ...]:
    """The extensions that the ``extensions_metadata`` among *metadata* stand for."""
    names: dict[str, None] = {}
    for each in metadata:
        names.update(dict.fromkeys(each.info.get(EXTENSIONS, ())))
    return tuple(names)


class DatabaseNotReady(RuntimeError):
    """The database lacks tables, columns, indexes or extensions the routes need."""


@dataclass(frozen=True)
class DatabaseNeeds:
    """What the routes of one database need of it.

    ``metadata``: the tables (with their indexes) and extensions; ``engine``: how to
    reach the database; ``url_env``: the variable holding its URL, to name it;
    ``replica_engines``: the engines of its replicas made so far (``replicas.py``),
    closed with it.
    """

    metadata: Sequence[MetaData]
    engine: Callable[[], AsyncEngine]
    url_env: str
    replica_engines: Callable[[], Iterable[AsyncEngine]] = tuple

    async def missing(self) -> list[str]:
        """What the database lacks (``"table idempotency_keys"``…), or nothing."""
        async with self.engine().connect() as connection:
            rows = await connection.execute(text("SELECT extname FROM pg_extension"))
            installed = set(rows.scalars())
            lacking = [
                f"extension {name}"
                for name in extensions_of(self.metadata)
                if name not in installed
            ]
            return lacking + await connection.run_sync(self._missing_schema)

    def _missing_schema(self, connection: Connection) -> list[str]:
        inspector = inspect(connection)
        by_schema: dict[str | None, list[Table]] = {}
        for metadata in self.metadata:
            for table in metadata.sorted_tables:
                by_schema.setdefault(table.schema, []).append(table)
        lacking: list[str] = []
        for schema, tables in by_schema.items():
            existing = {
                *inspector.get_table_names(schema=schema),
                *inspector.get_view_names(schema=schema),
                *inspector.get_materialized_view_names(schema=schema),
            }
            lacking += [f"table {t.fullname}" for t in tables if t.name not in existing]
            present = [table.name for table in tables if table.name in existing]
            if not present:
                continue
            columns = inspector.get_multi_columns(schema=schema, filter_names=present)
            indexes = inspector.get_multi_indexes(schema=schema, filter_names=present)
            for table in tables:
                if table.name not in existing:
                    continue
                key = (schema, table.name)
                have = {column["name"] for column in columns.get(key, [])}
                lacking += [
                    f"column {table.fullname}.{column.name}"
                    for column in table.columns
                    if column.name not in have
                ]
                have = {index["name"] for index in indexes.get(key, [])}
                lacking += [
                    f"index {index.name}"
                    for index in table.indexes
                    if isinstance(index.name, str) and index.name not in have
                ]
        return lacking

    def describe(self, lacking: Sequence[str]) -> str:
        """One line: what the database lacks, and the commands that create it."""
        named = ", ".join(lacking[:_NAMED])
        if len(lacking) > _NAMED:
            named += f" and {len(lacking) - _NAMED} more"
        return (
            f"the database in {self.url_env} lacks what the routes need: {named}. "
            "Apply the migrations with `alembic upgrade head`; when none creates "
            "them, write one with `alembic revision --autogenerate` first"
        )

    async def check(self) -> None:
        """Raise ``DatabaseNotReady`` when the database lacks something.

        A database that does not answer is not checked: the application starts,
        and its readiness route answers 503 until the database answers.
        """
        try:
            lacking = await self.missing()
        except (OSError, TimeoutError, DBAPIError) as error:
            _log.warning(
                "not checking the database in %s at startup: %s", self.url_env, error
            )
            return
        if lacking:
            raise DatabaseNotReady(self.describe(lacking))


def check_at_startup(
    *databases: DatabaseNeeds,
) -> Callable[[Any], AbstractAsyncContextManager[None]]:
    """A lifespan that refuses to start while one of *databases* lacks something."""

    @asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        for database in databases:
            await database.check()
        yield

    return lifespan
