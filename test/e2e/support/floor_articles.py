"""The floor of ``npm run bench:api``: the bench's article routes on the raw driver.

No framework, no ORM, no models: a bare ASGI application, asyncpg's pool and
pydantic-core's JSON encoder (Rust, as orjson; the venv already has it). Each route is
one statement (a write and its read-back in one ``INSERT``/``UPDATE … RETURNING`` joined
with the author), with the contract of the other apps where it costs little: 404 and
422 answers, bodies up to 1 MiB (413), ``Idempotency-Key`` on create (the table of
handwritten.py), a taken key or an unknown author 409. What no ORM app can go below.
Run as ``python floor_articles.py --port <port>`` with ``DATABASE_URL`` set;
served by uvicorn as ``serve.py`` serves the generated routes.
"""

import base64
import hashlib
import os
import uuid
from datetime import date, datetime
from typing import Any
from urllib.parse import parse_qs

import asyncpg
from pydantic_core import from_json, to_json
from starlette.types import Receive, Scope, Send

from serve import given_port, run_server

MAX_BODY_SIZE = 1024 * 1024

COLUMNS = (
    "a.id, a.title, a.body, a.published, a.status, a.published_at, a.publish_on, "
    "a.word_count, a.rating, a.extra, a.author_id, au.name AS author_name"
)
GET = (
    f"SELECT {COLUMNS} FROM articles a JOIN authors au ON au.id = a.author_id "
    "WHERE a.id = $1"
)
PAGE = (
    f"SELECT {COLUMNS} FROM articles a JOIN authors au ON au.id = a.author_id "
    "WHERE $1::uuid IS NULL OR a.id > $1 ORDER BY a.id LIMIT $2"
)
INSERT = (
    "WITH a AS (INSERT INTO articles (id, title, body, published, status, "
    "published_at, publish_on, word_count, rating, extra, author_id) "
    "VALUES ($1, $2, $3, $4, 'draft', $5, $6, $7, $8, $9, $10) RETURNING *) "
    f"SELECT {COLUMNS} FROM a JOIN authors au ON au.id = a.author_id"
)
KEY = "SELECT fingerprint, answer FROM handwritten_idempotency_keys WHERE key = $1"
REMEMBER = (
    "INSERT INTO handwritten_idempotency_keys (key, fingerprint, answer) "
    "VALUES ($1, $2, $3)"
)
WRITABLE = {
    "title": str,
    "body": str,
    "published": bool,
    "published_at": datetime.fromisoformat,
    "publish_on": date.fromisoformat,
    "word_count": int,
    "rating": float,
    "extra": dict,
    "author_id": uuid.UUID,
}
DEFAULTS: dict[str, Any] = {
    "published": False,
    "published_at": None,
    "publish_on": None,
    "word_count": 0,
    "rating": None,
    "extra": {},
}

pool: asyncpg.Pool | None = None


class Answer(Exception):
    def __init__(self, status: int, detail: str) -> None:
        self.status = status
        self.detail = detail


def article(row: asyncpg.Record) -> dict[str, Any]:
    return {
        "id": row["id"],
        "title": row["title"],
        "body": row["body"],
        "published": row["published"],
        "status": row["status"],
        "published_at": row["published_at"],
        "publish_on": row["publish_on"],
        "word_count": row["word_count"],
        "rating": row["rating"],
        "extra": row["extra"],
        "author_id": row["author_id"],
        "author": {"id": row["author_id"], "name": row["author_name"]},
    }


def values(body: Any, required: bool) -> dict[str, Any]:
    """The writable fields of a JSON body, converted; 422 for anything else."""
    if not isinstance(body, dict) or set(body) - WRITABLE.keys():
        raise Answer(422, "unknown field")
    if required and not {"title", "body", "author_id"} <= body.keys():
        raise Answer(422, "title, body and author_id are required")
    try:
        return {
            name: None if value is None else WRITABLE[name](value)
            for name, value in body.items()
        }
    except (TypeError, ValueError):
        raise Answer(422, "invalid value") from None


async def read_body(receive: Receive) -> Any:
    chunks: list[bytes] = []
    size = 0
    more = True
    while more:
        message = await receive()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_SIZE:
            raise Answer(413, "body too large")
        chunks.append(chunk)
        more = message.get("more_body", False)
    try:
        return from_json(b"".join(chunks))
    except ValueError:
        raise Answer(422, "invalid JSON") from None


async def get_one(connection: asyncpg.Connection, pk: uuid.UUID) -> dict[str, Any]:
    row = await connection.fetchrow(GET, pk)
    if row is None:
        raise Answer(404, "Article not found")
    return article(row)


async def page(connection: asyncpg.Connection, query: str) -> dict[str, Any]:
    params = parse_qs(query)
    if set(params) - {"limit", "cursor"}:
        raise Answer(422, "unknown query parameter")
    try:
        limit = int(params.get("limit", ["20"])[0])
        cursor = params.get("cursor", [""])[0]
        after = uuid.UUID(base64.urlsafe_b64decode(cursor).decode()) if cursor else None
    except ValueError:
        raise Answer(422, "invalid limit or cursor") from None
    if not 1 <= limit <= 100:
        raise Answer(422, "limit out of range")
    rows = await connection.fetch(PAGE, after, limit + 1)
    items = [article(row) for row in rows[:limit]]
    next_cursor = None
    if len(rows) > limit:
        next_cursor = base64.urlsafe_b64encode(str(items[-1]["id"]).encode()).decode()
    return {"items": items, "next_cursor": next_cursor}


async def create(
    connection: asyncpg.Connection, body: Any, key: str | None
) -> tuple[dict[str, Any], bool]:
    fields = {**DEFAULTS, **values(body, required=True)}
    body_fingerprint = hashlib.sha256(to_json(body)).hexdigest()
    async with connection.transaction():
        if key is not None:
            stored = await connection.fetchrow(KEY, key)
            if stored is not None:
                if stored["fingerprint"] != body_fingerprint:
                    raise Answer(409, "Idempotency-Key used with another body")
                return stored["answer"], True
        row = await connection.fetchrow(
            INSERT,
            uuid.uuid4(),
            fields["title"],
            fields["body"],
            fields["published"],
            fields["published_at"],
            fields["publish_on"],
            fields["word_count"],
            fields["rating"],
            fields["extra"],
            fields["author_id"],
        )
        answer = article(row)
        if key is not None:
            await connection.execute(REMEMBER, key, body_fingerprint, answer)
    return answer, False


async def update(
    connection: asyncpg.Connection, pk: uuid.UUID, body: Any
) -> dict[str, Any]:
    fields = values(body, required=False)
    if not fields:
        return await get_one(connection, pk)
    # Column names come from WRITABLE only, never from the body.
    assignments = ", ".join(
        f"{name} = ${index}" for index, name in enumerate(fields, start=2)
    )
    statement = (
        f"WITH a AS (UPDATE articles SET {assignments} WHERE id = $1 RETURNING *) "
        f"SELECT {COLUMNS} FROM a JOIN authors au ON au.id = a.author_id"
    )
    row = await connection.fetchrow(statement, pk, *fields.values())
    if row is None:
        raise Answer(404, "Article not found")
    return article(row)


async def respond(
    send: Send, status: int, payload: Any, headers: list[tuple[bytes, bytes]]
) -> None:
    body = to_json(payload)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def handle(
    scope: Scope, receive: Receive
) -> tuple[int, Any, list[tuple[bytes, bytes]]]:
    assert pool is not None
    method, path = scope["method"], scope["path"].rstrip("/")
    if path == "/articles" and method == "GET":
        async with pool.acquire() as connection:
            return 200, await page(connection, scope["query_string"].decode()), []
    if path == "/articles" and method == "POST":
        body = await read_body(receive)
        key = dict(scope["headers"]).get(b"idempotency-key")
        async with pool.acquire() as connection:
            answer, replayed = await create(
                connection, body, None if key is None else key.decode()
            )
        headers = [(b"location", f"/articles/{answer['id']}".encode())]
        if replayed:
            headers.append((b"idempotent-replayed", b"true"))
        return 201, answer, headers
    if path.startswith("/articles/"):
        try:
            pk = uuid.UUID(path.removeprefix("/articles/"))
        except ValueError:
            raise Answer(404, "Not Found") from None
        if method == "GET":
            async with pool.acquire() as connection:
                return 200, await get_one(connection, pk), []
        if method == "PATCH":
            body = await read_body(receive)
            async with pool.acquire() as connection:
                return 200, await update(connection, pk, body), []
    raise Answer(404, "Not Found")


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    global pool
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                pool = await asyncpg.create_pool(
                    os.environ["DATABASE_URL"].replace("+asyncpg", ""),
                    min_size=5,
                    max_size=15,
                    init=init_connection,
                )
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if pool is not None:
                    await pool.close()
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    try:
        status, payload, headers = await handle(scope, receive)
    except Answer as answer:
        status, payload, headers = answer.status, {"detail": answer.detail}, []
    except asyncpg.ForeignKeyViolationError:
        status, payload, headers = 409, {"detail": "Conflict"}, []
    except asyncpg.UniqueViolationError:
        status, payload, headers = 409, {"detail": "Conflict"}, []
    await respond(send, status, payload, headers)


async def init_connection(connection: asyncpg.Connection) -> None:
    await connection.set_type_codec(
        "jsonb",
        encoder=lambda value: to_json(value).decode(),
        decoder=from_json,
        schema="pg_catalog",
    )


if __name__ == "__main__":
    run_server(app, given_port())
