"""Many-to-many writes from keys: rows loaded through a session meeting row
visibility, unknown and hidden keys refused alike, and the list replacing the set."""

import uuid
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest
import pytest_asyncio
from fastapi.exceptions import RequestValidationError
from runtime.relations import related_rows
from runtime.visibility import REQUEST, RowVisibility, remember_user
from sqlalchemy import Column, ColumnElement, ForeignKey, Table, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

SUFFIX = uuid.uuid4().hex[:8]


class Base(DeclarativeBase):
    pass


class Label(Base):
    __tablename__ = f"labels_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str]
    hidden: Mapped[bool]


links = Table(
    f"card_labels_{SUFFIX}",
    Base.metadata,
    Column("card_id", ForeignKey(f"cards_{SUFFIX}.id"), primary_key=True),
    Column("label_id", ForeignKey(Label.id), primary_key=True),
)


class Card(Base):
    __tablename__ = f"cards_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    labels: Mapped[list[Label]] = relationship(secondary=links, order_by=Label.id)


def visible_labels(user: Any) -> ColumnElement[bool] | None:
    return None if user == "editor" else Label.hidden.is_(False)


VISIBILITY = RowVisibility({Label: visible_labels})


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def sessions(
    engine: AsyncEngine,
) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Labels 1 and 2, and 3 that only editors see; card 1 linked to 1 and 3."""
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
    sessions = async_sessionmaker(
        engine, expire_on_commit=False, sync_session_class=VISIBILITY.session_class
    )
    async with sessions() as session:
        labels = [
            Label(id=1, name="one", hidden=False),
            Label(id=2, name="two", hidden=False),
            Label(id=3, name="three", hidden=True),
        ]
        session.add_all(labels)
        session.add(Card(id=1, labels=[labels[0], labels[2]]))
        await session.commit()
    yield sessions
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)


def serving(sessions: async_sessionmaker[AsyncSession], user: Any) -> AsyncSession:
    """A session of *sessions* serving a request signed in as *user*."""
    request = SimpleNamespace(state=SimpleNamespace())
    remember_user(request, user)
    return sessions(info={REQUEST: request})


@pytest.mark.asyncio(loop_scope="session")
async def test_the_rows_come_in_the_order_sent_each_once(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with serving(sessions, None) as session:
        rows = await related_rows(session, Label.id, [2, 1, 2], field="labels")
        assert [row.id for row in rows] == [2, 1]
        assert await related_rows(session, Label.id, [], field="labels") == []


@pytest.mark.asyncio(loop_scope="session")
async def test_unknown_and_hidden_keys_are_a_422_at_their_place(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with serving(sessions, None) as session:
        with pytest.raises(RequestValidationError) as caught:
            await related_rows(session, Label.id, [1, 3, 99], field="labels")
    errors = caught.value.errors()
    assert [error["loc"] for error in errors] == [
        ("body", "labels", 1),
        ("body", "labels", 2),
    ]
    assert [error["input"] for error in errors] == [3, 99]
    # The hidden row and the missing one get the same answer.
    assert errors[0]["msg"] == errors[1]["msg"] == "Value error, no Label has this key"
    async with serving(sessions, "editor") as session:
        rows = await related_rows(session, Label.id, [3], field="labels")
        assert [row.id for row in rows] == [3]


@pytest.mark.asyncio(loop_scope="session")
async def test_a_list_replaces_the_links_the_user_sees(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with serving(sessions, None) as session:
        card = await session.get(Card, 1)
        assert card is not None
        # As the generated update does: load the set, then replace it.
        await session.refresh(card, ["labels"])
        card.labels = await related_rows(session, Label.id, [2], field="labels")
        await session.commit()
    async with serving(sessions, "editor") as session:
        linked = await session.scalars(
            select(links.c.label_id).where(links.c.card_id == 1).order_by("label_id")
        )
        # Label 3, hidden from that user, kept its link.
        assert linked.all() == [2, 3]
