"""The blog's tag routes written by hand, the obvious FastAPI + SQLAlchemy way.

The load test's baseline: what a developer would write without codegen for the same
list, get and create routes, on the same model, database, pool settings and server, and
the same contract (handwritten.py): bodies up to 1 MiB, a unique name taken twice is a
409, and a create sent with an ``Idempotency-Key`` is answered again on a retry.
Run as ``python handwritten_tags.py --port <port>`` with ``DATABASE_URL`` set and the
blog example on ``PYTHONPATH``; served as ``serve.py`` serves the generated routes.
"""

import base64
import json
from typing import Annotated

from blog.models import Tag
from fastapi import FastAPI, HTTPException, Query, Response
from pydantic import BaseModel
from sqlalchemy import select, tuple_
from sqlalchemy.exc import IntegrityError

from handwritten import (
    MAX_BODY_SIZE,
    IdempotencyKeyHeader,
    Session,
    fingerprint,
    remember,
    serve,
    stored_answer,
)


class TagIn(BaseModel):
    name: str


class TagOut(BaseModel):
    id: int
    name: str


class TagPage(BaseModel):
    items: list[TagOut]
    next_cursor: str | None


app = FastAPI(max_body_size=MAX_BODY_SIZE)


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
    body_fingerprint = fingerprint(body)
    stored = await stored_answer(session, idempotency_key, body_fingerprint)
    if stored is not None:
        response.headers["Idempotent-Replayed"] = "true"
        return TagOut.model_validate(stored)
    tag = Tag(name=body.name)
    session.add(tag)
    try:
        await session.flush()
        answer = TagOut(id=tag.id, name=tag.name)
        remember(session, idempotency_key, body_fingerprint, answer)
        await session.commit()
    except IntegrityError:
        # A name taken, or the same key committed by a concurrent request.
        raise HTTPException(409, "Conflict") from None
    return answer


if __name__ == "__main__":
    serve(app)
