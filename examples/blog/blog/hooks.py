"""Hooks and serializers of the blog example (config/hooks.jsonnet, docs/hooks.md).

* ``count_words``, the ``pre`` hook of article create and update, stores the word
  count of the body being written, whatever the client sent as ``word_count``.
* ``record_article_created`` and ``record_article_deleted``, ``post`` hooks, write
  to the activity log once the article's write is committed.
* ``author_card`` answers ``GET /authors/{pk}`` as an ``AuthorCard``;
  ``tag_label`` turns each tag of ``GET /tags`` into a plain string.
"""

import uuid
from typing import Any

from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from blog.models import Activity, Article, Author, Tag


async def count_words(
    values: dict[str, Any], *, session: AsyncSession, row: Article | None = None
) -> dict[str, Any]:
    """Set ``word_count`` from the body; an update without a body keeps it."""
    body = values.get("body")
    if body is not None:
        values["word_count"] = len(body.split())
    return values


async def record_article_created(article: Article, *, session: AsyncSession) -> None:
    """Log a new article: committed, so it has its id and other readers see it."""
    session.add(
        Activity(kind="article_created", subject_id=article.id, summary=article.title)
    )
    await session.commit()


async def record_article_deleted(article: Article, *, session: AsyncSession) -> None:
    """Log a deleted article, as it was when deleted."""
    session.add(
        Activity(kind="article_deleted", subject_id=article.id, summary=article.title)
    )
    await session.commit()


class AuthorCard(BaseModel):
    """An author as ``GET /authors/{pk}`` shows them."""

    id: uuid.UUID
    name: str
    article_count: int


def author_card(author: Author) -> AuthorCard:
    """The card of *author*, whose articles the route has loaded."""
    return AuthorCard(
        id=author.id, name=author.name, article_count=len(author.articles)
    )


def tag_label(tag: Tag) -> str:
    """A tag as a hashtag."""
    return f"#{tag.name}"
