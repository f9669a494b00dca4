"""Read replicas: which connection each statement of a read session uses.

The "replica" is the test database itself, reached through a TCP relay the tests can
stop: a server that is no standby counts as caught up, and each engine counts the
statements it runs, so a test sees where every statement went.
"""

import asyncio
import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest
import pytest_asyncio
from fastapi import HTTPException
from runtime.replicas import Fallback, Replicas
from runtime.visibility import REQUEST, RowVisibility
from sqlalchemy import event, select, text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import NullPool

SUFFIX = uuid.uuid4().hex[:8]
ENV = f"TEST_REPLICA_URLS_{SUFFIX}"


class Base(DeclarativeBase):
    pass


class Note(Base):
    __tablename__ = f"replica_notes_{SUFFIX}"
    id: Mapped[int] = mapped_column(primary_key=True)
    owner: Mapped[str]


class Relay:
    """A TCP relay to PostgreSQL that the test can stop, as a replica going away."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.server: asyncio.Server | None = None
        self.links: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", 0)
        self.port: int = self.server.sockets[0].getsockname()[1]

    async def _link(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        self.links |= {writer, upstream_writer}

        async def pipe(
            source: asyncio.StreamReader, sink: asyncio.StreamWriter
        ) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(
            pipe(reader, upstream_writer), pipe(upstream_reader, writer)
        )

    async def stop(self) -> None:
        """Refuse new connections and cut the open ones."""
        assert self.server is not None
        self.server.close()
        for link in self.links:
            link.close()
        await self.server.wait_closed()


class Counted:
    """Engines made by ``connect``, each counting the statements it runs."""

    def __init__(self) -> None:
        self.engines: list[AsyncEngine] = []
        self.statements: dict[AsyncEngine, int] = {}

    def connect(self, url: str) -> AsyncEngine:
        engine = create_async_engine(url, poolclass=NullPool)
        self.watch(engine)
        self.engines.append(engine)
        return engine

    def watch(self, engine: AsyncEngine) -> None:
        self.statements[engine] = 0

        def count(*_: Any) -> None:
            self.statements[engine] += 1

        event.listen(engine.sync_engine, "before_cursor_execute", count)


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def notes(engine: AsyncEngine) -> AsyncIterator[None]:
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
        await connection.execute(
            Note.__table__.insert(),
            [{"id": 1, "owner": "ada"}, {"id": 2, "owner": "bob"}],
        )
    yield
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.drop_all)


@pytest_asyncio.fixture(loop_scope="session")
async def relay(engine: AsyncEngine) -> AsyncIterator[Relay]:
    url = engine.url
    relay = Relay(url.host or "127.0.0.1", url.port or 5432)
    await relay.start()
    yield relay
    with contextlib.suppress(AssertionError):
        await relay.stop()


def replica_url(engine: AsyncEngine, port: int) -> str:
    return engine.url.set(port=port).render_as_string(hide_password=False)


def relayed_url(engine: AsyncEngine, relay: Relay) -> str:
    """The test database's URL through *relay*: the replica a test can stop."""
    return replica_url(engine, relay.port)


@contextlib.asynccontextmanager
async def read_sessions(
    urls: list[str],
    primary: AsyncEngine,
    *,
    base: type[Session] = Session,
    fallback: Fallback = "primary",
    autocommit: bool = False,
) -> AsyncIterator[tuple[Counted, Replicas, async_sessionmaker[AsyncSession]]]:
    """Read sessions over *primary* and replicas at *urls*, every engine counted; the
    replicas' engines are disposed of on leaving. With *autocommit*, every engine runs
    each statement on its own, as the generated read sessions do."""
    counted = Counted()
    counted.watch(primary)
    os.environ[ENV] = ", ".join(urls)

    def reading(engine: AsyncEngine) -> AsyncEngine:
        return (
            engine.execution_options(isolation_level="AUTOCOMMIT")
            if autocommit
            else engine
        )

    replicas = Replicas(
        ENV,
        lambda url: reading(counted.connect(url)),
        max_lag=5,
        check_interval=0.05,
        fallback=fallback,
    )
    session_class = replicas.read_session_class(base)
    try:
        yield (
            counted,
            replicas,
            async_sessionmaker(
                reading(primary),
                expire_on_commit=False,
                sync_session_class=session_class,
            ),
        )
    finally:
        for each in replicas.engines():
            await each.dispose()


@pytest_asyncio.fixture(loop_scope="session")
async def primary_engine(engine: AsyncEngine) -> AsyncIterator[AsyncEngine]:
    primary = create_async_engine(engine.url, poolclass=NullPool)
    yield primary
    await primary.dispose()


async def test_selects_read_the_replica_until_the_session_writes(
    engine: AsyncEngine, notes: None, relay: Relay, primary_engine: AsyncEngine
) -> None:
    urls = [relayed_url(engine, relay)]
    async with read_sessions(urls, primary_engine) as (counted, _, sessions):
        async with sessions() as session:
            assert (
                await session.scalars(select(Note.owner).order_by(Note.id))
            ).all() == [
                "ada",
                "bob",
            ]
            replica = counted.engines[0]
            assert counted.statements[replica] >= 1
            assert counted.statements[primary_engine] == 0
            session.add(Note(id=3, owner="cy"))
            await session.flush()
            # Written on the primary, and read back from it: the replica (in another
            # transaction) cannot see the row before the commit.
            replica_reads = counted.statements[replica]
            assert await session.get(Note, 3, populate_existing=True) is not None
            assert (
                await session.scalar(select(Note.owner).where(Note.id == 3))
            ) == "cy"
            assert counted.statements[replica] == replica_reads
            await session.rollback()
        async with sessions() as session:
            # A locking select goes to the primary, and the session stays there.
            primary_before = counted.statements[primary_engine]
            await session.execute(select(Note).where(Note.id == 1).with_for_update())
            await session.scalars(select(Note))
            assert counted.statements[primary_engine] == primary_before + 2


@pytest.mark.parametrize("autocommit", [False, True])
async def test_row_visibility_holds_on_the_replica(
    engine: AsyncEngine,
    notes: None,
    relay: Relay,
    primary_engine: AsyncEngine,
    autocommit: bool,
) -> None:
    visibility = RowVisibility({Note: lambda user: Note.owner == user})
    urls = [relayed_url(engine, relay)]
    request = SimpleNamespace(state=SimpleNamespace(current_user="bob"))
    async with read_sessions(
        urls, primary_engine, base=visibility.session_class, autocommit=autocommit
    ) as (counted, _, sessions):
        async with sessions(info={REQUEST: request}) as session:
            assert (await session.scalars(select(Note.id))).all() == [2]
            assert await session.get(Note, 1) is None
        assert counted.statements[counted.engines[0]] >= 2


async def test_a_replica_that_goes_away_costs_no_read(
    engine: AsyncEngine, notes: None, relay: Relay, primary_engine: AsyncEngine
) -> None:
    urls = [relayed_url(engine, relay)]
    async with read_sessions(urls, primary_engine) as (counted, replicas, sessions):
        async with sessions() as session:
            await session.scalars(select(Note))
        assert replicas.replicas[0].usable
        await relay.stop()
        # Chosen as usable, refused at connect: read from the primary, no error.
        async with sessions() as session:
            assert len((await session.scalars(select(Note))).all()) >= 2
        assert not replicas.replicas[0].usable
        assert counted.statements[primary_engine] == 1


async def test_no_replica_reads_the_primary_or_answers_503(
    engine: AsyncEngine, notes: None, free_port: int, primary_engine: AsyncEngine
) -> None:
    down = [replica_url(engine, free_port)]
    async with read_sessions(down, primary_engine) as (counted, _, sessions):
        async with sessions() as session:
            assert len((await session.scalars(select(Note))).all()) >= 2
        assert counted.statements[primary_engine] == 1
    unavailable = read_sessions(down, primary_engine, fallback="unavailable")
    async with unavailable as (_, _, sessions), sessions() as session:
        with pytest.raises(HTTPException) as refused:
            await session.scalars(select(Note))
        assert refused.value.status_code == 503
        assert refused.value.headers == {"Retry-After": "1"}
        # Writes still go to the primary.
        await session.execute(text("SELECT 1"))


async def test_without_urls_reads_use_the_primary(
    engine: AsyncEngine, notes: None, primary_engine: AsyncEngine
) -> None:
    async with read_sessions([], primary_engine, fallback="unavailable") as (
        counted,
        replicas,
        sessions,
    ):
        async with sessions() as session:
            assert len((await session.scalars(select(Note))).all()) >= 2
        assert replicas.replicas == [] and counted.statements[primary_engine] == 1


def test_read_session_class_keeps_the_base() -> None:
    visibility = RowVisibility({})
    replicas = Replicas(ENV, Counted().connect, max_lag=1, check_interval=1)
    assert issubclass(
        replicas.read_session_class(visibility.session_class), visibility.session_class
    )
