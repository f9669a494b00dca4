"""Alembic's environment: migrations of ``shop.models`` over the async engine.

Autogenerate compares the database with every model of ``shop.models`` and
with what the generated API queries (``shop.web.database``, rewritten by
``codegen generate --target be``): the runtime's tables, the lists' indexes and the
PostgreSQL extensions they use. The database URL comes from ``SHOP_DATABASE_URL``, like
the application's (``postgresql+asyncpg://user:password@host:5432/dbname``).
Migrations run on a connection of their own, without a pool.
"""

import asyncio
import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from shop.models import Base
from shop.web.database import METADATA
from shop.web.runtime.migrations import compare_extensions

URL_ENV = "SHOP_DATABASE_URL"

if context.config.config_file_name is not None:
    fileConfig(context.config.config_file_name)

# What `alembic revision --autogenerate` and `alembic check` compare the database with:
# the extensions first, then every table; models of one base share one MetaData.
target_metadata = list(dict.fromkeys([*METADATA, Base.metadata]))
compare_extensions()


def database_url() -> str:
    url = os.environ.get(URL_ENV)
    if not url:
        raise RuntimeError(
            f"{URL_ENV} is not set: it must hold the database URL, "
            "such as postgresql+asyncpg://user:password@host:5432/dbname"
        )
    return url


def run_offline() -> None:
    """``alembic upgrade --sql``: print the SQL instead of running it."""
    context.configure(
        url=database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_on(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


async def run_online() -> None:
    engine = create_async_engine(database_url(), poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run_on)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    asyncio.run(run_online())
