"""Keyset pagination on a real table: each row once, in key order, while rows change."""

import base64
import uuid
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from fastapi.exceptions import RequestValidationError
from runtime.pagination import decode_cursor, encode_cursor, paginate
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Base(DeclarativeBase):
    pass


class Row(Base):
    __tablename__ = f"runtime_rows_{uuid.uuid4().hex[:8]}"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str]


@pytest_asyncio.fixture(loop_scope="session")
async def session(engine: AsyncEngine) -> AsyncIterator[AsyncSession]:
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
    async with AsyncSession(engine, expire_on_commit=False) as session:
        session.add_all(Row(id=key, name=f"row {key}") for key in range(1, 26))
        await session.commit()
        yield session
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)


def test_cursor_round_trip() -> None:
    for key in (0, 7, -3, "slug", str(uuid.uuid4())):
        assert decode_cursor(encode_cursor(key), type(key)) == key


@pytest.mark.parametrize(
    "cursor",
    [
        "",
        "not base64!",
        encode_cursor("text"),
        "eyJ4IjogMX0",
        "W10",
        # Nested deeper than the JSON decoder recurses.
        base64.urlsafe_b64encode(b"[" * 100_000).decode(),
    ],
    ids=lambda cursor: cursor[:20],
)
def test_malformed_cursor_is_a_422_naming_the_cursor(cursor: str) -> None:
    with pytest.raises(RequestValidationError) as caught:
        decode_cursor(cursor, int)
    assert caught.value.errors()[0]["loc"] == ("query", "cursor")


async def test_pages_walk_every_row_once_in_key_order(session: AsyncSession) -> None:
    seen: list[int] = []
    cursor: str | None = None
    while True:
        rows, cursor = await paginate(
            session, select(Row), Row.id, limit=4, cursor=cursor
        )
        assert len(rows) <= 4
        seen += [row.id for row in rows]
        if cursor is None:
            break
    assert seen == list(range(1, 26))


async def test_rows_changing_between_pages_never_shift_a_page(
    session: AsyncSession,
) -> None:
    first, cursor = await paginate(session, select(Row), Row.id, limit=5, cursor=None)
    assert [row.id for row in first] == [1, 2, 3, 4, 5]
    # A row before the cursor disappears and one appears: the next page is unaffected.
    await session.delete(await session.get(Row, 2))
    session.add(Row(id=0, name="new first"))
    await session.commit()
    second, _ = await paginate(session, select(Row), Row.id, limit=5, cursor=cursor)
    assert [row.id for row in second] == [6, 7, 8, 9, 10]


async def test_last_page_has_no_cursor(session: AsyncSession) -> None:
    rows, cursor = await paginate(session, select(Row), Row.id, limit=100, cursor=None)
    assert len(rows) == 25
    assert cursor is None
