"""SQLAlchemy models of the lending library example.

Hand-written: codegen reads them through the config's dotted paths. They exercise
what the blog does not: integer, UUID and text keys; short ``String(n)``, ``Numeric``
and ``BigInteger`` columns; a many-to-many link; a relation that may be absent; and
foreign keys whose ``ON DELETE`` rules differ (cascade, set null, restrict), which
the generated delete routes leave to the database.
"""

import uuid
from datetime import date, datetime

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    MetaData,
    Numeric,
    String,
    Table,
    func,
)
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


book_genres = Table(
    "book_genres",
    Base.metadata,
    Column("book_id", ForeignKey("books.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "genre_code",
        ForeignKey("genres.code", ondelete="CASCADE", onupdate="CASCADE"),
        primary_key=True,
    ),
)


class Publisher(Base):
    __tablename__ = "publishers"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    country: Mapped[str] = mapped_column(String(2))
    """ISO 3166-1 alpha-2 code: ``"GB"``, never ``"GBR"``."""


class Author(Base):
    __tablename__ = "authors"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    name: Mapped[str] = mapped_column(String(200))
    born_on: Mapped[date | None]

    books: Mapped[list["Book"]] = relationship(
        back_populates="author", order_by="Book.title"
    )


class Genre(Base):
    __tablename__ = "genres"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    label: Mapped[str] = mapped_column(String(80))


class Book(Base):
    __tablename__ = "books"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    title: Mapped[str] = mapped_column(String(200))
    isbn: Mapped[str] = mapped_column(String(13), unique=True)
    published_on: Mapped[date | None]
    # Read as float (asdecimal=False): the API speaks JSON numbers.
    price: Mapped[float] = mapped_column(Numeric(8, 2, asdecimal=False))
    rating: Mapped[float | None]
    # Deleting an author who still has books is refused by the database (409).
    author_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("authors.id"))
    # Deleting a publisher leaves its books without one.
    publisher_id: Mapped[int | None] = mapped_column(
        ForeignKey("publishers.id", ondelete="SET NULL")
    )

    author: Mapped[Author] = relationship(back_populates="books")
    publisher: Mapped[Publisher | None] = relationship()
    genres: Mapped[list[Genre]] = relationship(
        secondary=book_genres, order_by=Genre.code
    )
    copies: Mapped[list["Copy"]] = relationship(
        back_populates="book", order_by="Copy.barcode"
    )


class Copy(Base):
    __tablename__ = "copies"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    # Deleting a book deletes its copies, unless one is on loan (restricted below).
    book_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("books.id", ondelete="CASCADE")
    )
    barcode: Mapped[str] = mapped_column(String(20), unique=True)
    condition: Mapped[str] = mapped_column(String(10), default="good")

    book: Mapped[Book] = relationship(back_populates="copies")
    loans: Mapped[list["Loan"]] = relationship(
        back_populates="copy", order_by="Loan.borrowed_at"
    )


class Member(Base):
    __tablename__ = "members"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    name: Mapped[str] = mapped_column(String(120))
    email: Mapped[str] = mapped_column(String(254), unique=True)
    card_number: Mapped[int] = mapped_column(BigInteger, unique=True)
    joined_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class Loan(Base):
    __tablename__ = "loans"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    # A copy or member with loans on record cannot be deleted (409).
    copy_id: Mapped[int] = mapped_column(ForeignKey("copies.id"))
    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id"))
    borrowed_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    due_on: Mapped[date]
    returned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    copy: Mapped[Copy] = relationship(back_populates="loans")
    member: Mapped[Member] = relationship()


async def create_tables(engine: AsyncEngine) -> None:
    """Create every table of the library, for the demo and the tests."""
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
