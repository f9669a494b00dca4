"""SQLAlchemy models of the blog example.

Hand-written: codegen reads these through the config's dotted paths and never
changes them. Constraint names follow ``NAMING_CONVENTION`` so that API errors
can name them predictably (``uq_authors_email``, ``fk_comments_article_id_articles``).
"""

import enum
import uuid
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Enum,
    ForeignKey,
    MetaData,
    String,
    Table,
    Text,
    func,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


article_tags = Table(
    "article_tags",
    Base.metadata,
    Column(
        "article_id", ForeignKey("articles.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("tag_id", ForeignKey("tags.id", ondelete="CASCADE"), primary_key=True),
)


class Author(Base):
    __tablename__ = "authors"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    # The subject of the user who created the row (config/authz.jsonnet): stored by
    # blog.authz.claim_ownership at create, never taken from a request body.
    owner: Mapped[str | None]

    # passive_deletes="all": deleting an author who still has articles is left to
    # the foreign key, which refuses it (the API answers 409).
    articles: Mapped[list["Article"]] = relationship(
        back_populates="author", order_by="Article.title", passive_deletes="all"
    )


class Category(Base):
    __tablename__ = "categories"

    slug: Mapped[str] = mapped_column(primary_key=True)
    title: Mapped[str]


class Tag(Base):
    __tablename__ = "tags"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(unique=True)


class ArticleStatus(enum.StrEnum):
    """Where an article is in its life: its actions move it (publish, archive)."""

    draft = "draft"
    published = "published"
    archived = "archived"


class Article(Base):
    __tablename__ = "articles"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    title: Mapped[str]
    body: Mapped[str] = mapped_column(Text)
    published: Mapped[bool] = mapped_column(default=False)
    status: Mapped[ArticleStatus] = mapped_column(
        Enum(ArticleStatus, name="article_status"), default=ArticleStatus.draft
    )
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    publish_on: Mapped[date | None]
    word_count: Mapped[int] = mapped_column(default=0)
    rating: Mapped[float | None]
    extra: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    author_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("authors.id"))
    # The subject of the user who created the row (config/authz.jsonnet): stored by
    # blog.authz.claim_ownership at create, never taken from a request body.
    owner: Mapped[str | None]

    author: Mapped[Author] = relationship(back_populates="articles")
    tags: Mapped[list[Tag]] = relationship(
        secondary=article_tags, order_by=Tag.name, passive_deletes=True
    )
    comments: Mapped[list["Comment"]] = relationship(
        back_populates="article",
        order_by="Comment.created_at",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


class Comment(Base):
    __tablename__ = "comments"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    article_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("articles.id", ondelete="CASCADE")
    )
    author_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("authors.id"))
    # The subject of the user who created the row (config/authz.jsonnet): stored by
    # blog.authz.claim_ownership at create, never taken from a request body.
    owner: Mapped[str | None]

    article: Mapped[Article] = relationship(back_populates="comments")
    author: Mapped[Author] = relationship()


class Activity(Base):
    """What the ``post`` hooks of blog/hooks.py record once a write is committed."""

    __tablename__ = "activity"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    kind: Mapped[str]
    subject_id: Mapped[uuid.UUID]
    summary: Mapped[str]
    at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class Attachment(Base):
    """A file in S3-compatible storage, its row with kiln's file columns
    (config/kiln.jsonnet serves it with ``resource.files()``)."""

    __tablename__ = "attachments"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    s3_key: Mapped[str] = mapped_column(String(1024), unique=True)
    content_type: Mapped[str | None] = mapped_column(String(255))
    size_bytes: Mapped[int | None] = mapped_column(BigInteger)
    original_filename: Mapped[str | None] = mapped_column(String(512))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    uploaded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


async def create_tables(engine: AsyncEngine) -> None:
    """Create what the generated API queries, for the demo and the tests: extensions,
    the tables of these models and of its runtime, and the lists' indexes.

    Projects create them with migrations (Alembic) instead.
    """
    # The generated tree imports this module: import it only when called.
    from blog.api.database import METADATA

    async with engine.begin() as connection:
        for metadata in METADATA:
            await connection.run_sync(metadata.create_all)
