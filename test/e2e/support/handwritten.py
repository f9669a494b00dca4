"""What the hand-written baselines share: the engine, the session dependency, and
``Idempotency-Key``, written the obvious FastAPI + SQLAlchemy way.

The baselines (handwritten_tags.py for the load test, handwritten_articles.py for
``npm run bench:api``) serve the generated routes' contract: bodies up to 1 MiB
(FastAPI's app-wide limit), a create sent with an ``Idempotency-Key`` stored under the
key in its own transaction, so a retry gets the same answer (``Idempotent-Replayed:
true``) and the key with another body is a 409. Keys live in a table of their own
here. Needs ``DATABASE_URL`` and the blog example on ``PYTHONPATH``.
"""

import asyncio
import hashlib
import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from blog.models import create_tables
from fastapi import Depends, FastAPI, Header, HTTPException
from pydantic import BaseModel
from sqlalchemy import DateTime, String, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from serve import given_port, run_server

engine = create_async_engine(
    os.environ["DATABASE_URL"], pool_size=5, max_overflow=10, pool_pre_ping=True
)
sessions = async_sessionmaker(engine, expire_on_commit=False)


async def get_session() -> AsyncIterator[AsyncSession]:
    async with sessions() as session:
        yield session


Session = Annotated[AsyncSession, Depends(get_session)]

MAX_BODY_SIZE = 1024 * 1024


class KeysBase(DeclarativeBase):
    pass


class IdempotencyKey(KeysBase):
    """The answer a create sent for a key, kept a day."""

    __tablename__ = "handwritten_idempotency_keys"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    answer: Mapped[dict[str, Any]] = mapped_column(JSONB)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


KEY_EXPIRY = timedelta(days=1)

IdempotencyKeyHeader = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key", min_length=1, max_length=255, pattern=r"^[\x21-\x7e]+$"
    ),
]


def fingerprint(body: BaseModel) -> str:
    return hashlib.sha256(body.model_dump_json().encode()).hexdigest()


async def stored_answer(
    session: AsyncSession, key: str | None, body_fingerprint: str
) -> dict[str, Any] | None:
    """The answer stored under *key*, or ``None``; 409 for the key with another body."""
    if key is None:
        return None
    stored = await session.get(IdempotencyKey, key)
    if stored is not None and stored.created_at < datetime.now(UTC) - KEY_EXPIRY:
        await session.delete(stored)
        return None
    if stored is None:
        return None
    if stored.fingerprint != body_fingerprint:
        raise HTTPException(409, "Idempotency-Key used with another body")
    return stored.answer


def remember(
    session: AsyncSession, key: str | None, body_fingerprint: str, answer: BaseModel
) -> None:
    """Store *answer* under *key* in the create's transaction."""
    if key is not None:
        session.add(
            IdempotencyKey(
                key=key,
                fingerprint=body_fingerprint,
                answer=answer.model_dump(mode="json"),
            )
        )


async def prepare_database() -> None:
    await create_tables(engine)
    async with engine.begin() as connection:
        await connection.run_sync(KeysBase.metadata.create_all)
    # The pool's connections belong to this event loop; uvicorn runs another.
    await engine.dispose()


def serve(app: FastAPI) -> None:
    """Serves ``app`` on ``--port`` once its tables exist: a baseline's ``main``."""
    port = given_port()
    asyncio.run(prepare_database())
    run_server(app, port)
