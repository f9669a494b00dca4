"""Custom actions of the blog example, exposed as ``POST`` routes by codegen.

Calling convention (fixed for every action the generated routes call):

* A per-instance action (``POST /articles/{pk}/<slug>``) receives the instance
  first, loaded with everything its read schema needs, so relationships such as
  ``article.tags`` are available without lazy loads. A collection action
  (``POST /articles/<slug>``) receives no instance.
* The action's params follow as keyword arguments, already validated against
  their declared types; a bad value is answered with 422 before the action runs.
* ``session=`` is the request's ``AsyncSession``. An action with ``pass_user: true``
  also receives ``current_user=``: the authenticated user (config/auth.jsonnet),
  whatever the project's ``get_current_user_fn`` returns otherwise
  (config/auth_custom.jsonnet).
* ``def`` and ``async def`` both work. A ``def`` action runs on the event loop,
  so it must not block; it may change the instance or ``session.add`` objects,
  but it cannot await queries.
* Actions never commit: the route commits after the action returns and rolls
  back if it raises. Database errors raised by an action are answered like any
  other (409 for a violated constraint).
* A per-instance action's return value is ignored; the route answers with the
  refreshed instance. A collection action's return value must be
  JSON-serialisable and becomes the response body.
"""

from datetime import UTC, date, datetime
from typing import Any, Protocol

from sqlalchemy import insert, update
from sqlalchemy.ext.asyncio import AsyncSession

from blog.messages import ArticlePublished
from blog.models import Article, ArticleStatus, article_tags


def publish_article(article: Article, *, session: AsyncSession) -> None:
    """Publish *article* now."""
    article.published = True
    article.published_at = datetime.now(UTC)
    article.status = ArticleStatus.published


async def schedule_article(
    article: Article,
    *,
    publish_on: date,
    note: str | None = None,
    session: AsyncSession,
) -> None:
    """Plan *article* for publication on *publish_on*, with an optional note."""
    article.publish_on = publish_on
    if note is not None:
        article.extra = {**article.extra, "schedule_note": note}
    await session.flush()


async def tag_article(article: Article, *, tag_id: int, session: AsyncSession) -> None:
    """Attach the tag *tag_id* to *article*; an unknown or repeated tag conflicts."""
    await session.execute(
        insert(article_tags).values(article_id=article.id, tag_id=tag_id)
    )


async def archive_stale_articles(
    *, before: datetime, session: AsyncSession
) -> dict[str, Any]:
    """Unpublish and archive every article published before *before*; report how
    many."""
    archived = await session.scalars(
        update(Article)
        .where(Article.published, Article.published_at < before)
        .values(published=False, status=ArticleStatus.archived)
        .returning(Article.id)
    )
    return {"archived": len(archived.all())}


def count_words(*, text: str, session: AsyncSession) -> dict[str, Any]:
    """Count the whitespace-separated words of *text*."""
    return {"words": len(text.split())}


class Reviewer(Protocol):
    """What ``review_article`` needs of the current user: the generated auth package's
    ``AuthenticatedUser`` and ``blog.auth.User`` both have it."""

    @property
    def subject(self) -> str: ...


def review_article(
    article: Article, *, session: AsyncSession, current_user: Reviewer
) -> None:
    """Record that the current user reviewed *article* (``pass_user: true``)."""
    article.extra = {**article.extra, "reviewed_by": current_user.subject}


async def may_review(
    user: Reviewer | None, article: Article | None, session: AsyncSession
) -> bool:
    """Guard of ``review_article`` (config/frontend.jsonnet): a draft is reviewed, a
    published article no longer is."""
    return article is not None and not article.published


async def announce_article(
    article: Article, *, recipient: str, tag_id: int, session: AsyncSession
) -> None:
    """Publish *article*, tag it *tag_id*, and announce it to *recipient* and the
    feed. The message is written in the request's transaction: an unknown tag
    conflicts (409), and then nothing is published, tagged or sent."""
    # blog/api/comms.py is generated only from config/comms.jsonnet: imported here, so
    # the trees of the other configs, which have no route calling this, import cleanly.
    from blog.api.comms import send_comm  # pyright: ignore[reportMissingImports]

    publish_article(article, session=session)
    context = ArticlePublished(
        title=article.title, author=article.author.name, summary=article.body[:200]
    )
    await send_comm(session, "article_published", context, to=[recipient])
    await tag_article(article, tag_id=tag_id, session=session)
