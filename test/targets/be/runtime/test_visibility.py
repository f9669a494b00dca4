"""Row visibility through the ORM: every statement of a request's session, and the
relationship loads of every strategy, meet the rules; other sessions see every row."""

import uuid
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest
import pytest_asyncio
from runtime.visibility import (
    REQUEST,
    RowVisibility,
    all_of,
    remember_user,
    request_user,
)
from sqlalchemy import ColumnElement, ForeignKey, delete, func, select, update
from sqlalchemy.ext.asyncio import (
    AsyncAttrs,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
)
from sqlalchemy.orm import (
    DeclarativeBase,
    Mapped,
    aliased,
    joinedload,
    mapped_column,
    relationship,
    selectinload,
    subqueryload,
)

SUFFIX = uuid.uuid4().hex[:8]


class Base(AsyncAttrs, DeclarativeBase):
    pass


class Writer(Base):
    __tablename__ = f"writers_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str]
    posts: Mapped[list["Post"]] = relationship(
        back_populates="writer", order_by="Post.id"
    )


class Post(Base):
    __tablename__ = f"posts_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str]
    owner: Mapped[str]
    published: Mapped[bool]
    writer_id: Mapped[int] = mapped_column(ForeignKey(Writer.id))
    writer: Mapped[Writer] = relationship(back_populates="posts")
    notes: Mapped[list["Note"]] = relationship(
        back_populates="post", order_by="Note.id"
    )


class Note(Base):
    __tablename__ = f"notes_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    body: Mapped[str]
    post_id: Mapped[int] = mapped_column(ForeignKey(Post.id))
    post: Mapped[Post] = relationship(back_populates="notes")


class Shelf(Base):
    """A model no rule reaches: no relationship, column or parent leads to posts."""

    __tablename__ = f"shelves_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)


def visible_posts(user: Any) -> ColumnElement[bool] | None:
    if user == "editor":
        return None
    if user is None:
        return Post.published.is_(True)
    return Post.published.is_(True) | (Post.owner == user)


def visible_notes(user: Any) -> ColumnElement[bool] | None:
    condition = visible_posts(user)
    return None if condition is None else Note.post.has(condition)


VISIBILITY = RowVisibility({Post: visible_posts, Note: visible_notes})


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def sessions(
    engine: AsyncEngine,
) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Two writers; ada's draft (1), her published post (2), grace's draft (3); a
    note on each post."""
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
    sessions = async_sessionmaker(
        engine, expire_on_commit=False, sync_session_class=VISIBILITY.session_class
    )
    async with sessions() as session:
        session.add_all([Writer(id=1, name="Ada"), Writer(id=2, name="Grace")])
        await session.flush()
        session.add_all(
            [
                Post(
                    id=1, title="ada draft", owner="ada", published=False, writer_id=1
                ),
                Post(id=2, title="ada live", owner="ada", published=True, writer_id=1),
                Post(
                    id=3,
                    title="grace draft",
                    owner="grace",
                    published=False,
                    writer_id=2,
                ),
            ]
        )
        await session.flush()
        session.add_all(
            [Note(id=post, body=f"on {post}", post_id=post) for post in (1, 2, 3)]
        )
        session.add_all([Shelf(id=shelf) for shelf in (1, 2, 3)])
        await session.commit()
    yield sessions
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)


def request_as(user: Any) -> SimpleNamespace:
    """A request signed in as *user* (``None``: nobody)."""
    request = SimpleNamespace(state=SimpleNamespace())
    remember_user(request, user)
    return request


def serving(sessions: async_sessionmaker[AsyncSession], user: Any) -> AsyncSession:
    """A session of *sessions* serving a request signed in as *user*."""
    return sessions(info={REQUEST: request_as(user)})


def sessions_of(
    sessions: async_sessionmaker[AsyncSession], visibility: RowVisibility
) -> async_sessionmaker[AsyncSession]:
    """Sessions on *sessions*' database that meet *visibility*'s rules instead."""
    return async_sessionmaker(
        sessions.kw["bind"],
        expire_on_commit=False,
        sync_session_class=visibility.session_class,
    )


def test_a_request_without_a_recorded_user_has_none() -> None:
    assert request_user(SimpleNamespace(state=SimpleNamespace())) is None


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize(
    ("user", "posts"),
    [(None, [2]), ("ada", [1, 2]), ("grace", [2, 3]), ("editor", [1, 2, 3])],
)
async def test_selects_count_and_lookups_meet_the_rule(
    sessions: async_sessionmaker[AsyncSession], user: Any, posts: list[int]
) -> None:
    async with serving(sessions, user) as session:
        found = (await session.scalars(select(Post.id).order_by(Post.id))).all()
        assert found == posts
        assert await session.scalar(select(func.count()).select_from(Post)) == len(
            posts
        )
        titles = (await session.scalars(select(Post.title).distinct())).all()
        assert len(titles) == len(posts)
        for pk in (1, 2, 3):
            row = await session.get(Post, pk, populate_existing=True)
            assert (row is not None) == (pk in posts)


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize("strategy", [joinedload, selectinload, subqueryload])
async def test_nested_collections_of_every_strategy_hold_visible_rows_only(
    sessions: async_sessionmaker[AsyncSession], strategy: Any
) -> None:
    async with serving(sessions, "grace") as session:
        writers = (
            await session.scalars(
                select(Writer).options(strategy(Writer.posts)).order_by(Writer.id)
            )
        ).unique()
        assert {w.name: [p.id for p in w.posts] for w in writers} == {
            "Ada": [2],
            "Grace": [3],
        }


@pytest.mark.asyncio(loop_scope="session")
async def test_a_lazy_load_meets_the_rule_too(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with serving(sessions, None) as session:
        ada = await session.scalar(select(Writer).where(Writer.id == 1))
        assert ada is not None
        posts = await ada.awaitable_attrs.posts
        assert [post.id for post in posts] == [2]


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize("strategy", [joinedload, selectinload])
async def test_a_hidden_nested_single_object_is_none(
    sessions: async_sessionmaker[AsyncSession], strategy: Any
) -> None:
    async with serving(sessions, "ada") as session:
        notes = (
            await session.scalars(
                select(Note).options(strategy(Note.post)).order_by(Note.id)
            )
        ).all()
        # grace's draft is hidden, and so (by its own rule) is the note on it.
        assert [(note.id, note.post.id) for note in notes] == [(1, 1), (2, 2)]
    # With a rule for posts alone, the note on the hidden post is there, its post None.
    posts_only = sessions_of(sessions, RowVisibility({Post: visible_posts}))
    async with serving(posts_only, "ada") as session:
        note = await session.scalar(
            select(Note).where(Note.id == 3).options(strategy(Note.post))
        )
        assert note is not None
        assert note.post is None


@pytest.mark.asyncio(loop_scope="session")
async def test_a_select_of_columns_meets_the_rule_as_a_load_does(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    # How a list reads rows without ORM objects: the listed model's columns, and a
    # nested single object's through an outer join. Hidden rows are missing; a hidden
    # nested object's columns are NULL, as its load gives None.
    columns = select(Note.id, Post.id, Post.title).outerjoin(Note.post)
    posts_only = sessions_of(sessions, RowVisibility({Post: visible_posts}))
    async with serving(posts_only, "ada") as session:
        rows = (await session.execute(columns.order_by(Note.id))).all()
        assert [tuple(row) for row in rows] == [
            (1, 1, "ada draft"),
            (2, 2, "ada live"),
            (3, None, None),
        ]
    async with serving(sessions, "ada") as session:
        rows = (await session.execute(columns.order_by(Note.id))).all()
        assert [row[0] for row in rows] == [1, 2]
        hidden = select(Post.id, Post.title).where(Post.id == 3)
        assert (await session.execute(hidden)).first() is None


@pytest.mark.asyncio(loop_scope="session")
async def test_aliases_and_joins_meet_the_rule(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    post = aliased(Post)
    async with serving(sessions, None) as session:
        found = (await session.scalars(select(post.id).order_by(post.id))).all()
        assert found == [2]
        joined = (
            await session.scalars(
                select(Writer.name).join(Writer.posts).order_by(Writer.name)
            )
        ).all()
        assert joined == ["Ada"]


@pytest.mark.asyncio(loop_scope="session")
async def test_orm_updates_and_deletes_miss_hidden_rows(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with serving(sessions, "ada") as session:
        changed = await session.execute(
            update(Post).where(Post.id == 3).values(title="taken").returning(Post.id)
        )
        assert changed.all() == []
        deleted = await session.execute(
            delete(Note).where(Note.post_id == 3).returning(Note.id)
        )
        assert deleted.all() == []
        await session.rollback()


@pytest.mark.asyncio(loop_scope="session")
async def test_a_session_serving_no_request_sees_every_row(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with sessions() as session:
        found = (await session.scalars(select(Post.id).order_by(Post.id))).all()
        assert found == [1, 2, 3]


def asking(calls: list[Any]) -> Any:
    """An async rule for posts, like OPA's: it records each time it is asked."""

    async def rule(user: Any) -> ColumnElement[bool] | None:
        calls.append(user)
        return visible_posts(user)

    return rule


@pytest.mark.asyncio(loop_scope="session")
async def test_an_async_rule_is_awaited_once_per_request_and_reaches_every_read(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    calls: list[Any] = []
    remote = sessions_of(sessions, RowVisibility({Post: asking(calls)}))
    request = request_as("grace")
    async with remote(info={REQUEST: request}) as session:
        for _ in range(3):
            found = (await session.scalars(select(Post.id).order_by(Post.id))).all()
            assert found == [2, 3]
        for strategy in (joinedload, selectinload, subqueryload):
            writers = (
                await session.scalars(
                    select(Writer)
                    .options(strategy(Writer.posts))
                    .execution_options(populate_existing=True)
                )
            ).unique()
            assert sorted(p.id for w in writers for p in w.posts) == [2, 3]
        ada = await session.get(Writer, 1, populate_existing=True)
        assert ada is not None
        session.expire(ada, ["posts"])
        assert [p.id for p in await ada.awaitable_attrs.posts] == [2]
    # Another session of the same request (discovery opens its own) asks no more.
    async with remote(info={REQUEST: request}) as session:
        assert await session.scalar(select(func.count()).select_from(Post)) == 2
    assert calls == ["grace"]


@pytest.mark.asyncio(loop_scope="session")
async def test_an_async_rule_is_not_asked_for_a_statement_that_cannot_read_its_model(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    calls: list[Any] = []
    remote = sessions_of(sessions, RowVisibility({Post: asking(calls)}))
    async with serving(remote, None) as session:
        assert (await session.scalars(select(Shelf.id).order_by(Shelf.id))).all() == [
            1,
            2,
            3,
        ]
        assert calls == []
        # A subquery over posts is a read of posts: asked, and filtered.
        inside = (
            select(Shelf.id).where(Shelf.id.in_(select(Post.id))).order_by(Shelf.id)
        )
        assert (await session.scalars(inside)).all() == [2]
        assert calls == [None]


def aliased_ids() -> Any:
    post = aliased(Post)
    return select(post.id).order_by(post.id)


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize(
    ("statement", "seen"),
    [
        (lambda: select(Writer.name).where(Writer.posts.any()), ["Ada"]),
        (lambda: select(Note.id).where(Note.post.has()).order_by(Note.id), [1, 2]),
        (lambda: select(Note.id).join(Note.post).order_by(Note.id), [1, 2]),
        (aliased_ids, [1, 2]),
    ],
)
async def test_relationships_and_aliases_lead_a_statement_to_the_async_rule(
    sessions: async_sessionmaker[AsyncSession], statement: Any, seen: list[Any]
) -> None:
    calls: list[Any] = []
    remote = sessions_of(sessions, RowVisibility({Post: asking(calls)}))
    async with serving(remote, "ada") as session:
        found = (await session.scalars(statement())).all()
    assert calls == ["ada"]
    assert found == seen  # ada's draft and published post, never grace's draft


@pytest.mark.asyncio(loop_scope="session")
async def test_a_failing_rule_fails_the_statement(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async def unreachable(user: Any) -> ColumnElement[bool] | None:
        raise ConnectionError("the policy server is down")

    remote = sessions_of(sessions, RowVisibility({Post: unreachable}))
    async with serving(remote, "ada") as session:
        with pytest.raises(ConnectionError):
            await session.scalars(select(Post.id))
        with pytest.raises(ConnectionError):
            await session.get(Writer, 1, options=[selectinload(Writer.posts)])
        # Shelves do not need the rule.
        assert await session.scalar(select(func.count()).select_from(Shelf)) == 3


@pytest.mark.asyncio(loop_scope="session")
async def test_a_rule_may_lean_on_another_models_rule(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    # Post's criteria apply inside Note.post.has(), whatever Post's rule is.
    calls: list[Any] = []
    leaning = RowVisibility({Post: asking(calls), Note: lambda user: Note.post.has()})
    async with serving(sessions_of(sessions, leaning), "ada") as session:
        notes = (await session.scalars(select(Note.id).order_by(Note.id))).all()
        assert notes == [1, 2]
    assert calls == ["ada"]


@pytest.mark.asyncio(loop_scope="session")
async def test_all_of_needs_a_row_to_meet_every_rule(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    calls: list[Any] = []
    both = all_of(asking(calls), lambda user: Post.published.is_(False))
    async with serving(
        sessions_of(sessions, RowVisibility({Post: both})), "ada"
    ) as session:
        assert (await session.scalars(select(Post.id))).all() == [1]
    assert calls == ["ada"]
    assert await all_of(lambda user: None)("ada") is None
