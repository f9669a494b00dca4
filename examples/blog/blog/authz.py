"""Authorization of the blog example: the functions config/authz.jsonnet names.

Users carry their groups in the token's ``roles`` claim (``reader``, ``writer``,
``editor``, ``admin``); a user is the author of the articles whose author has the
user's subject as email.

* ``visible_articles`` (the resource's ``visible``): editors and admins see every
  article, everyone else (anonymous readers too) the published ones and their own.
* ``can_edit_article`` (``can`` on update): the article's author, an editor or an
  admin may change it.
* ``user_groups``: the membership function a config may name in ``auth.groups.fn``
  instead of a claim; here it reads the same claim.
"""

from collections.abc import Mapping
from typing import Any, Protocol

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from blog.models import Article, Author

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


async def user_groups(user: User) -> set[str]:
    """The groups of *user*: its token's roles."""
    return set(_roles(user))


def visible_articles(user: User | None) -> ColumnElement[bool] | None:
    """The articles *user* may see; ``None`` (every article) for editors and admins."""
    if user is None:
        return Article.published.is_(True)
    if _roles(user) & _SEE_ALL:
        return None
    return or_(
        Article.published.is_(True), Article.author.has(Author.email == user.subject)
    )


async def can_edit_article(
    user: User, article: Article | None, session: AsyncSession
) -> bool:
    """Whether *user* may change *article*: its author, an editor or an admin."""
    if _roles(user) & _SEE_ALL:
        return True
    if article is None:
        return False
    author_email = await session.scalar(
        select(Author.email).where(Author.id == article.author_id)
    )
    return author_email == user.subject
