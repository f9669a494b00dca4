"""The blog's tag routes written by hand, the obvious FastAPI + SQLAlchemy way.

The load test's baseline: what a developer would write without codegen for the same
list, get and create routes, on the same model, database, pool settings and server.
Run as ``python handwritten_tags.py --port <port>`` with ``DATABASE_URL`` set and the
blog example on ``PYTHONPATH``; served as ``serve.py`` serves the generated routes.
"""

import argparse
import asyncio
import base64
import json
import os
from collections.abc import AsyncIterator
from typing import Annotated

from blog.models import Tag, create_tables
from fastapi import Depends, FastAPI, HTTPException, Query
from pydantic import BaseModel
from serve import run_server
from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine

engine = create_async_engine(
    os.environ["DATABASE_URL"], pool_size=5, max_overflow=10, pool_pre_ping=True
)
sessions = async_sessionmaker(engine, expire_on_commit=False)


async def get_session() -> AsyncIterator[AsyncSession]:
    async with sessions() as session:
        yield session


Session = Annotated[AsyncSession, Depends(get_session)]


class TagIn(BaseModel):
    name: str


class TagOut(BaseModel):
    id: int
    name: str


class TagPage(BaseModel):
    items: list[TagOut]
    next_cursor: str | None


app = FastAPI()


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
async def create_tag(body: TagIn, session: Session) -> TagOut:
    tag = Tag(name=body.name)
    session.add(tag)
    await session.commit()
    return TagOut(id=tag.id, name=tag.name)


async def prepare_database() -> None:
    await create_tables(engine)
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
