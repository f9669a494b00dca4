"""Outgoing messages in kiln's shape: kept in your models, sent by your transports.

``CommsPlatform.send`` validates a context against its message type, renders the
type's templates (Jinja2 by default, or your renderer), writes one row of your
message model and one row of your recipient model per recipient your preferences
let through, and one pgqueuer job per recipient row, all on the caller's session:
a request that rolls back sends nothing, a committed one is not lost.

A worker (``CommsPlatform.dispatch``) delivers a recipient row with the transport of
its method. It locks the row (``SELECT … FOR UPDATE``) for the send, so a second
run of the same job waits for the first and then finds the row ``sent`` or
``failed``; a worker that dies mid-send releases the lock with its connection, and
pgqueuer's re-run of its job sends the row again (at least once). A transport that
raises marks the row ``failed`` with the error, for good.

Your message model has the columns ``id``, ``comm_type``, ``context``, ``subject``,
``body`` (and whatever else you add); your recipient model ``id``, ``message_id``,
``method``, ``address``, ``status``, ``sent_at``, ``error``: kiln's mixins' columns.
"""

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from jinja2 import Environment, StrictUndefined
from pgqueuer import Job, Queries
from pydantic import BaseModel
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from .queue import get_queue

DISPATCH_ENTRYPOINT = "comms_dispatch"
"""The pgqueuer entrypoint of deliveries; a job's payload is a recipient row's id."""

ERROR_LIMIT = 1024
"""The longest error written to a recipient row (kiln's column holds 1024)."""


@dataclass(frozen=True)
class CommType:
    """A kind of message: the model its context must fit, its templates, and the
    methods ``default_recipients`` addresses it on."""

    name: str
    context_schema: type[BaseModel]
    subject_template: str
    body_template: str
    default_methods: tuple[str, ...] = ()


@dataclass(frozen=True)
class RenderedMessage:
    """A renderer's answer: the subject and body written to the message row."""

    subject: str
    body: str


@dataclass(frozen=True)
class RecipientSpec:
    """One delivery: a method (naming a transport), the address it understands, and
    the key of the person whose preferences decide (``None``: no question asked)."""

    method: str
    address: str
    subject_key: str | None = None


class Renderer(Protocol):
    async def render(
        self, comm_type: CommType, context: BaseModel
    ) -> RenderedMessage: ...


class PreferenceResolver(Protocol):
    async def is_enabled(
        self, *, subject_key: str, comm_type: str, method: str
    ) -> bool: ...


class Transport(Protocol):
    async def send(self, *, message: Any, recipient: Any) -> None:
        """Deliver *message* to *recipient* (rows of your models), or raise."""
        ...


class JinjaRenderer:
    """The default renderer: the templates as Jinja2, with the context's JSON values;
    a variable the context lacks is an error, so no message goes out half-rendered."""

    def __init__(self, *, autoescape: bool = False) -> None:
        self._environment = Environment(
            undefined=StrictUndefined, autoescape=autoescape
        )

    async def render(self, comm_type: CommType, context: BaseModel) -> RenderedMessage:
        values = context.model_dump(mode="json")
        subject = self._environment.from_string(comm_type.subject_template)
        body = self._environment.from_string(comm_type.body_template)
        return RenderedMessage(subject=subject.render(values), body=body.render(values))


class CommsPlatform:
    """The message types of a project, your models and transports, and delivery."""

    def __init__(
        self,
        *,
        types: Iterable[CommType],
        message_model: Any,
        recipient_model: Any,
        transports: Mapping[str, Transport],
        renderer: Renderer | None = None,
        preferences: PreferenceResolver | None = None,
    ) -> None:
        self.types = {comm_type.name: comm_type for comm_type in types}
        self.message_model = message_model
        self.recipient_model = recipient_model
        self.transports = dict(transports)
        self.renderer: Renderer = renderer or JinjaRenderer()
        self.preferences = preferences

    def comm_type(self, name: str) -> CommType:
        comm_type = self.types.get(name)
        if comm_type is None:
            raise LookupError(f"unknown message type {name!r}")
        return comm_type

    def default_recipients(
        self,
        comm_type: str,
        addresses: Mapping[str, str],
        *,
        subject_key: str | None = None,
    ) -> list[RecipientSpec]:
        """The type's default methods that *addresses* (method: address) has one
        for, in the type's order."""
        return [
            RecipientSpec(method, addresses[method], subject_key)
            for method in self.comm_type(comm_type).default_methods
            if method in addresses
        ]

    async def send(
        self,
        session: AsyncSession,
        comm_type: str,
        context: BaseModel | Mapping[str, Any],
        recipients: Sequence[RecipientSpec],
        *,
        queue: Queries | None = None,
    ) -> uuid.UUID:
        """Write the message and its recipient rows and jobs in *session*'s
        transaction; returns the message row's id. A recipient your preferences
        turn down gets no row and no job; the message row is written all the same."""
        spec = self.comm_type(comm_type)
        if isinstance(context, spec.context_schema):
            validated: BaseModel = context
        else:
            data = context.model_dump() if isinstance(context, BaseModel) else context
            validated = spec.context_schema.model_validate(data)
        rendered = await self.renderer.render(spec, validated)
        message_id = uuid.uuid4()
        await session.execute(
            insert(self.message_model).values(
                id=message_id,
                comm_type=spec.name,
                context=validated.model_dump(mode="json"),
                subject=rendered.subject,
                body=rendered.body,
            )
        )
        rows = [
            {
                "id": uuid.uuid4(),
                "message_id": message_id,
                "method": recipient.method,
                "address": recipient.address,
                "status": "pending",
            }
            for recipient in recipients
            if await self._wanted(spec, recipient)
        ]
        if rows:
            await session.execute(insert(self.recipient_model), rows)
            queue = queue or await get_queue(session)
            await queue.enqueue(
                [DISPATCH_ENTRYPOINT] * len(rows),
                [str(row["id"]).encode() for row in rows],
                [0] * len(rows),
            )
        return message_id

    async def _wanted(self, comm_type: CommType, recipient: RecipientSpec) -> bool:
        if self.preferences is None or recipient.subject_key is None:
            return True
        return await self.preferences.is_enabled(
            subject_key=recipient.subject_key,
            comm_type=comm_type.name,
            method=recipient.method,
        )

    async def dispatch(self, engine: AsyncEngine, job: Job) -> None:
        """Deliver the recipient row of *job*, unless it is no longer pending."""
        if job.payload is not None:
            await self.deliver(engine, uuid.UUID(job.payload.decode()))

    async def deliver(self, engine: AsyncEngine, recipient_id: uuid.UUID) -> None:
        """Send the recipient row *recipient_id* with its method's transport and record
        the outcome on it, unless it is no longer pending."""
        model = self.recipient_model
        async with AsyncSession(engine) as session, session.begin():
            # Locked until this transaction ends: another run of the job waits here.
            recipient = (
                await session.execute(
                    select(model).where(model.id == recipient_id).with_for_update()
                )
            ).scalar_one_or_none()
            if recipient is None or recipient.status != "pending":
                return
            try:
                message = await session.get(self.message_model, recipient.message_id)
                if message is None:
                    raise LookupError("message row missing")
                transport = self.transports.get(recipient.method)
                if transport is None:
                    raise LookupError(f"no transport for method {recipient.method!r}")
                await transport.send(message=message, recipient=recipient)
            except Exception as exc:  # noqa: BLE001 - any failure is recorded on the row
                recipient.status = "failed"
                recipient.error = f"{type(exc).__name__}: {exc}"[:ERROR_LIMIT]
            else:
                recipient.status = "sent"
                recipient.sent_at = dt.datetime.now(dt.UTC)
                recipient.error = None
