"""Authorization of the blog example: the functions config/authz.jsonnet names.

Users carry their groups in the token's ``roles`` claim (``reader``, ``writer``,
``editor``, ``admin``). Authors, articles and comments have an owner: the subject (the
token's ``sub``) of the user who created them, which ``claim_ownership`` stores on the
row at create. No request body carries it and no update changes it, so nobody can make
a row theirs by editing another one (an author's email, an article's author).

* ``visible_articles`` and ``visible_comments`` (the resources' ``visible``): editors
  and admins see every row; everyone else (anonymous readers too) the published
  articles and their own, and the comments of the articles they see (by whatever rule
  articles have: OPA's in config/opa.jsonnet).
* ``can_change`` (``can`` on update, delete and the article actions): the row's owner,
  an editor or an admin.
* ``claim_ownership`` (``pre`` hook of create and update): stores the owner at create,
  and lets a user write only as an author they own, and comment only on an article
  they may see.
* ``user_groups``: the membership function a config may name in ``auth.groups.fn``
  instead of a claim; here it reads the same claim.
"""

import uuid
from collections.abc import Mapping
from typing import Any, Protocol

from fastapi import HTTPException, status
from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from blog.models import Article, Author, Comment

Owned = Author | Article | Comment
"""A row with an owner."""

_SEE_ALL = frozenset({"editor", "admin"})


class User(Protocol):
    """What these functions read of the current user (the JWT flow's user)."""

    @property
    def subject(self) -> str: ...

    @property
    def claims(self) -> Mapping[str, Any]: ...


def _roles(user: User) -> frozenset[str]:
    roles = user.claims.get("roles")
    return (
        frozenset(role for role in roles if isinstance(role, str))
        if isinstance(roles, list)
        else frozenset()
    )


def _sees_all(user: User) -> bool:
    return bool(_roles(user) & _SEE_ALL)


async def user_groups(user: User) -> set[str]:
    """The groups of *user*: its token's roles."""
    return set(_roles(user))


def visible_articles(user: User | None) -> ColumnElement[bool] | None:
    """The articles *user* may see; ``None`` (every article) for editors and admins."""
    if user is None:
        return Article.published.is_(True)
    if _sees_all(user):
        return None
    return or_(Article.published.is_(True), Article.owner == user.subject)


def visible_comments(user: User | None) -> ColumnElement[bool] | None:
    """The comments of the articles *user* may see.

    Whatever rule articles have (``visible_articles``, or OPA's rows in
    config/opa.jsonnet) applies inside this ``EXISTS``, as it does to every read of
    articles.
    """
    if user is not None and _sees_all(user):
        return None
    return Comment.article.has()


async def can_change(user: User, row: Owned | None, session: AsyncSession) -> bool:
    """Whether *user* may change *row*: its owner, an editor or an admin."""
    if _sees_all(user):
        return True
    return row is not None and row.owner == user.subject


def _unprocessable(field: str, message: str, value: Any) -> HTTPException:
    return HTTPException(
        status.HTTP_422_UNPROCESSABLE_ENTITY,
        detail=[
            {
                "type": "value_error",
                "loc": ["body", field],
                "msg": message,
                "input": str(value),
            }
        ],
    )


async def claim_ownership(
    values: dict[str, Any],
    *,
    session: AsyncSession,
    current_user: User | None,
    row: Owned | None = None,
) -> dict[str, Any]:
    """Store the owner of a new row; refuse an author or article the user may not use.

    ``author_id`` must name an author the user owns (editors and admins may name any);
    ``article_id`` an article the user may see. The article is read through the
    request's session, whose visibility rule hides what the user may not see: a hidden
    article is answered like a missing one (422).
    """
    if current_user is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, detail="Not authenticated")
    if row is None:
        values["owner"] = current_user.subject
    author_id: uuid.UUID | None = values.get("author_id")
    if author_id is not None and not _sees_all(current_user):
        owner = await session.scalar(select(Author.owner).where(Author.id == author_id))
        if owner != current_user.subject:
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                detail="You may only write as an author you created",
            )
    article_id: uuid.UUID | None = values.get("article_id")
    if article_id is not None:
        found = await session.scalar(select(Article.id).where(Article.id == article_id))
        if found is None:
            raise _unprocessable("article_id", "No article with this id", article_id)
    return values
