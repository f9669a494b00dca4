"""The floor's reads on this stack: FastAPI routes and SQLAlchemy's ORM session alone.

A baseline of ``npm run bench:api``, for its get and its list: floor_articles.py's
routes and code (its ``get_one`` and ``page``), with FastAPI routes in place of the bare
ASGI application, and each statement an ORM ``select`` built once, run by an
``AsyncSession`` in autocommit, in place of the same SQL on asyncpg's pool. That is how
the generated routes read, and must: the ORM applies row visibility to every statement
it runs (docs/be.md). No models, no Pydantic, no dependency: what any read that FastAPI
serves and the ORM runs costs at least, so the distance from it to the floor is the
stack's own. Run as ``python stack_floor_articles.py --port <port>`` with
``DATABASE_URL`` set and the blog example on ``PYTHONPATH``.
"""

import os
import uuid
from typing import Any

from blog.models import Article, Author
from fastapi import FastAPI, Request, Response
from pydantic_core import to_json
from sqlalchemy import Select, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine

from floor_articles import GET, PAGE, Answer, get_one, page
from serve import given_port, run_server

# The floor's columns, as the ORM selects them.
COLUMNS = select(
    *(column for column in Article.__table__.c),
    Author.name.label("author_name"),
).join(Article.author)
# The floor's statements as ORM statements, by the floor's SQL, with their parameters.
STATEMENTS: dict[str, tuple[Select[Any], tuple[str, ...]]] = {
    GET: (COLUMNS.where(Article.id == bindparam("pk")), ("pk",)),
    PAGE: (
        COLUMNS.where(
            bindparam("after", type_=Article.id.type).is_(None)
            | (Article.id > bindparam("after"))
        )
        .order_by(Article.id)
        .limit(bindparam("rows")),
        ("after", "rows"),
    ),
}

sessions = async_sessionmaker(
    create_async_engine(
        os.environ["DATABASE_URL"], pool_size=15, max_overflow=0
    ).execution_options(isolation_level="AUTOCOMMIT"),
    expire_on_commit=False,
)


class SessionConnection:
    """The reads the floor makes of an asyncpg connection, on an ORM session."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def _rows(self, statement: str, args: tuple[Any, ...]) -> Any:
        orm_statement, names = STATEMENTS[statement]
        result = await self._session.execute(
            orm_statement, dict(zip(names, args, strict=True))
        )
        return result.mappings()

    async def fetchrow(self, statement: str, *args: Any) -> Any:
        return (await self._rows(statement, args)).first()

    async def fetch(self, statement: str, *args: Any) -> list[Any]:
        return list(await self._rows(statement, args))


def answer(status: int, payload: Any) -> Response:
    return Response(to_json(payload), status, media_type="application/json")


app = FastAPI()


@app.exception_handler(Answer)
async def refused(_: Request, error: Answer) -> Response:
    return answer(error.status, {"detail": error.detail})


@app.get("/articles")
async def list_articles(request: Request) -> Response:
    async with sessions() as session:
        connection: Any = SessionConnection(session)
        return answer(200, await page(connection, request.url.query))


@app.get("/articles/{pk}")
async def get_article(pk: uuid.UUID) -> Response:
    async with sessions() as session:
        connection: Any = SessionConnection(session)
        return answer(200, await get_one(connection, pk))


if __name__ == "__main__":
    run_server(app, given_port())
