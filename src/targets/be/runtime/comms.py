"""Outgoing messages: written in the request's transaction, delivered by a worker.

``Comms.send`` renders a message type's templates with its context and writes one
``comm_outbox`` row per recipient and target, with one pgqueuer job each, on the
session's own transaction: a request that rolls back sends nothing, and a committed
message survives the process dying right after the commit.

A pgqueuer worker (``Comms.register``) delivers each row. It claims the row first
(status ``sending``, a fresh claim id, a lease), commits, sends, then marks it
``delivered`` only if its claim still holds. A row is never claimed while another
worker's lease runs, and a delivered row is never claimed again. A worker killed
between the send and that last commit leaves the row ``sending``; once its lease
ends the next worker sends again: delivery is at least once, and a duplicate is
possible only in that window (SMTP offers no way to close it; each e-mail carries
its row id as ``Message-ID`` and each webhook as ``Comms-Id``, so receivers can
drop repeats). Every attempt is a row of ``comm_attempts``; failures are retried
with exponential backoff up to ``max_attempts``.

The tables are in ``metadata``: create them with your migrations.
"""

import asyncio
import hmac
import json
import os
import smtplib
import time
import urllib.request
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from typing import Any, Protocol

from jinja2 import Environment, StrictUndefined
from pgqueuer import Job, PgQueuer
from pydantic import BaseModel
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Identity,
    Integer,
    MetaData,
    Row,
    String,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from .queue import get_queue

metadata = MetaData()
"""The tables of this module, for your migrations (``target_metadata`` in Alembic)."""

comm_outbox = Table(
    "comm_outbox",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("message_id", Uuid, nullable=False),
    Column("type", Text, nullable=False),
    Column("target", Text, nullable=False),
    Column("recipient", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("body", Text, nullable=False),
    Column("html", Boolean, nullable=False, server_default="false"),
    Column("context", JSONB, nullable=False),
    Column("status", String(16), nullable=False, server_default="pending"),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("claim", Uuid),
    Column("lease_until", DateTime(timezone=True)),
    Column(
        "created_at", DateTime(timezone=True), nullable=False, server_default=func.now()
    ),
    Column("delivered_at", DateTime(timezone=True)),
    UniqueConstraint("message_id", "target", "recipient"),
)
"""One row per message, target and recipient; ``status`` is ``pending``,
``sending``, ``retrying``, ``delivered`` or ``failed``."""

comm_attempts = Table(
    "comm_attempts",
    metadata,
    Column("id", BigInteger, Identity(), primary_key=True),
    Column(
        "delivery_id",
        Uuid,
        ForeignKey("comm_outbox.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("attempt", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("error", Text),
    Column(
        "started_at", DateTime(timezone=True), nullable=False, server_default=func.now()
    ),
    Column("finished_at", DateTime(timezone=True)),
)
"""Every delivery attempt: ``sending`` while it runs, then ``delivered``,
``failed`` (with the error) or ``interrupted`` (its worker died)."""

ENTRYPOINT = "comms_deliver"
"""The pgqueuer entrypoint of deliveries."""


class Target(Protocol):
    """Where messages of a type go."""

    @property
    def name(self) -> str:
        """What message types call the target."""
        ...

    def recipients(self, to: Sequence[str]) -> list[str]:
        """The recipients one message has at this target."""
        ...

    async def deliver(self, delivery: Row[Any]) -> None:
        """Send one ``comm_outbox`` row; raise when it was not accepted."""
        ...


@dataclass(frozen=True)
class SmtpTarget:
    """E-mail over SMTP; the settings are read from the environment at each send."""

    name: str
    host_env: str = "SMTP_HOST"
    port_env: str = "SMTP_PORT"
    from_env: str = "SMTP_FROM"
    tls_env: str = "SMTP_TLS"
    username_env: str = "SMTP_USERNAME"
    password_env: str = "SMTP_PASSWORD"
    timeout: float = 30.0

    def recipients(self, to: Sequence[str]) -> list[str]:
        if not to:
            raise ValueError(f"the target {self.name!r} sends e-mail: pass to=[...]")
        return list(to)

    async def deliver(self, delivery: Row[Any]) -> None:
        message = EmailMessage()
        message["Subject"] = delivery.subject
        message["From"] = os.environ[self.from_env]
        message["To"] = delivery.recipient
        message["Message-ID"] = f"<{delivery.id}@comms>"
        message.set_content(delivery.body, subtype="html" if delivery.html else "plain")
        await asyncio.to_thread(self._send, message)

    def _send(self, message: EmailMessage) -> None:
        tls = os.environ.get(self.tls_env, "starttls").lower()
        if tls not in ("starttls", "ssl", "none"):
            raise ValueError(f"{self.tls_env} must be starttls, ssl or none")
        host = os.environ[self.host_env]
        port = int(os.environ.get(self.port_env) or (465 if tls == "ssl" else 587))
        smtp_class = smtplib.SMTP_SSL if tls == "ssl" else smtplib.SMTP
        with smtp_class(host, port, timeout=self.timeout) as smtp:
            if tls == "starttls":
                smtp.starttls()
            username = os.environ.get(self.username_env)
            if username:
                smtp.login(username, os.environ.get(self.password_env, ""))
            smtp.send_message(message)


def webhook_signature(secret: str, timestamp: str, body: bytes) -> str:
    """``sha256=<hex>``: HMAC-SHA256 with *secret* over ``{timestamp}.{body}``."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, "sha256")
    return f"sha256={digest.hexdigest()}"


def verify_webhook(
    secret: str, timestamp: str, body: bytes, signature: str, *, tolerance: int = 300
) -> bool:
    """Whether a received webhook is signed with *secret* and at most *tolerance*
    seconds old (for receivers)."""
    try:
        age = abs(time.time() - int(timestamp))
    except ValueError:
        return False
    expected = webhook_signature(secret, timestamp, body)
    return age <= tolerance and hmac.compare_digest(expected, signature)


@dataclass(frozen=True)
class WebhookTarget:
    """A JSON ``POST``, signed: ``Comms-Signature`` over ``Comms-Timestamp`` and the
    body. The URL and secret are read from the environment at each send."""

    name: str
    url_env: str
    secret_env: str
    timeout: float = 30.0

    def recipients(self, to: Sequence[str]) -> list[str]:
        return [f"${self.url_env}"]

    async def deliver(self, delivery: Row[Any]) -> None:
        body = json.dumps(
            {
                "id": str(delivery.id),
                "message_id": str(delivery.message_id),
                "type": delivery.type,
                "subject": delivery.subject,
                "body": delivery.body,
                "context": delivery.context,
            },
            separators=(",", ":"),
            sort_keys=True,
        ).encode()
        timestamp = str(int(time.time()))
        signature = webhook_signature(os.environ[self.secret_env], timestamp, body)
        request = urllib.request.Request(
            os.environ[self.url_env],
            data=body,
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Comms-Id": str(delivery.id),
                "Comms-Timestamp": timestamp,
                "Comms-Signature": signature,
            },
        )
        await asyncio.to_thread(self._post, request)

    def _post(self, request: urllib.request.Request) -> None:
        # urlopen raises HTTPError for any status from 400 on.
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            response.read()


@dataclass(frozen=True)
class CommType:
    """A kind of message: the model its context must fit, its templates, targets."""

    name: str
    context: type[BaseModel]
    subject: str
    body: str
    targets: tuple[str, ...]
    html: bool = False


class Comms:
    """The message types and targets of a project, and their delivery."""

    def __init__(
        self,
        types: Iterable[CommType],
        targets: Iterable[Target],
        *,
        max_attempts: int = 5,
        retry_delay: float = 10.0,
    ) -> None:
        self.types = {comm_type.name: comm_type for comm_type in types}
        self.targets = {target.name: target for target in targets}
        self.max_attempts = max_attempts
        self.retry_delay = retry_delay
        # Undefined variables are errors; HTML bodies escape the context's values.
        self._text = Environment(undefined=StrictUndefined, autoescape=False)
        self._html = Environment(undefined=StrictUndefined, autoescape=True)

    async def send(
        self,
        session: AsyncSession,
        type_name: str,
        context: BaseModel | Mapping[str, Any],
        *,
        to: Sequence[str] = (),
    ) -> list[uuid.UUID]:
        """Write the message *type_name* for *to* in *session*'s transaction and
        enqueue its deliveries there; returns the ids of its ``comm_outbox`` rows."""
        comm_type = self.types.get(type_name)
        if comm_type is None:
            raise LookupError(f"unknown message type {type_name!r}")
        if isinstance(to, str):
            raise TypeError("to= takes a list of recipients, not one string")
        model = comm_type.context.model_validate(
            context.model_dump() if isinstance(context, BaseModel) else context
        )
        values = model.model_dump()
        subject = self._text.from_string(comm_type.subject).render(values)
        body_env = self._html if comm_type.html else self._text
        body = body_env.from_string(comm_type.body).render(values)
        message_id = uuid.uuid4()
        rows = [
            {
                "id": uuid.uuid4(),
                "message_id": message_id,
                "type": comm_type.name,
                "target": target.name,
                "recipient": recipient,
                "subject": subject,
                "body": body,
                "html": comm_type.html,
                "context": model.model_dump(mode="json"),
            }
            for target in (self.targets[name] for name in comm_type.targets)
            for recipient in dict.fromkeys(target.recipients(to))
        ]
        await session.execute(insert(comm_outbox), rows)
        queue = await get_queue(session)
        await queue.enqueue(
            [ENTRYPOINT] * len(rows),
            [str(row["id"]).encode() for row in rows],
            [0] * len(rows),
        )
        return [row["id"] for row in rows]

    def register(
        self,
        worker: PgQueuer,
        engine: AsyncEngine,
        *,
        lease: timedelta = timedelta(minutes=2),
    ) -> None:
        """Deliver messages in *worker*, keeping the outbox in *engine*'s database.
        *lease*: how long a claim keeps other workers off a row; longer than a send
        may take (the targets time out after 30 s)."""

        @worker.entrypoint(ENTRYPOINT)
        async def deliver(job: Job) -> None:
            if job.payload is not None:
                await self.deliver(engine, uuid.UUID(job.payload.decode()), lease=lease)

    async def deliver(
        self, engine: AsyncEngine, delivery_id: uuid.UUID, *, lease: timedelta
    ) -> None:
        """One delivery attempt of the ``comm_outbox`` row *delivery_id*, unless it
        was delivered, failed for good, or another worker holds it."""
        claim = uuid.uuid4()
        async with AsyncSession(engine) as session, session.begin():
            delivery = await self._claim(session, delivery_id, claim, lease)
            if delivery is None:
                return
        target = self.targets.get(delivery.target)
        error: str | None = None
        try:
            if target is None:
                raise LookupError(f"no target {delivery.target!r} in this worker")
            await target.deliver(delivery)
        except Exception as exc:  # noqa: BLE001 - any failure is recorded and retried
            error = f"{type(exc).__name__}: {exc}"[:2000]
        async with AsyncSession(engine) as session, session.begin():
            await self._finish(session, delivery, claim, error)

    async def _claim(
        self,
        session: AsyncSession,
        delivery_id: uuid.UUID,
        claim: uuid.UUID,
        lease: timedelta,
    ) -> Row[Any] | None:
        now = func.now()
        claimable = or_(
            comm_outbox.c.status.in_(("pending", "retrying")),
            (comm_outbox.c.status == "sending") & (comm_outbox.c.lease_until < now),
        )
        delivery = (
            await session.execute(
                update(comm_outbox)
                .where(comm_outbox.c.id == delivery_id, claimable)
                .values(
                    status="sending",
                    claim=claim,
                    lease_until=now + lease,
                    attempts=comm_outbox.c.attempts + 1,
                )
                .returning(comm_outbox)
            )
        ).one_or_none()
        if delivery is None:
            await self._check_later(session, delivery_id)
            return None
        # An attempt still "sending" lost its worker before it could finish.
        await session.execute(
            update(comm_attempts)
            .where(
                comm_attempts.c.delivery_id == delivery_id,
                comm_attempts.c.status == "sending",
            )
            .values(status="interrupted", finished_at=now)
        )
        await session.execute(
            insert(comm_attempts).values(
                delivery_id=delivery_id, attempt=delivery.attempts, status="sending"
            )
        )
        return delivery

    async def _check_later(self, session: AsyncSession, delivery_id: uuid.UUID) -> None:
        # Held by another worker's lease: come back when it ends, in case that worker
        # died (its own job is then re-run by pgqueuer too; the first claim wins).
        lease_until = (
            await session.execute(
                select(comm_outbox.c.lease_until - func.now()).where(
                    comm_outbox.c.id == delivery_id, comm_outbox.c.status == "sending"
                )
            )
        ).scalar_one_or_none()
        if lease_until is not None:
            after = max(lease_until, timedelta(0)) + timedelta(seconds=1)
            await _deliver_later(session, delivery_id, after)

    async def _finish(
        self,
        session: AsyncSession,
        delivery: Row[Any],
        claim: uuid.UUID,
        error: str | None,
    ) -> None:
        held = (comm_outbox.c.id == delivery.id) & (comm_outbox.c.claim == claim)
        attempt = (comm_attempts.c.delivery_id == delivery.id) & (
            comm_attempts.c.attempt == delivery.attempts
        )
        if error is None:
            status = "delivered"
            values: dict[str, Any] = {"delivered_at": func.now()}
        elif delivery.attempts >= self.max_attempts:
            status = "failed"
            values = {}
        else:
            status = "retrying"
            values = {}
        result = await session.execute(
            update(comm_outbox)
            .where(held)
            .values(status=status, claim=None, lease_until=None, **values)
            .returning(comm_outbox.c.id)
        )
        await session.execute(
            update(comm_attempts)
            .where(attempt)
            .values(
                status="delivered" if error is None else "failed",
                error=error,
                finished_at=func.now(),
            )
        )
        if status == "retrying" and result.one_or_none() is not None:
            delay = self.retry_delay * 2 ** (delivery.attempts - 1)
            await _deliver_later(session, delivery.id, timedelta(seconds=delay))


async def _deliver_later(
    session: AsyncSession, delivery_id: uuid.UUID, after: timedelta
) -> None:
    # One more delivery job, in *session*'s transaction.
    queue = await get_queue(session)
    await queue.enqueue(ENTRYPOINT, str(delivery_id).encode(), execute_after=after)
