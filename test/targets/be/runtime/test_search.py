"""Search on a real table: trigram and full-text rank the expected row first, their
indexes are created as declared and match the queries' expressions, and the text of
a search is a bound value."""

from collections.abc import AsyncIterator

import pytest_asyncio
from items import Item
from runtime.indexes import create_extensions, create_indexes
from runtime.search import FullTextSearch, Search, TrigramSearch
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

TRIGRAM = TrigramSearch(Item.name, Item.note)
FULL_TEXT = FullTextSearch(Item.name, Item.note, language="english")


@pytest_asyncio.fixture(scope="session")
async def indexed(
    engine: AsyncEngine, items: async_sessionmaker[AsyncSession]
) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    indexes = [*TRIGRAM.indexes("ix_items_trgm"), *FULL_TEXT.indexes("ix_items_fts")]
    async with engine.begin() as connection:
        await create_extensions(connection, TRIGRAM.extensions)
        await create_indexes(connection, indexes)
        # Twice: creating what exists is a no-op.
        await create_extensions(connection, TRIGRAM.extensions)
        await create_indexes(connection, indexes)
    yield items
    async with engine.begin() as connection:
        for index in indexes:
            await connection.run_sync(index.drop)


async def ranked(
    sessions: async_sessionmaker[AsyncSession], search: Search, q: str
) -> list[str]:
    statement = (
        select(Item.name)
        .where(search.match(q))
        .order_by(search.sort_key(q).clause, Item.id)
    )
    async with sessions() as session:
        return list((await session.scalars(statement)).all())


async def test_trigram_ranks_the_closest_row_first_despite_typos(
    indexed: async_sessionmaker[AsyncSession],
) -> None:
    assert (await ranked(indexed, TRIGRAM, "postgress tunning"))[0] == (
        "PostgreSQL performance tuning"
    )
    assert (await ranked(indexed, TRIGRAM, "pasta"))[0] in {
        "Cooking pasta at home",
        "pasta e fagioli",
    }
    assert await ranked(indexed, TRIGRAM, "zzzzqqq") == []


async def test_full_text_ranks_by_relevance_with_web_syntax(
    indexed: async_sessionmaker[AsyncSession],
) -> None:
    found = await ranked(indexed, FULL_TEXT, "tuning -piano")
    assert found[0] == "PostgreSQL performance tuning"
    assert "Tuning a piano" not in found
    assert (await ranked(indexed, FULL_TEXT, '"cooking pasta"'))[
        0
    ] == "Cooking pasta at home"


async def test_hostile_search_text_is_a_value(
    indexed: async_sessionmaker[AsyncSession],
) -> None:
    for search in (TRIGRAM, FULL_TEXT):
        found = await ranked(indexed, search, "Robert'); DROP TABLE students;--")
        assert found and found[0] == "Robert'); DROP TABLE students;--"
    found = await ranked(indexed, TRIGRAM, "100%")
    assert found and all(name.startswith("100% pure") for name in found)


async def test_the_indexes_serve_the_searches(
    indexed: async_sessionmaker[AsyncSession],
) -> None:
    async with indexed() as session:
        await session.execute(text("SET LOCAL enable_seqscan = off"))
        for search, index in (
            (FULL_TEXT, "ix_items_fts"),
            (TRIGRAM, "ix_items_trgm_name"),
        ):
            statement = select(Item.id).where(search.match("tuning"))
            compiled = statement.compile(
                dialect=session.bind.dialect, compile_kwargs={"literal_binds": True}
            )
            plan = (await session.execute(text(f"EXPLAIN {compiled}"))).scalars().all()
            assert any(index in line for line in plan), "\n".join(plan)
