"""The comms helper of kiln's shape against a real PostgreSQL: rows of the caller's
models and their jobs in the caller's transaction, a row sent once when two runs of
its job race, failures recorded on the row. test/e2e/kiln.test.ts sends through a
real worker to a real SMTP server."""

import asyncio
import datetime as dt
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from jinja2 import UndefinedError
from pydantic import BaseModel
from runtime.kiln_comms import (
    DISPATCH_ENTRYPOINT,
    CommsPlatform,
    CommType,
    RecipientSpec,
)
from sqlalchemy import JSON, DateTime, ForeignKey, String, Text, delete, select, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Base(DeclarativeBase):
    pass


class Message(Base):
    __tablename__ = "kiln_comm_messages"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    comm_type: Mapped[str] = mapped_column(String(255))
    context: Mapped[dict[str, Any]] = mapped_column(JSON)
    subject: Mapped[str | None] = mapped_column(String(1024))
    body: Mapped[str] = mapped_column(Text)


class Recipient(Base):
    __tablename__ = "kiln_comm_recipients"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    message_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("kiln_comm_messages.id", ondelete="CASCADE")
    )
    method: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(512))
    status: Mapped[str] = mapped_column(String(32))
    sent_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    error: Mapped[str | None] = mapped_column(String(1024))


class Greeting(BaseModel):
    name: str


class Recorder:
    """A transport that takes *delay* seconds per send, or raises *failure*."""

    def __init__(self, delay: float = 0.0, failure: Exception | None = None) -> None:
        self.delay = delay
        self.failure = failure
        self.sent: list[str] = []

    async def send(self, *, message: Message, recipient: Recipient) -> None:
        await asyncio.sleep(self.delay)
        if self.failure is not None:
            raise self.failure
        self.sent.append(f"{recipient.address}: {message.subject}")


def platform(transport: Recorder) -> CommsPlatform:
    greeting = CommType(
        name="greeting",
        context_schema=Greeting,
        subject_template="Hello {{ name }}",
        body_template="Dear {{ name }},",
        default_methods=("email",),
    )
    return CommsPlatform(
        types=[greeting],
        message_model=Message,
        recipient_model=Recipient,
        transports={"email": transport},
    )


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def tables(pgqueuer_engine: AsyncEngine) -> AsyncEngine:
    async with pgqueuer_engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    return pgqueuer_engine


@pytest_asyncio.fixture(loop_scope="session")
async def db(tables: AsyncEngine) -> AsyncIterator[AsyncEngine]:
    yield tables
    async with tables.begin() as conn:
        await conn.execute(delete(Message))
        await conn.execute(
            text("DELETE FROM pgqueuer WHERE entrypoint = :e"),
            {"e": DISPATCH_ENTRYPOINT},
        )


async def send(engine: AsyncEngine, comms: CommsPlatform, address: str) -> uuid.UUID:
    async with AsyncSession(engine) as session, session.begin():
        recipients = [RecipientSpec("email", address)]
        return await comms.send(session, "greeting", {"name": "Ada"}, recipients)


async def recipients(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(select(Recipient))).all())


async def job_count(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        query = text("SELECT count(*) FROM pgqueuer WHERE entrypoint = :e")
        return (await conn.execute(query, {"e": DISPATCH_ENTRYPOINT})).scalar_one()


async def test_rows_and_jobs_are_written_in_the_callers_transaction(
    db: AsyncEngine,
) -> None:
    comms = platform(Recorder())
    with pytest.raises(RuntimeError):
        async with AsyncSession(db) as session, session.begin():
            recipients_ = [RecipientSpec("email", "ada@example.com")]
            await comms.send(session, "greeting", {"name": "Ada"}, recipients_)
            raise RuntimeError("the request failed")
    assert await recipients(db) == [] and await job_count(db) == 0
    await send(db, comms, "ada@example.com")
    [row] = await recipients(db)
    assert (row.address, row.status) == ("ada@example.com", "pending")
    assert await job_count(db) == 1


async def test_an_undefined_variable_is_an_error_and_writes_nothing(
    db: AsyncEngine,
) -> None:
    comms = platform(Recorder())
    comms.types["greeting"] = CommType(
        "greeting", Greeting, "Hello {{ nmae }}", "Dear {{ name }},"
    )
    with pytest.raises(UndefinedError):
        await send(db, comms, "ada@example.com")
    assert await recipients(db) == []


async def test_two_runs_of_one_job_send_the_row_once(db: AsyncEngine) -> None:
    transport = Recorder(delay=0.1)
    comms = platform(transport)
    await send(db, comms, "ada@example.com")
    [row] = await recipients(db)
    await asyncio.gather(comms.deliver(db, row.id), comms.deliver(db, row.id))
    assert transport.sent == ["ada@example.com: Hello Ada"]
    [row] = await recipients(db)
    assert row.status == "sent" and row.sent_at is not None and row.error is None


async def test_a_transport_that_raises_fails_the_row_for_good(db: AsyncEngine) -> None:
    transport = Recorder(failure=ConnectionError("the server hung up"))
    comms = platform(transport)
    await send(db, comms, "ada@example.com")
    [row] = await recipients(db)
    await comms.deliver(db, row.id)
    [row] = await recipients(db)
    assert (row.status, row.error) == ("failed", "ConnectionError: the server hung up")
    transport.failure = None
    await comms.deliver(db, row.id)
    assert transport.sent == []
