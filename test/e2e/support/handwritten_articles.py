"""The blog's article routes written by hand, the careful FastAPI + SQLAlchemy way.

The baseline of ``npm run bench:api`` (bench/api.ts): get one article with its author,
a keyset page of articles with their authors, create and update (``PATCH``), each
answering the article with its author, as the routes codegen generates for the bench's
config do, on the same models, database and server (its pool SQLAlchemy's 5 connections
plus 10 overflow, as handwritten.py writes it), with the same contract (handwritten.py):
return annotations, ``joinedload``, an async session dependency, a 1 MiB body limit and
``Idempotency-Key`` on create.
Run as ``python handwritten_articles.py --port <port>`` with ``DATABASE_URL`` set and
the blog example on ``PYTHONPATH``; served as ``serve.py`` serves the generated routes.
"""

import base64
import uuid
from datetime import date, datetime
from typing import Annotated, Any

from blog.models import Article
from fastapi import FastAPI, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload

from handwritten import (
    MAX_BODY_SIZE,
    IdempotencyKeyHeader,
    Session,
    fingerprint,
    remember,
    serve,
    stored_answer,
)


class AuthorBrief(BaseModel):
    id: uuid.UUID
    name: str


class ArticleOut(BaseModel):
    id: uuid.UUID
    title: str
    body: str
    published: bool
    status: str
    published_at: datetime | None
    publish_on: date | None
    word_count: int
    rating: float | None
    extra: dict[str, Any]
    author_id: uuid.UUID
    author: AuthorBrief


class ArticlePage(BaseModel):
    items: list[ArticleOut]
    next_cursor: str | None


class ArticleIn(BaseModel):
    title: str
    body: str
    published: bool = False
    published_at: datetime | None = None
    publish_on: date | None = None
    word_count: int = 0
    rating: float | None = None
    extra: dict[str, Any] = Field(default_factory=dict)
    author_id: uuid.UUID


class ArticlePatch(BaseModel):
    title: str | None = None
    body: str | None = None
    published: bool | None = None
    published_at: datetime | None = None
    publish_on: date | None = None
    word_count: int | None = None
    rating: float | None = None
    extra: dict[str, Any] | None = None
    author_id: uuid.UUID | None = None


class PageQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    limit: int = Field(20, ge=1, le=100)
    cursor: str | None = None


app = FastAPI(max_body_size=MAX_BODY_SIZE)


def to_out(article: Article) -> ArticleOut:
    return ArticleOut(
        id=article.id,
        title=article.title,
        body=article.body,
        published=article.published,
        status=article.status,
        published_at=article.published_at,
        publish_on=article.publish_on,
        word_count=article.word_count,
        rating=article.rating,
        extra=article.extra,
        author_id=article.author_id,
        author=AuthorBrief(id=article.author.id, name=article.author.name),
    )


async def load(session: AsyncSession, article_id: uuid.UUID) -> Article:
    article = await session.get(
        Article,
        article_id,
        options=[joinedload(Article.author)],
        populate_existing=True,
    )
    if article is None:
        raise HTTPException(404, "Article not found")
    return article


@app.get("/articles/{article_id}")
async def get_article(article_id: uuid.UUID, session: Session) -> ArticleOut:
    return to_out(await load(session, article_id))


@app.get("/articles")
async def list_articles(
    query: Annotated[PageQuery, Query()], session: Session
) -> ArticlePage:
    statement = (
        select(Article)
        .options(joinedload(Article.author))
        .order_by(Article.id)
        .limit(query.limit + 1)
    )
    if query.cursor:
        try:
            after = uuid.UUID(base64.urlsafe_b64decode(query.cursor).decode())
        except ValueError:
            raise HTTPException(422, "Invalid cursor") from None
        statement = statement.where(Article.id > after)
    articles = (await session.scalars(statement)).all()
    items = [to_out(article) for article in articles[: query.limit]]
    next_cursor = None
    if len(articles) > query.limit:
        next_cursor = base64.urlsafe_b64encode(str(items[-1].id).encode()).decode()
    return ArticlePage(items=items, next_cursor=next_cursor)


@app.post("/articles", status_code=201)
async def create_article(
    body: ArticleIn,
    request: Request,
    session: Session,
    response: Response,
    idempotency_key: IdempotencyKeyHeader = None,
) -> ArticleOut:
    body_fingerprint = fingerprint(body)
    stored = await stored_answer(session, idempotency_key, body_fingerprint)
    if stored is not None:
        response.headers["Idempotent-Replayed"] = "true"
        return ArticleOut.model_validate(stored)
    article = Article(**body.model_dump())
    session.add(article)
    try:
        await session.flush()
        answer = to_out(await load(session, article.id))
        remember(session, idempotency_key, body_fingerprint, answer)
        await session.commit()
    except IntegrityError:
        # An unknown author, or the same key committed by a concurrent request.
        raise HTTPException(409, "Conflict") from None
    response.headers["Location"] = str(
        request.url_for("get_article", article_id=article.id)
    )
    return answer


@app.patch("/articles/{article_id}")
async def update_article(
    article_id: uuid.UUID, body: ArticlePatch, session: Session
) -> ArticleOut:
    article = await session.get(Article, article_id)
    if article is None:
        raise HTTPException(404, "Article not found")
    for name, value in body.model_dump(exclude_unset=True).items():
        setattr(article, name, value)
    try:
        await session.flush()
        answer = to_out(await load(session, article_id))
        await session.commit()
    except IntegrityError:
        raise HTTPException(409, "Conflict") from None
    return answer


if __name__ == "__main__":
    serve(app)
