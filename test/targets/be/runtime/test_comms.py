"""The comms helper against a real PostgreSQL: messages written in the caller's
transaction with their jobs, one attempt per claim, retries with backoff, leases,
and the webhook signature. Targets here are in-memory; test/e2e/comms.test.ts
delivers to a real SMTP server and HTTP receiver."""

import time
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
import pytest_asyncio
from jinja2 import UndefinedError
from pydantic import BaseModel, ValidationError
from runtime.comms import (
    ENTRYPOINT,
    Comms,
    CommType,
    SmtpTarget,
    comm_attempts,
    comm_outbox,
    metadata,
    verify_webhook,
    webhook_signature,
)
from sqlalchemy import Row, delete, select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Greeting(BaseModel):
    name: str


class Recorder:
    """A target that records what it is given, failing while ``failures`` last."""

    def __init__(self, name: str, failures: int = 0) -> None:
        self.name = name
        self.failures = failures
        self.sent: list[Row[Any]] = []

    def recipients(self, to: list[str]) -> list[str]:
        return list(to) or ["everyone"]

    async def deliver(self, delivery: Row[Any]) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("the server hung up")
        self.sent.append(delivery)


def comms_with(*targets: Recorder, html: bool = False, max_attempts: int = 3) -> Comms:
    greeting = CommType(
        name="greeting",
        context=Greeting,
        subject="Hello {{ name }}",
        body="<p>{{ name }}</p>" if html else "Dear {{ name }},",
        targets=tuple(target.name for target in targets),
        html=html,
    )
    return Comms([greeting], list(targets), max_attempts=max_attempts, retry_delay=1.5)


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def tables(pgqueuer_engine: AsyncEngine) -> AsyncEngine:
    async with pgqueuer_engine.begin() as conn:
        await conn.run_sync(metadata.create_all)
    return pgqueuer_engine


@pytest_asyncio.fixture(loop_scope="session")
async def db(tables: AsyncEngine) -> AsyncIterator[AsyncEngine]:
    yield tables
    async with tables.begin() as conn:
        await conn.execute(delete(comm_outbox))
    await drop_jobs(tables)


async def jobs(engine: AsyncEngine) -> list[Row[Any]]:
    """The delivery jobs: each one's payload, and the delay it was queued with.

    The delay counts from when the job was queued (``created``, in the same statement as
    ``execute_after``), not from this read, so time spent meanwhile does not shorten it.
    """
    async with engine.connect() as conn:
        query = text(
            "SELECT payload, execute_after - created AS delay FROM pgqueuer"
            " WHERE entrypoint = :e ORDER BY id"
        )
        return list((await conn.execute(query, {"e": ENTRYPOINT})).all())


async def drop_jobs(engine: AsyncEngine) -> None:
    """Delete the delivery jobs, so that a test runs its deliveries itself."""
    async with engine.begin() as conn:
        await conn.execute(
            text("DELETE FROM pgqueuer WHERE entrypoint = :e"), {"e": ENTRYPOINT}
        )


async def rows(engine: AsyncEngine) -> list[Row[Any]]:
    async with engine.connect() as conn:
        return list((await conn.execute(select(comm_outbox))).all())


async def attempts(engine: AsyncEngine) -> list[str]:
    async with engine.connect() as conn:
        query = select(comm_attempts.c.status).order_by(comm_attempts.c.id)
        return list((await conn.scalars(query)).all())


async def send(engine: AsyncEngine, comms: Comms, **kwargs: Any) -> list[uuid.UUID]:
    async with AsyncSession(engine) as session, session.begin():
        return await comms.send(session, "greeting", {"name": "Ada"}, **kwargs)


async def test_a_message_is_written_with_its_jobs_in_the_callers_transaction(
    db: AsyncEngine,
) -> None:
    comms = comms_with(Recorder("mail"), Recorder("hook"))
    ids = await send(db, comms, to=["a@example.com", "b@example.com", "a@example.com"])
    stored = await rows(db)
    assert len(ids) == 4 and {row.id for row in stored} == set(ids)
    assert {(row.target, row.recipient) for row in stored} == {
        ("mail", "a@example.com"),
        ("mail", "b@example.com"),
        ("hook", "a@example.com"),
        ("hook", "b@example.com"),
    }
    assert {row.subject for row in stored} == {"Hello Ada"}
    assert {row.status for row in stored} == {"pending"}
    assert sorted(job.payload.decode() for job in await jobs(db)) == sorted(
        str(i) for i in ids
    )


async def test_a_rolled_back_transaction_leaves_neither_message_nor_job(
    db: AsyncEngine,
) -> None:
    comms = comms_with(Recorder("mail"))
    async with AsyncSession(db) as session:
        await comms.send(session, "greeting", Greeting(name="Ada"), to=["a@x.org"])
        await session.rollback()
    assert await rows(db) == [] and await jobs(db) == []


async def test_a_bad_context_or_template_fails_the_send(db: AsyncEngine) -> None:
    comms = comms_with(Recorder("mail"))
    async with AsyncSession(db) as session:
        with pytest.raises(ValidationError):
            await comms.send(session, "greeting", {"nom": "Ada"})
        with pytest.raises(LookupError, match="unknown message type 'welcome'"):
            await comms.send(session, "welcome", {"name": "Ada"})
        with pytest.raises(TypeError, match="list of recipients"):
            await comms.send(session, "greeting", {"name": "Ada"}, to="a@x.org")
    broken = Comms(
        [CommType("greeting", Greeting, "Hi {{ nme }}", "", ("mail",))],
        [Recorder("mail")],
    )
    async with AsyncSession(db) as session:
        with pytest.raises(UndefinedError, match="nme"):
            await broken.send(session, "greeting", {"name": "Ada"})


async def test_html_bodies_escape_the_context_and_subjects_do_not(
    db: AsyncEngine,
) -> None:
    comms = comms_with(Recorder("mail"), html=True)
    async with AsyncSession(db) as session, session.begin():
        await comms.send(session, "greeting", {"name": "<Ada & Bob>"})
    [row] = await rows(db)
    assert row.body == "<p>&lt;Ada &amp; Bob&gt;</p>" and row.html is True
    assert row.subject == "Hello <Ada & Bob>"


async def test_smtp_targets_need_recipients() -> None:
    with pytest.raises(ValueError, match="pass to="):
        SmtpTarget("mail").recipients([])


async def test_a_delivered_message_is_never_delivered_again(db: AsyncEngine) -> None:
    mail = Recorder("mail")
    comms = comms_with(mail)
    [delivery_id] = await send(db, comms)
    lease = timedelta(seconds=30)
    await comms.deliver(db, delivery_id, lease=lease)
    await comms.deliver(db, delivery_id, lease=lease)
    assert [row.id for row in mail.sent] == [delivery_id]
    [row] = await rows(db)
    assert (row.status, row.attempts, row.claim) == ("delivered", 1, None)
    assert row.delivered_at is not None
    assert await attempts(db) == ["delivered"]


async def test_failures_are_recorded_and_retried_with_backoff_then_given_up(
    db: AsyncEngine,
) -> None:
    mail = Recorder("mail", failures=5)
    comms = comms_with(mail, max_attempts=3)
    [delivery_id] = await send(db, comms)
    await drop_jobs(db)
    lease = timedelta(seconds=30)
    for _ in range(3):
        await comms.deliver(db, delivery_id, lease=lease)
    [row] = await rows(db)
    assert (row.status, row.attempts) == ("failed", 3)
    assert await attempts(db) == ["failed", "failed", "failed"]
    # 1.5 s, then 3 s: each retry waits twice as long; none after the last attempt.
    retries = await jobs(db)
    assert len(retries) == 2
    assert timedelta(seconds=1) < retries[0].delay <= timedelta(seconds=1.5)
    assert timedelta(seconds=2.5) < retries[1].delay <= timedelta(seconds=3)
    async with db.connect() as conn:
        errors = (await conn.scalars(select(comm_attempts.c.error))).all()
    assert set(errors) == {"ConnectionError: the server hung up"}


async def test_a_held_lease_keeps_others_off_and_an_expired_one_is_retried(
    db: AsyncEngine,
) -> None:
    mail = Recorder("mail")
    comms = comms_with(mail)
    [delivery_id] = await send(db, comms)
    await drop_jobs(db)
    # A worker claimed the row and died before finishing: its attempt stays "sending".
    async with AsyncSession(db) as session, session.begin():
        await comms._claim(session, delivery_id, uuid.uuid4(), timedelta(minutes=5))
    await comms.deliver(db, delivery_id, lease=timedelta(seconds=30))
    assert mail.sent == []
    [check] = await jobs(db)
    assert timedelta(minutes=4) < check.delay <= timedelta(minutes=5, seconds=1)
    async with db.begin() as conn:
        await conn.execute(
            update(comm_outbox).values(lease_until=text("now() - interval '1 second'"))
        )
    await comms.deliver(db, delivery_id, lease=timedelta(seconds=30))
    assert [row.id for row in mail.sent] == [delivery_id]
    assert await attempts(db) == ["interrupted", "delivered"]
    [row] = await rows(db)
    assert (row.status, row.attempts) == ("delivered", 2)


async def test_webhook_signatures_cover_the_timestamp_and_the_body() -> None:
    body = b'{"id":"1"}'
    signature = webhook_signature("s3cret", "1700000000", body)
    assert signature.startswith("sha256=") and len(signature) == 71
    assert signature != webhook_signature("s3cret", "1700000001", body)
    assert signature != webhook_signature("other", "1700000000", body)
    now = str(int(time.time()))
    fresh = webhook_signature("s3cret", now, body)
    assert verify_webhook("s3cret", now, body, fresh)
    assert not verify_webhook("s3cret", now, body + b" ", fresh)
    assert not verify_webhook("s3cret", "1700000000", body, signature)
    assert not verify_webhook("s3cret", "soon", body, fresh)
