"""The blog's tag routes written by hand, the obvious FastAPI + SQLAlchemy way.

The load test's baseline: what a developer would write without codegen for the same
list, get and create routes, on the same model, database, pool settings and server, and
the same contract: bodies up to 1 MiB (FastAPI's app-wide limit), a unique name taken
twice is a 409, and a create sent with an ``Idempotency-Key`` is stored under the key in
its own transaction, so a retry gets the same answer (``Idempotent-Replayed: true``) and
the key with another body is a 409. Keys live in a table of their own here.
Run as ``python handwritten_tags.py --port <port>`` with ``DATABASE_URL`` set and the
blog example on ``PYTHONPATH``; served as ``serve.py`` serves the generated routes.
"""

import argparse
import asyncio
import base64
import hashlib
import json
import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from blog.models import Tag, create_tables
from fastapi import Depends, FastAPI, Header, HTTPException, Query, Response
from pydantic import BaseModel
from serve import run_server
from sqlalchemy import DateTime, String, func, select, tuple_
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

engine = create_async_engine(
    os.environ["DATABASE_URL"], pool_size=5, max_overflow=10, pool_pre_ping=True
)
sessions = async_sessionmaker(engine, expire_on_commit=False)


async def get_session() -> AsyncIterator[AsyncSession]:
    async with sessions() as session:
        yield session


Session = Annotated[AsyncSession, Depends(get_session)]


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


class TagIn(BaseModel):
    name: str


class TagOut(BaseModel):
    id: int
    name: str


class TagPage(BaseModel):
    items: list[TagOut]
    next_cursor: str | None


app = FastAPI(max_body_size=1024 * 1024)


@app.get("/tags")
async def list_tags(
    session: Session,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    cursor: str | None = None,
) -> TagPage:
    # By name, as the blog's tag list is ordered; the id breaks ties.
    statement = select(Tag).order_by(Tag.name, Tag.id).limit(limit + 1)
    if cursor is not None:
        name, tag_id = json.loads(base64.urlsafe_b64decode(cursor))
        statement = statement.where(tuple_(Tag.name, Tag.id) > (name, tag_id))
    tags = (await session.scalars(statement)).all()
    items = [TagOut(id=tag.id, name=tag.name) for tag in tags[:limit]]
    next_cursor = None
    if len(tags) > limit:
        last = json.dumps([items[-1].name, items[-1].id]).encode()
        next_cursor = base64.urlsafe_b64encode(last).decode()
    return TagPage(items=items, next_cursor=next_cursor)


@app.get("/tags/{tag_id}")
async def get_tag(tag_id: int, session: Session) -> TagOut:
    tag = await session.get(Tag, tag_id)
    if tag is None:
        raise HTTPException(404, "Tag not found")
    return TagOut(id=tag.id, name=tag.name)


@app.post("/tags", status_code=201)
async def create_tag(
    body: TagIn,
    session: Session,
    response: Response,
    idempotency_key: IdempotencyKeyHeader = None,
) -> TagOut:
    fingerprint = hashlib.sha256(body.model_dump_json().encode()).hexdigest()
    if idempotency_key is not None:
        stored = await session.get(IdempotencyKey, idempotency_key)
        if stored is not None and stored.created_at < datetime.now(UTC) - KEY_EXPIRY:
            await session.delete(stored)
        elif stored is not None:
            if stored.fingerprint != fingerprint:
                raise HTTPException(409, "Idempotency-Key used with another body")
            response.headers["Idempotent-Replayed"] = "true"
            return TagOut.model_validate(stored.answer)
    tag = Tag(name=body.name)
    session.add(tag)
    try:
        await session.flush()
        answer = TagOut(id=tag.id, name=tag.name)
        if idempotency_key is not None:
            session.add(
                IdempotencyKey(
                    key=idempotency_key,
                    fingerprint=fingerprint,
                    answer=answer.model_dump(),
                )
            )
        await session.commit()
    except IntegrityError:
        # A name taken, or the same key committed by a concurrent request.
        raise HTTPException(409, "Conflict") from None
    return answer


async def prepare_database() -> None:
    await create_tables(engine)
    async with engine.begin() as connection:
        await connection.run_sync(KeysBase.metadata.create_all)
    # The pool's connections belong to this event loop; uvicorn runs another.
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    port = parser.parse_args().port
    asyncio.run(prepare_database())
    run_server(app, port)


if __name__ == "__main__":
    main()
