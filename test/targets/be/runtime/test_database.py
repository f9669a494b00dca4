"""What a database lacks of the generated code's metadata, found in catalog queries.

The startup check refuses such a database in one line, and lets an unreachable one be.
"""

import pytest
from runtime import rate_limit, revocation
from runtime.autocommit import create_table
from runtime.database import (
    DatabaseNeeds,
    DatabaseNotReady,
    check_at_startup,
    extensions_metadata,
    extensions_of,
)
from sqlalchemy import Column, Index, Integer, MetaData, Table, Text, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

pytestmark = pytest.mark.asyncio(loop_scope="session")


def shelves(*, with_label: bool = True) -> MetaData:
    metadata = MetaData()
    columns = [Column("id", Integer, primary_key=True), Column("title", Text)]
    if with_label:
        columns.append(Column("label", Text))
    table = Table("needs_shelves", metadata, *columns)
    Index("ix_needs_shelves_title", table.c.title)
    Table("needs_books", metadata, Column("id", Integer, primary_key=True))
    return metadata


async def reset(engine: AsyncEngine) -> None:
    async with engine.begin() as connection:
        await connection.execute(text("DROP TABLE IF EXISTS needs_shelves"))
        await connection.execute(text("DROP TABLE IF EXISTS needs_books"))


async def test_lists_missing_tables_columns_indexes_and_extensions(
    engine: AsyncEngine,
) -> None:
    await reset(engine)
    wanted = shelves()
    needs = DatabaseNeeds(
        (extensions_metadata(["no_such_extension"]), wanted),
        lambda: engine,
        url_env="TEST_DATABASE_URL",
    )
    assert await needs.missing() == [
        "extension no_such_extension",
        "table needs_books",
        "table needs_shelves",
    ]
    # An older shelves table: no label column, no index.
    async with engine.begin() as connection:
        await connection.run_sync(
            shelves(with_label=False).tables["needs_shelves"].create
        )
        await connection.execute(text("DROP INDEX ix_needs_shelves_title"))
    assert await needs.missing() == [
        "extension no_such_extension",
        "table needs_books",
        "column needs_shelves.label",
        "index ix_needs_shelves_title",
    ]
    await reset(engine)
    async with engine.begin() as connection:
        await connection.run_sync(wanted.create_all)
    assert await needs.missing() == ["extension no_such_extension"]
    await reset(engine)


async def test_extensions_metadata_creates_its_extensions_with_create_all(
    engine: AsyncEngine,
) -> None:
    metadata = extensions_metadata(["pg_trgm"])
    assert extensions_of([MetaData(), metadata, metadata]) == ("pg_trgm",)
    # In a transaction rolled back at the end: other tests' trigram indexes stay.
    async with engine.connect() as connection:
        transaction = await connection.begin()
        await connection.execute(text("DROP EXTENSION IF EXISTS pg_trgm CASCADE"))
        await connection.run_sync(metadata.create_all)
        rows = await connection.execute(
            text("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        )
        assert rows.scalar() == 1
        await transaction.rollback()
    with pytest.raises(ValueError, match="not an extension name"):
        extensions_metadata(['x"; DROP TABLE y; --'])


async def test_the_startup_check_refuses_in_one_line(engine: AsyncEngine) -> None:
    await reset(engine)
    needs = DatabaseNeeds((shelves(),), lambda: engine, url_env="TEST_DATABASE_URL")
    lifespan = check_at_startup(needs)
    with pytest.raises(DatabaseNotReady) as refused:
        async with lifespan(None):
            pytest.fail("started on a database without the tables")
    message = str(refused.value)
    assert "\n" not in message
    assert "table needs_books, table needs_shelves." in message
    assert "TEST_DATABASE_URL" in message
    assert "alembic upgrade head" in message
    assert "alembic revision --autogenerate" in message


async def test_many_missing_things_are_counted_not_listed() -> None:
    needs = DatabaseNeeds((), lambda: create_async_engine("postgresql+asyncpg://"), "X")
    message = needs.describe([f"table t{n}" for n in range(20)])
    assert "table t7 and 12 more." in message
    assert "t8" not in message


async def test_an_unreachable_database_is_not_checked(free_port: int) -> None:
    unreachable = create_async_engine(
        f"postgresql+asyncpg://nobody:nothing@127.0.0.1:{free_port}/none"
    )
    needs = DatabaseNeeds((shelves(),), lambda: unreachable, url_env="DATABASE_URL")
    async with check_at_startup(needs)(None):
        pass  # started: readiness answers 503 until the database answers
    await unreachable.dispose()


async def test_tables_made_on_first_use_are_what_their_metadata_declares(
    engine: AsyncEngine,
) -> None:
    for module in (rate_limit, revocation):
        async with engine.begin() as connection:
            await connection.execute(text(f"DROP TABLE IF EXISTS {module.TABLE}"))
        needs = DatabaseNeeds((module.metadata,), lambda: engine, url_env="X")
        assert await needs.missing() == [f"table {module.TABLE}"]
        await create_table(engine, module.TABLE, module._CREATE)
        assert await needs.missing() == []
