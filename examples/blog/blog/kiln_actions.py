"""Actions and hooks with kiln's signatures, for config/kiln.jsonnet (``convention:
"kiln"``).

The row comes first (none for a collection action), then the request's session as
``db``, the request body as one Pydantic model named ``body``, and the model class
where a parameter asks for it. What the function returns is the answer: a model, or
nothing (``-> None``, 204 No Content). The config names the body and response models
(``body``, ``response``), because codegen does not import this module to read them.

A ``pre`` hook gets the validated request body and the session, and returns the body to
store; a ``post`` hook gets the row as committed, the body and the session. A guard
(``can``) gets the row (``None`` on a collection) and the signed-in user's session
model.
"""

import uuid
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_object_session

from blog.auth import Session
from blog.models import Article, ArticleStatus, Attachment, Author


class Publication(BaseModel):
    id: uuid.UUID
    published: bool


async def publish(article: Article, db: AsyncSession) -> Publication:
    """Publish *article* now."""
    article.published = True
    article.published_at = datetime.now(UTC)
    article.status = ArticleStatus.published
    await db.flush()
    return Publication(id=article.id, published=article.published)


class Retitle(BaseModel):
    title: str = Field(min_length=1)


async def retitle(article: Article, db: AsyncSession, body: Retitle) -> None:
    """Give *article* the body's title."""
    article.title = body.title


async def may_retitle(article: Article | None, session: Session) -> bool:
    """kiln's guard: an archived article keeps its title, whoever signed in."""
    return (
        article is not None
        and article.status != ArticleStatus.archived
        and bool(session.sub)
    )


class Count(BaseModel):
    count: int


async def count(db: AsyncSession, model: type[Article]) -> Count:
    """How many rows *model* has."""
    return Count(count=await db.scalar(select(func.count()).select_from(model)) or 0)


async def tidy_title(body: Any, *, db: AsyncSession) -> Any:
    """Store the title without the spaces around it."""
    return body.model_copy(update={"title": body.title.strip()})


async def count_words(article: Article, body: Any, *, db: AsyncSession) -> None:
    """Once the article is stored, count the words of the text sent."""
    article.word_count = len(body.body.split())
    await db.commit()


async def author_with_count(
    author: Author, session: Session | None, db: AsyncSession
) -> dict[str, Any]:
    """kiln's serializer of an author's get: the row, who asks, and the database."""
    count = await db.scalar(
        select(func.count()).select_from(Article).where(Article.author_id == author.id)
    )
    return {
        "id": str(author.id),
        "name": author.name,
        "email": author.email,
        "articles": [{"id": str(a.id), "title": a.title} for a in author.articles],
        "article_count": count,
        "asked_by": None if session is None else session.name,
    }


def visible_attachments(session: Session | None) -> ColumnElement[bool] | None:
    """Files whose name starts with ``private-`` are nobody's to see through the API."""
    return Attachment.original_filename.not_like("private-%")


async def attachment_link(
    attachment: Attachment, session: Session | None
) -> dict[str, Any]:
    """kiln's link builder: a file labelled by its name, how many versions of it the
    user may see (versions share the name after its first ``-``: ``draft-notes.txt``,
    ``final-notes.txt``), and who asks. It counts through the session that loaded the
    file, the request's, so row visibility applies to what it reads."""
    name = attachment.original_filename or ""
    db = async_object_session(attachment)
    if db is None:
        raise RuntimeError("the file was not loaded through a session")
    stem = name.partition("-")[2]
    versions = await db.scalar(
        select(func.count())
        .select_from(Attachment)
        .where(Attachment.original_filename.endswith(stem, autoescape=True))
    )
    who = session.name if session is not None else "anyone"
    return {
        "type": "attachment",
        "id": attachment.id,
        "label": f"{name} ({versions} versions) for {who}",
    }
