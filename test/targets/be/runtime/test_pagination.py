"""Orders and pages on a real table: keyset pages walk every row exactly once under
any declared order (ties, NULLs, mixed directions), also while rows are inserted and
deleted between pages; cursors are opaque, typed and tied to their order; offset
pages count."""

import base64
import json
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
import pytest_asyncio
from fastapi.exceptions import RequestValidationError
from items import Item, seed_items
from runtime.ordering import Ordering, SortKey, reject_repeats
from runtime.pagination import (
    after_condition,
    decode_cursor,
    encode_cursor,
    keyset_page,
    keyset_rows,
    offset_page,
    offset_rows,
)
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

SEED = seed_items()
ORDERING = Ordering(
    Item.id,
    {
        "rating": Item.rating,
        "score": Item.score,
        "name": Item.name,
        "made_at": Item.made_at,
    },
    nullable=["score"],
    default=["-made_at"],
)


def python_order(order_by: Sequence[str]) -> list[int]:
    """The ids of the seed in *order_by* (then id, in the last key's direction),
    NULLs last ascending and first descending, as PostgreSQL sorts them."""
    rows = list(SEED)
    terms = [*order_by, ("-id" if order_by and order_by[-1].startswith("-") else "id")]
    for term in reversed(terms):
        name = term.removeprefix("-")
        descending = term.startswith("-")
        present = [row for row in rows if getattr(row, name) is not None]
        missing = [row for row in rows if getattr(row, name) is None]
        present.sort(key=lambda row, name=name: getattr(row, name), reverse=descending)
        rows = missing + present if descending else present + missing
    return [row.id for row in rows]


async def walk(
    sessions: async_sessionmaker[AsyncSession], keys: list[SortKey], limit: int
) -> list[int]:
    seen: list[int] = []
    cursor: str | None = None
    while True:
        async with sessions() as session:
            rows, cursor = await keyset_page(
                session, select(Item), keys, limit=limit, cursor=cursor
            )
        assert len(rows) <= limit
        seen += [row.id for row in rows]
        if cursor is None:
            return seen


ORDERS = [
    [],
    ["rating"],
    ["-rating"],
    ["score"],
    ["-score"],
    ["rating", "-score"],
    ["-rating", "name"],
    ["name", "rating"],
]


@pytest.mark.parametrize("order_by", ORDERS, ids=lambda order: ",".join(order) or "key")
@pytest.mark.parametrize("limit", [1, 7, 60, 100])
async def test_keyset_pages_walk_every_row_once_in_order(
    items: async_sessionmaker[AsyncSession], order_by: list[str], limit: int
) -> None:
    keys = ORDERING.keys(order_by) if order_by else Ordering(Item.id).keys()
    assert await walk(items, keys, limit) == python_order(order_by)


# The same order by the table's columns instead of the model's attributes: such keys
# cannot be read from the page's objects, so they are selected beside them.
SELECTED_KEYS = Ordering(
    Item.__table__.c.id,
    {name: Item.__table__.c[name] for name in ("rating", "score", "name", "made_at")},
    nullable=["score"],
)


@pytest.mark.parametrize("order_by", ORDERS, ids=lambda order: ",".join(order) or "key")
async def test_keys_that_are_not_model_attributes_walk_the_same_order(
    items: async_sessionmaker[AsyncSession], order_by: list[str]
) -> None:
    keys = SELECTED_KEYS.keys(order_by)
    assert all(key.attribute is None for key in keys)
    assert all(key.attribute is not None for key in ORDERING.keys(order_by or None))
    assert await walk(items, list(keys), 7) == python_order(order_by)


@pytest.mark.parametrize("order_by", ORDERS, ids=lambda order: ",".join(order) or "key")
async def test_pages_of_columns_walk_the_same_order(
    items: async_sessionmaker[AsyncSession], order_by: list[str]
) -> None:
    # A list that selects columns, not the model: rows hold them, then the sort keys.
    keys = ORDERING.keys(order_by or None)
    seen: list[int] = []
    cursor: str | None = None
    while True:
        async with items() as session:
            rows, cursor = await keyset_rows(
                session, select(Item.id, Item.name), keys, limit=7, cursor=cursor
            )
        assert all(len(row) == 2 + len(keys) for row in rows)
        seen += [row[0] for row in rows]
        if cursor is None:
            break
    assert seen == python_order(order_by or ["-made_at"])
    offset: int | None = 0
    by_offset: list[int] = []
    while offset is not None:
        async with items() as session:
            rows, offset, total = await offset_rows(
                session, select(Item.id), keys, limit=11, offset=offset, total=True
            )
        assert total == len(SEED)
        by_offset += [row[0] for row in rows]
    assert by_offset == seen


async def test_a_statement_built_once_pages_at_each_size_asked(
    items: async_sessionmaker[AsyncSession],
) -> None:
    # Its first page is built once per order, the size a parameter: each size holds.
    statement = select(Item.id, Item.name)
    keys = ORDERING.keys(None)
    first: dict[int, list[int]] = {}
    for limit in (3, 5, 3):
        async with items() as session:
            rows, cursor = await keyset_rows(
                session, statement, keys, limit=limit, cursor=None
            )
        first[limit] = [row[0] for row in rows]
        assert len(rows) == limit and cursor is not None
    assert first[3] == first[5][:3] == python_order(["-made_at"])[:3]


async def test_the_default_order_applies_without_order_by(
    items: async_sessionmaker[AsyncSession],
) -> None:
    assert await walk(items, ORDERING.keys(None), 9) == python_order(["-made_at"])


def test_the_key_ends_every_order_in_the_last_direction() -> None:
    assert [key.signed_name for key in ORDERING.keys(["rating", "-score"])] == [
        "rating",
        "-score",
        "-id",
    ]
    with_key = Ordering(Item.id, {"id": Item.id, "name": Item.name})
    assert [key.signed_name for key in with_key.keys(["-id"])] == ["-id"]


def test_order_by_names_each_field_once() -> None:
    assert reject_repeats(["a", "-b"]) == ["a", "-b"]
    with pytest.raises(ValueError, match="'a' appears twice"):
        reject_repeats(["a", "-a"])


async def test_row_values_and_expanded_conditions_agree(
    items: async_sessionmaker[AsyncSession],
) -> None:
    keys = ORDERING.keys(["-rating"])
    expanded = [SortKey(key.name, key.expression, key.descending, True) for key in keys]
    async with items() as session:
        for values in ([2, 30], [0, 1], [4, 60]):
            fast = await session.scalars(
                select(Item.id).where(after_condition(keys, values))
            )
            slow = await session.scalars(
                select(Item.id).where(after_condition(expanded, values))
            )
            assert set(fast.all()) == set(slow.all())


def test_cursors_round_trip_typed_values() -> None:
    keys = ORDERING.keys(["score", "made_at"])
    values = [None, SEED[3].made_at, 4]
    assert decode_cursor(encode_cursor(keys, values), keys) == values


def forged(document: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(document).encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "",
        "not base64!",
        "bm90LWpzb24",
        forged([]),
        forged({"order": "rating,id", "after": [1]}),
        forged({"order": "rating,id", "after": ["' OR 1=1 --", 1]}),
        forged({"order": "rating,id", "after": [1, "1; DROP TABLE items"]}),
        forged({"order": "rating,id", "after": {"a": 1}}),
        # Nested deeper than the JSON decoder recurses.
        base64.urlsafe_b64encode(b"[" * 100_000).decode(),
    ],
    ids=lambda cursor: cursor[:20],
)
def test_malformed_or_hostile_cursors_answer_422(cursor: str) -> None:
    with pytest.raises(RequestValidationError) as caught:
        decode_cursor(cursor, ORDERING.keys(["rating"]))
    assert caught.value.errors()[0]["loc"] == ("query", "cursor")


def test_a_cursor_fits_only_its_own_order() -> None:
    cursor = encode_cursor(ORDERING.keys(["rating"]), [1, 2])
    with pytest.raises(RequestValidationError, match="another order"):
        decode_cursor(cursor, ORDERING.keys(["-rating"]))


@pytest.mark.parametrize("limit", [1, 11])
async def test_offset_pages_count_and_end(
    items: async_sessionmaker[AsyncSession], limit: int
) -> None:
    keys = ORDERING.keys(["-rating"])
    seen: list[int] = []
    offset: int | None = 0
    while offset is not None:
        async with items() as session:
            rows, offset, total = await offset_page(
                session, select(Item), keys, limit=limit, offset=offset, total=True
            )
        assert total == len(SEED)
        seen += [row.id for row in rows]
    assert seen == python_order(["-rating"])
    async with items() as session:
        filtered = select(Item).where(Item.rating == 1)
        rows, following, total = await offset_page(
            session, filtered, keys, limit=5, offset=0, total=False
        )
        assert total is None and following == 5
        assert all(row.rating == 1 for row in rows)
        _, _, counted = await offset_page(
            session, filtered, keys, limit=5, offset=0, total=True
        )
        assert counted == sum(1 for item in SEED if item.rating == 1)


class Base(DeclarativeBase):
    pass


class Entry(Base):
    __tablename__ = f"entries_{uuid.uuid4().hex[:8]}"
    id: Mapped[int] = mapped_column(primary_key=True)
    rating: Mapped[int]


@pytest_asyncio.fixture
async def entries(
    engine: AsyncEngine,
) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
    sessions = async_sessionmaker(engine, expire_on_commit=False)
    async with sessions() as session:
        session.add_all(Entry(id=key, rating=key % 4) for key in range(1, 201))
        await session.commit()
    yield sessions
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)


async def test_rows_written_between_pages_never_repeat_or_skip(
    entries: async_sessionmaker[AsyncSession],
) -> None:
    """A writer inserts and deletes rows (ties of the page's sort values among them)
    between every two pages of ``-rating``: rows present throughout appear once."""
    keys = Ordering(Entry.id, {"rating": Entry.rating}).keys(["-rating"])
    seen: list[int] = []
    deleted: set[int] = set()
    cursor: str | None = None
    next_id = 1000
    while True:
        async with entries() as session:
            rows, cursor = await keyset_page(
                session, select(Entry), keys, limit=9, cursor=cursor
            )
        seen += [row.id for row in rows]
        if cursor is None:
            break
        async with entries() as writer:
            for rating in range(4):
                writer.add(Entry(id=next_id, rating=rating))
                next_id += 1
            survivors = (
                await writer.scalars(select(Entry.id).where(Entry.id < 1000))
            ).all()
            victim = max(set(survivors) - set(seen) - deleted, default=None)
            if victim is not None:
                await writer.delete(await writer.get(Entry, victim))
                deleted.add(victim)
            await writer.commit()
    assert len(seen) == len(set(seen)), "a row appeared twice"
    assert set(range(1, 201)) - deleted <= set(seen), (
        "a row present throughout was skipped"
    )
    assert not deleted & set(seen), "a row deleted before its page was shown"
